#!/usr/bin/env bash
# The agent's loop on one small file: each command is a process of its own, so its start-up
# (loading, clap, building the walk's filters, reading the symbol query, compiling an `ast`
# query) is most of its cost. Times `find NAME FILE`, `find --outline FILE`, `search PAT FILE`
# and `ast QUERY FILE` on small files of the pinned Rust and Python corpora, beside `rg PAT
# FILE`, and counts instructions with callgrind where valgrind is installed (repeatable
# whatever the machine is doing).
#   bash bench/small.sh            RUNS=50 hyperfine runs after 5 warm-ups
#   LLM=path/to/llm                measure that binary instead of building one
#   BASE=path/to/llm               measure another binary beside it, in the same hyperfine run
source "$(dirname "$0")/common.sh"
RUNS=${RUNS:-50}
corpora
need_rg
need_hyperfine
[[ -n ${LLM:-} ]] || build_llm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rs=$(find "$RUST_CORPUS" -name '*.rs' -size -4k -size +1k | LC_ALL=C sort | head -1)
py=$(find "$PY_CORPUS" -name '*.py' -size -4k -size +1k | LC_ALL=C sort | head -1)
echo "Machine: $(machine); $RUNS runs after 5 warm-ups, medians (ms); files: $rs ($(wc -l <"$rs") lines), $py ($(wc -l <"$py") lines)."
echo

# One row per command: llm [base] (and rg's time where it has a peer).
rows=(
  "find --outline --json $rs|"
  "find fn --json $rs|"
  "search fn $rs|rg -n --column fn $rs"
  "ast (function_item)@f $rs|"
  "find --outline --json $py|"
  "search def $py|rg -n --column def $py"
  "ast (function_definition)@f $py|"
)
echo "| command | llm ms${BASE:+ | base ms} | rg ms | llm instructions${BASE:+ | base instructions} |"
echo "|---|---:|${BASE:+---:|}---:|---:|${BASE:+---:|}"
for row in "${rows[@]}"; do
  args=${row%%|*}
  peer=${row#*|}
  cmds=("$LLM $args")
  [[ -z ${BASE:-} ]] || cmds+=("$BASE $args")
  [[ -z $peer ]] || cmds+=("$peer")
  hyperfine -N --output=pipe -w 5 -r "$RUNS" -i --export-json "$tmp/h.json" "${cmds[@]}" >/dev/null 2>&1
  line="| \`${args/$RUST_CORPUS\//}\` | $(median_ms "$tmp/h.json" 0)"
  i=1
  [[ -z ${BASE:-} ]] || { line+=" | $(median_ms "$tmp/h.json" $i)"; i=$((i + 1)); }
  if [[ -n $peer ]]; then line+=" | $(median_ms "$tmp/h.json" $i)"; else line+=" | –"; fi
  for b in "$LLM" ${BASE:+"$BASE"}; do
    if command -v valgrind >/dev/null; then
      # shellcheck disable=SC2086
      valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" $b $args >/dev/null 2>"$tmp/cg.err" || true
      line+=" | $(awk '/I   refs/ {print $4}' "$tmp/cg.err")"
    else
      line+=" | –"
    fi
  done
  echo "${line/$PY_CORPUS\//} |"
done
