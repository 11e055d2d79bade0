#!/usr/bin/env bash
# How `llm search` and `llm find` scale with threads, each beside ripgrep at the same -j in the
# same hyperfine run: the pinned Rust and Python corpora, then the Rust corpus copied COPIES times.
# Made for a quiet many-core machine; bench/search.sh's scaling section is the small-machine view.
# Prints markdown tables: wall-time medians (llm / rg = ratio), each tool's speed-up over -j1, the
# CPU time (user + system) behind llm's json search, `--files` against `rg --files`, and the peak
# RSS of `--format jsonl` on the big tree against the 1× tree.
#   bench/threads.sh                 THREADS="1 2 4 8 12 16" (up to the cores), RUNS=5, COPIES=16,
#                                    BIG_THREADS="1 4 16" (thread counts for the big tree)
#   LLM=path/to/llm                  measure that binary instead of building one
#   JSON_DIR=dir                     keep hyperfine's JSON exports there
source "$(dirname "$0")/common.sh"
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
COPIES=${COPIES:-16}
search_peers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
json_dir=${JSON_DIR:-$tmp}
mkdir -p "$json_dir"
THREADS=${THREADS:-$(thread_counts 1 2 4 8 12 16 24 32 64)}
BIG_THREADS=${BIG_THREADS:-$(thread_counts 1 4 16)}

ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }

# table LABEL DIR THREADS NAME LLM_ARGS RG_ARGS … — one hyperfine run per thread count, with the
# pairs (llm, rg) interleaved as hyperfine runs them; one row per thread count, one cell per pair.
table() {
  local label=$1 dir=$2 threads=$3
  shift 3
  local names=() llm_args=() rg_args=()
  while (($#)); do
    names+=("$1"); llm_args+=("$2"); rg_args+=("$3"); shift 3
  done
  local head="| -j |" rule="|---:|" speed_head="| -j |" speed_rule="|---:|"
  for n in "${names[@]}"; do
    head+=" $n: llm / rg ms (ratio) |"; rule+="---|"
    speed_head+=" $n: llm | rg |"; speed_rule+="---:|---:|"
  done
  local rows=() speed=() cpu=()
  declare -A base=()
  (cd "$dir" && for t in $threads; do
    local cmds=()
    for i in "${!names[@]}"; do
      cmds+=("$LLM ${llm_args[$i]/@J/-j$t}" "rg ${rg_args[$i]/@J/-j$t}")
    done
    hyperfine -N --output=pipe --warmup "$WARMUP" --runs "$RUNS" -i \
      --export-json "$json_dir/$label-j$t.json" "${cmds[@]}" >/dev/null 2>&1
  done)
  for t in $threads; do
    local f="$json_dir/$label-j$t.json" row="| $t |" srow="| $t |"
    for i in "${!names[@]}"; do
      local l r
      l=$(hyperfine_ms "$f" $((2 * i)) median)
      r=$(hyperfine_ms "$f" $((2 * i + 1)) median)
      row+=" $l / $r ($(ratio "$l" "$r")) |"
      [[ -n ${base[l$i]:-} ]] || { base[l$i]=$l; base[r$i]=$r; }
      srow+=" $(ratio "${base[l$i]}" "$l")× | $(ratio "${base[r$i]}" "$r")× |"
    done
    rows+=("$row")
    speed+=("$srow")
    local lc rc
    lc=$(python3 -c "print('%.0f' % ($(hyperfine_ms "$f" 0 user) + $(hyperfine_ms "$f" 0 system)))")
    rc=$(python3 -c "print('%.0f' % ($(hyperfine_ms "$f" 1 user) + $(hyperfine_ms "$f" 1 system)))")
    cpu+=("| $t | $lc | $rc |")
  done
  echo
  echo "**$label** — wall-time medians:"
  echo
  echo "$head"; echo "$rule"; printf '%s\n' "${rows[@]}"
  echo
  echo "**$label** — speed-up over the first thread count:"
  echo
  echo "$speed_head"; echo "$speed_rule"; printf '%s\n' "${speed[@]}"
  echo
  echo "**$label** — CPU time (user + system, ms) of the first pair (${names[0]}):"
  echo
  echo "| -j | llm | rg |"; echo "|---:|---:|---:|"; printf '%s\n' "${cpu[@]}"
}

echo "Machine: $(machine); ripgrep $(rg --version | head -1 | cut -d' ' -f2); $RUNS runs after $WARMUP warm-up, medians."

table rust "$RUST_CORPUS" "$THREADS" \
  json "search @J --format json self" "@J --json self" \
  human "search @J self" "@J -n self" \
  -c "search @J -c self" "@J -c self" \
  "find from_utf8" "find @J from_utf8" "@J -n -w from_utf8"
table python "$PY_CORPUS" "$THREADS" \
  "-w test" "search @J -w test" "@J -n -w test" \
  json "search @J --format json self" "@J --json self"

big="$tmp/tree"
for i in $(seq 1 "$COPIES"); do
  mkdir -p "$big/c$i" && cp -r "$RUST_CORPUS/." "$big/c$i/"
done
table "rust×$COPIES" "$big" "$BIG_THREADS" \
  json "search @J --format json self" "@J --json self" \
  -c "search @J -c self" "@J -c self" \
  "find from_utf8" "find @J from_utf8" "@J -n -w from_utf8" \
  "find --refs Result" "find @J --refs Result" "@J -n -w Result"

cd "$big"
hyperfine -N --output=pipe --warmup "$WARMUP" --runs "$RUNS" -i --export-json "$json_dir/files.json" \
  "$LLM search --files" "rg --files" >/dev/null 2>&1
fl=$(hyperfine_ms "$json_dir/files.json" 0 median)
fr=$(hyperfine_ms "$json_dir/files.json" 1 median)
cd - >/dev/null
small_kb=$(cd "$RUST_CORPUS" && peak_rss_kb "$LLM" search --format jsonl self)
big_kb=$(cd "$big" && peak_rss_kb "$LLM" search --format jsonl self)
rg_kb=$(cd "$big" && peak_rss_kb rg --json self)
echo
echo "\`llm search --files\` on the ${COPIES}× tree: $fl ms; \`rg --files\`: $fr ms ($(ratio "$fl" "$fr")×)."
echo
echo "Peak RSS of \`llm search --format jsonl self\`: 1× tree $((small_kb / 1024)) MB," \
  "${COPIES}× tree $((big_kb / 1024)) MB ($(ratio "$big_kb" "$small_kb")×; target ≤ 1.5×);" \
  "\`rg --json self\` on the ${COPIES}× tree $((rg_kb / 1024)) MB."
