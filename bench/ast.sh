#!/usr/bin/env bash
# Benchmarks `llm ast` / `llm find` against ast-grep and ripgrep on the pinned corpora.
#   bash bench/ast.sh            (from the repository root; builds llm in release mode)
# Needs: ast-grep (pip install ast-grep-cli), rg, hyperfine. Corpora: ../shared/bench/make-corpus.sh
# (or $SHARED_BENCH/make-corpus.sh). Prints counts side by side, then a markdown table of medians.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shared=${SHARED_BENCH:-$root/../shared/bench}
[[ -x $shared/make-corpus.sh || -f $shared/make-corpus.sh ]] || shared=/work/shared/bench
eval "$(bash "$shared/make-corpus.sh")"
cargo build --release -q
llm=$root/target/release/llm
rg=$(command -v rg || echo "$HOME/.cargo/bin/rg")
runs=${RUNS:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

count_llm() { "$llm" "$@" --format jsonl | tail -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["match_count"])'; }
count_sg() { ast-grep "$@" --json=stream | wc -l; }

UNWRAP='(call_expression function: (field_expression field: (field_identifier) @m) arguments: (arguments) @a (#eq? @m "unwrap") (#match? @a "^[(][[:space:]]*[)]$"))'
ISINST='(call function: (identifier) @f arguments: (argument_list . (_) . (_) .) (#eq? @f "isinstance"))'
RARE=${RARE:-escape_bytes}
PY_RARE=${PY_RARE:-_parse_isoformat_date}

# A 5,000-line file for --outline: the largest .rs file of the corpus is cut/padded to 5,000 lines.
big=$out/big.rs
big_src=$(find "$RUST_CORPUS" -name '*.rs' -size +150k -print -quit)
python3 - "$big_src" "$big" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines(True)
out = []
while len(out) < 5000:
    out.extend(lines)
open(sys.argv[2], "w").write("".join(out[:5000]))
PY

# The same file cut at an item boundary (it parses without errors): big outlines of valid files
# are parsed in two halves on two threads.
valid=$out/valid.rs
python3 - "$big_src" "$valid" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
out = []
while len(out) < 4990 or out[-1] != "}":
    out.append(lines[len(out) % len(lines)])
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY

echo "## counts"
printf '%-40s %10s %10s\n' case llm peer
printf '%-40s %10s %10s\n' "rust function_item" \
  "$(count_llm ast '(function_item) @f' -l rust "$RUST_CORPUS")" \
  "$(count_sg run -k function_item -l rust "$RUST_CORPUS")"
printf '%-40s %10s %10s\n' "rust \$X.unwrap()" \
  "$(count_llm ast "$UNWRAP" -l rust "$RUST_CORPUS")" \
  "$(count_sg run -p '$X.unwrap()' -l rust "$RUST_CORPUS")"
printf '%-40s %10s %10s\n' "python function_definition" \
  "$(count_llm ast '(function_definition) @f' -l python "$PY_CORPUS")" \
  "$(count_sg run -k function_definition -l python "$PY_CORPUS")"
printf '%-40s %10s %10s\n' "python isinstance(\$A, \$B)" \
  "$(count_llm ast "$ISINST" -l python "$PY_CORPUS")" \
  "$(count_sg run -p 'isinstance($A, $B)' -l python "$PY_CORPUS")"
printf '%-40s %10s %10s\n' "rust call_expression (no keyword)" \
  "$(count_llm ast '(call_expression) @c' -l rust "$RUST_CORPUS")" \
  "$(count_sg run -k call_expression -l rust "$RUST_CORPUS")"
printf '%-40s %10s %10s\n' "python call (no keyword)" \
  "$(count_llm ast '(call) @c' -l python "$PY_CORPUS")" \
  "$(count_sg run -k call -l python "$PY_CORPUS")"
printf '%-40s %10s %10s\n' "find $RARE (rust) vs rg -w lines" \
  "$(count_llm find "$RARE" "$RUST_CORPUS")" \
  "$("$rg" -w -c --no-filename "$RARE" "$RUST_CORPUS" | paste -sd+ | bc)"
printf '%-40s %10s %10s\n' "outline of 5,000-line file (symbols)" \
  "$(count_llm find --outline "$big")" "-"

echo
echo "## timings (hyperfine, $runs runs, medians)"
hyperfine -N -w 1 -r "$runs" --export-json "$out/h.json" \
  -n "llm ast function_item (rust)" "$llm ast '(function_item) @f' -l rust --format jsonl $RUST_CORPUS" \
  -n "ast-grep -k function_item (rust)" "ast-grep run -k function_item -l rust --json=stream $RUST_CORPUS" \
  -n "llm ast unwrap() (rust)" "$llm ast '$UNWRAP' -l rust --format jsonl $RUST_CORPUS" \
  -n "ast-grep \$X.unwrap() (rust)" "ast-grep run -p \$X.unwrap() -l rust --json=stream $RUST_CORPUS" \
  -n "llm ast function_definition (python)" "$llm ast '(function_definition) @f' -l python --format jsonl $PY_CORPUS" \
  -n "ast-grep -k function_definition (python)" "ast-grep run -k function_definition -l python --json=stream $PY_CORPUS" \
  -n "llm ast isinstance (python)" "$llm ast '$ISINST' -l python --format jsonl $PY_CORPUS" \
  -n "ast-grep isinstance(\$A, \$B) (python)" "ast-grep run -p isinstance(\$A,\$B) -l python --json=stream $PY_CORPUS" \
  -n "llm find $RARE (rust)" "$llm find $RARE --json $RUST_CORPUS" \
  -n "rg -w $RARE (rust)" "$rg -w --json $RARE $RUST_CORPUS" \
  -n "llm find $PY_RARE (python)" "$llm find $PY_RARE --json $PY_CORPUS" \
  -n "rg -w $PY_RARE (python)" "$rg -w --json $PY_RARE $PY_CORPUS" \
  -n "llm find --outline 5,000-line file" "$llm find --outline --json $big" \
  -n "llm ast call_expression (rust)" "$llm ast '(call_expression) @c' -l rust --format jsonl $RUST_CORPUS" \
  -n "ast-grep -k call_expression (rust)" "ast-grep run -k call_expression -l rust --json=stream $RUST_CORPUS" \
  -n "llm ast call (python)" "$llm ast '(call) @c' -l python --format jsonl $PY_CORPUS" \
  -n "ast-grep -k call (python)" "ast-grep run -k call -l python --json=stream $PY_CORPUS" \
  -n "llm find --outline 5,000-line file, cut at an item end" "$llm find --outline --json $valid" \
  >/dev/null
python3 - "$out/h.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
names = list(r)
print("| case | llm | peer | ratio | target |")
print("|---|---|---|---|---|")
targets = ["≤ 1.0×", "≤ 0.25×", "≤ 1.0×", "≤ 0.25×", "≤ 3×", "≤ 3×"]
for i, t in zip(range(0, 12, 2), targets):
    a, b = names[i], names[i + 1]
    ratio = r[a] / r[b]
    print(f"| {a} vs {b} | {r[a]*1000:.0f} ms | {r[b]*1000:.0f} ms | {ratio:.2f}× | {t} |")
o = names[12]
print(f"| {o} (it ends mid-item: one whole-file parse) | {r[o]*1000:.1f} ms | – | – | well under 50 ms |")
for i in (13, 15):
    a, b = names[i], names[i + 1]
    print(f"| {a} vs {b} (no keyword: every file parsed whole) | {r[a]*1000:.0f} ms | {r[b]*1000:.0f} ms | {r[a] / r[b]:.2f}× | ≤ 1.0× |")
v = names[17]
print(f"| {v} (parsed in two halves) | {r[v]*1000:.1f} ms | – | – | – |")
PY
