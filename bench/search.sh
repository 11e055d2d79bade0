#!/usr/bin/env bash
# llm search vs ripgrep on the pinned corpora: wall-time medians measured in the same hyperfine
# run, their ratio (target ≤ 1.2) and both tools' match counts (must be equal); then the peak
# memory of `--format jsonl` on the Rust corpus (target < 100 MB). Prints a markdown table.
#   bench/search.sh            (RUNS=N and WARMUP=N to change the repetitions)
#   MAIN=0 bench/search.sh     only the scaling section at the end (THREADS="1 2 4 …", COPIES=N)
#   LLM=path/to/llm            measure that binary instead of building one
source "$(dirname "$0")/common.sh"
RUNS=${RUNS:-10}
WARMUP=${WARMUP:-3}
search_peers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Counting helpers: every count comes from the tool's own output.
json_count_llm() { python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["match_count"])'; }
json_count_rg() { tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["stats"]["matches"])'; }
sum_counts() { awk -F: '{s += $NF} END {print s + 0}'; }

# case NAME LLM_ARGS RG_ARGS COUNT_KIND — one row; COUNT_KIND: json | lines | counts | matches
rows=()
run_corpus() {
  local label=$1 dir=$2
  shift 2
  local cmds=() names=() kinds=() llm_args=() rg_args=()
  while (($#)); do
    names+=("$1"); llm_args+=("$2"); rg_args+=("$3"); kinds+=("$4"); shift 4
  done
  cd "$dir"
  for i in "${!names[@]}"; do
    cmds+=("$LLM search ${llm_args[$i]}" "rg ${rg_args[$i]}")
  done
  # -N: no shell; --output=pipe: stdout is a pipe, as for a consumer (rg treats /dev/null as
  # "quit after the first match").
  hyperfine -N --output=pipe --warmup "$WARMUP" --runs "$RUNS" -i \
    --export-json "$tmp/$label.json" "${cmds[@]}" >/dev/null 2>&1
  for i in "${!names[@]}"; do
    local l r lc rc
    l=$(median_ms "$tmp/$label.json" $((2 * i)))
    r=$(median_ms "$tmp/$label.json" $((2 * i + 1)))
    case ${kinds[$i]} in
      json)
        lc=$(eval "$LLM search ${llm_args[$i]}" 2>/dev/null | json_count_llm)
        rc=$(eval "rg ${rg_args[$i]}" 2>/dev/null | json_count_rg) ;;
      lines)
        lc=$(eval "$LLM search ${llm_args[$i]}" 2>/dev/null | wc -l)
        rc=$(eval "rg ${rg_args[$i]}" 2>/dev/null | wc -l) ;;
      counts)
        lc=$(eval "$LLM search ${llm_args[$i]}" 2>/dev/null | sum_counts)
        rc=$(eval "rg ${rg_args[$i]}" 2>/dev/null | sum_counts) ;;
      matches)
        lc=$(eval "$LLM search --count-matches ${llm_args[$i]}" 2>/dev/null | sum_counts)
        rc=$(eval "rg --count-matches ${rg_args[$i]}" 2>/dev/null | sum_counts) ;;
    esac
    local ratio
    ratio=$(python3 -c "print('%.2f' % ($l / $r))")
    local same="yes"
    [[ $lc == "$rc" ]] || same="**NO**"
    rows+=("| $label | \`${names[$i]}\` | $l | $r | $ratio | $lc | $rc | $same |")
  done
  cd - >/dev/null
}

if [[ ${MAIN:-1} != 0 ]]; then
run_corpus rust "$RUST_CORPUS" \
  "--format json self" "--format json self" "--json self" json \
  "self (human, piped)" "self" "-n self" lines \
  "-c self" "-c self" "-c self" counts \
  "-w Result" "-w Result" "-n -w Result" matches \
  "-i error" "-i error" "-n -i error" matches \
  "-U '\}\n\s*\n\s*impl'" "-U '\}\n\s*\n\s*impl'" "-n -U '\}\n\s*\n\s*impl'" matches
run_corpus python "$PY_CORPUS" \
  "--format json self" "--format json self" "--json self" json \
  "self (human, piped)" "self" "-n self" lines \
  "-c self" "-c self" "-c self" counts \
  "-w None" "-w None" "-n -w None" matches \
  "-i error" "-i error" "-n -i error" matches \
  "-U 'def \w+\(self\):\n\s+return'" "-U 'def \w+\(self\):\n\s+return'" "-n -U 'def \w+\(self\):\n\s+return'" matches

rss_kb=$(cd "$RUST_CORPUS" && peak_rss_kb "$LLM" search --format jsonl self)

echo "Machine: $(machine); ripgrep $(rg --version | head -1 | cut -d' ' -f2); $RUNS runs after $WARMUP warm-ups, medians."
echo
echo "| corpus | llm search … | llm ms | rg ms | ratio | llm count | rg count | equal |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Peak RSS of \`llm search --format jsonl self\` on the Rust corpus: $((rss_kb / 1024)) MB (target < 100 MB)."
fi

# ---- Scaling: the serial part. A tree 16 times the Rust corpus (COPIES=N to change), then
# `--files` against `rg --files` (the walk alone), the search at each thread count of THREADS
# (default 1 2 4 … up to the cores) with the speed-up over -j1 for both tools, and the peak RSS
# of `--format jsonl` on the big tree against the 1× tree (target: within 1.5×).
# SCALING=0 skips it.
if [[ ${SCALING:-1} != 0 ]]; then
  copies=${COPIES:-16}
  big="$tmp/tree"
  for i in $(seq 1 "$copies"); do
    mkdir -p "$big/c$i" && cp -r "$RUST_CORPUS/." "$big/c$i/"
  done
  cores=$(nproc)
  THREADS=${THREADS:-$(thread_counts 1 2 4 8 16 32 64)}
  cd "$big"
  hyperfine -N --output=pipe --warmup 1 --runs "$RUNS" -i --export-json "$tmp/files.json" \
    "$LLM search --files" "rg --files" >/dev/null 2>&1
  fl=$(median_ms "$tmp/files.json" 0)
  fr=$(median_ms "$tmp/files.json" 1)
  nl=$("$LLM" search --files | wc -l)
  nr=$(rg --files | wc -l)
  srows=()
  declare -A base
  for t in $THREADS; do
    hyperfine -N --output=pipe --warmup 1 --runs "$RUNS" -i --export-json "$tmp/j$t.json" \
      "$LLM search -j$t --format json self" "rg -j$t --json self" \
      "$LLM search -j$t self" "rg -j$t -n self" \
      "$LLM search -j$t -c self" "rg -j$t -c self" >/dev/null 2>&1
    row="| $t"
    for k in 0 1 2 3 4 5; do
      ms=$(median_ms "$tmp/j$t.json" "$k")
      [[ -n ${base[$k]:-} ]] || base[$k]=$ms
      row+=" | $ms ($(python3 -c "print('%.2f' % (${base[$k]} / $ms))")×)"
    done
    for k in 0 2 4; do
      l=$(median_ms "$tmp/j$t.json" "$k")
      r=$(median_ms "$tmp/j$t.json" $((k + 1)))
      row+=" | $(python3 -c "print('%.2f' % ($l / $r))")"
    done
    srows+=("$row |")
  done
  cd - >/dev/null
  rss() {
    (cd "$1" && peak_rss_kb "$LLM" search --format jsonl self)
  }
  small_kb=$(rss "$RUST_CORPUS")
  big_kb=$(rss "$big")
  echo
  echo "Scaling on the Rust corpus copied $copies times ($nl files; rg lists $nr), $cores cores:"
  echo
  echo "\`llm search --files\` $fl ms, \`rg --files\` $fr ms: $(python3 -c "print('%.2f' % ($fl / $fr))")×."
  echo
  echo "| -j | llm json ms (speed-up) | rg --json ms | llm human ms | rg -n ms | llm -c ms | rg -c ms | json ratio | human ratio | -c ratio |"
  echo "|---:|---|---|---|---|---|---|---:|---:|---:|"
  printf '%s\n' "${srows[@]}"
  echo
  echo "Peak RSS of \`--format jsonl self\`: 1× tree $((small_kb / 1024)) MB, ${copies}× tree $((big_kb / 1024)) MB ($(python3 -c "print('%.2f' % ($big_kb / $small_kb))")×; target ≤ 1.5×)."
fi
