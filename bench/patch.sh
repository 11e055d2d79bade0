#!/usr/bin/env bash
# llm patch end to end on a 5,000-line Rust file, against `cp` of the same file as the floor.
# Target: a replace under 20 ms (process start to exit), without --check. The journal's cost:
# the two `env LLM_JOURNAL=off|on` rows (same `env` exec in both), the journal growing over the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { sudo=$(command -v sudo || true); $sudo apt-get install -y hyperfine >/dev/null; }
cargo build --release --quiet
llm=$PWD/target/release/llm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/big.rs" <<'PY'
import sys
out = []
for i in range(500):
    out.append(f"/// Function number {i}.\npub fn f{i}(x: u64) -> u64 {{\n    let a = x + {i};\n    let b = a * 2;\n    let c = b - 1;\n    let d = c ^ a;\n    d + {i}\n}}\n")
    out.append("")
open(sys.argv[1], "w").write("\n".join(out))
PY
lines=$(wc -l < "$work/big.rs")
cp "$work/big.rs" "$work/orig.rs"
cd "$work"
new='pub fn f250(x: u64) -> u64 {
    x * 3
}'
hyperfine -N --warmup 5 --runs 40 --export-json "$work/h.json" \
  --prepare "cp $work/orig.rs $work/big.rs" \
  -n cp "cp $work/orig.rs $work/copy.rs" \
  -n "llm patch (replace)" "$llm patch --file big.rs --symbol f250 --with-text '$new'" \
  -n "llm patch (replace, env LLM_JOURNAL=off)" "env LLM_JOURNAL=off $llm patch --file big.rs --symbol f250 --with-text '$new'" \
  -n "llm patch (replace, env LLM_JOURNAL=on)" "env LLM_JOURNAL=on $llm patch --file big.rs --symbol f250 --with-text '$new'" \
  -n "llm patch --body" "$llm patch --file big.rs --symbol f250 --body --with-text 'x * 3'" \
  -n "llm patch --dry-run" "$llm patch --file big.rs --symbol f250 --dry-run --with-text '$new'" >/dev/null
python3 - "$work/h.json" "$lines" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
print(f"patch on a {sys.argv[2]}-line Rust file ({len(res[0]['times'])} runs, medians)\n")
print("| command | median ms | vs cp |")
print("|---|---:|---:|")
floor = res[0]["median"]
for r in res:
    print(f"| {r['command']} | {r['median']*1000:.1f} | {r['median']/floor:.1f}x |")
PY
