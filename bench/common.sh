#!/usr/bin/env bash
# Shared helpers for the benchmarks in bench/: source it, then call what you need.
#   corpora        builds/locates the pinned corpora → $RUST_CORPUS, $PY_CORPUS
#   need_rg        installs ripgrep (cargo install) when `rg` is missing
#   need_hyperfine installs hyperfine (apt-get) when missing
#   build_llm      cargo build --release → $LLM
#   search_peers   all four above, $LLM built unless given
#   machine        one line: cores, CPU model, date
#   peak_rss_kb    peak resident memory of a command, in KiB (GNU time; TIME_BIN=path to override)
set -euo pipefail
BENCH_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$HOME/.cargo/bin:$PATH"

corpora() {
  # Already located (e.g. unpacked on another machine): keep them.
  [[ -n ${RUST_CORPUS:-} && -n ${PY_CORPUS:-} ]] && { export RUST_CORPUS PY_CORPUS; return; }
  # CI clones main with shared/ beside the repository.
  local make="$BENCH_REPO/../shared/bench/make-corpus.sh"
  [[ -x $make ]] || make="/work/shared/bench/make-corpus.sh"
  eval "$("$make")"
  export RUST_CORPUS PY_CORPUS
}

need_rg() {
  command -v rg >/dev/null || cargo install --locked ripgrep
}

need_hyperfine() {
  command -v hyperfine >/dev/null && return
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && apt-get install -y -qq hyperfine
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq hyperfine
  fi
}

build_llm() {
  (cd "$BENCH_REPO" && cargo build --release --quiet)
  LLM="$BENCH_REPO/target/release/llm"
  export LLM
}

machine() {
  local cpu
  cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
  echo "$(nproc) cores, ${cpu:-unknown CPU}, $(date -u +%F)"
}

# hyperfine_ms FILE INDEX KEY: hyperfine's KEY (median, mean, user, system) of its INDEX-th
# command, in milliseconds.
hyperfine_ms() {
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]
print("%.1f" % (r[sys.argv[3]] * 1000))' "$1" "$2" "$3"
}

# median_ms FILE INDEX: the median of hyperfine's INDEX-th command, in milliseconds.
median_ms() {
  hyperfine_ms "$1" "$2" median
}

# thread_counts N…: those of N that are at most the machine's cores.
thread_counts() {
  local out="" t cores
  cores=$(nproc)
  for t in "$@"; do ((t <= cores)) && out+="$t "; done
  echo "$out"
}

# search_peers: the corpora, rg and hyperfine, and $LLM (built unless given): what the search
# benchmarks need.
search_peers() {
  corpora
  need_rg
  need_hyperfine
  [[ -n ${LLM:-} ]] || build_llm
}

# peak_rss_kb CMD…: runs CMD (stdout discarded) and prints its peak RSS in KiB.
peak_rss_kb() {
  "${TIME_BIN:-/usr/bin/time}" -v "$@" 2>&1 >/dev/null |
    awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}'
}
