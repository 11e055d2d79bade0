#!/usr/bin/env bash
# Benchmark of `llm write` (issue 6): a 1,000-line valid file written end to end (process start to
# exit) with syntax validation only — target under 15 ms — measured against `cp` of the same file
# as the floor. Then the checkers' own latencies, reported separately: `--check` (Python
# compile(), and `cargo check` on a small crate, incremental) and `--lsp pylsp`.
#
# Usage: bench/write.sh            (builds the release binary; needs hyperfine, python3, pylsp)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
LLM="$PWD/target/release/llm"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

# A 1,000-line valid Python module and a 1,000-line valid Rust file.
python3 - <<'PY'
lines = ["import os", ""]
i = 0
while len(lines) < 997:
    lines += [f"def func_{i}(x, y=2):", f"    \"\"\"Doc {i}: é ünï.\"\"\"", f"    return os.path.join(str(x), str(y + {i}))", ""]
    i += 1
open("big.py", "w").write("\n".join(lines[:1000]) + "\n")
rs = []
i = 0
while len(rs) < 996:
    rs += [f"pub fn func_{i}(x: u64) -> u64 {{", f"    x.wrapping_mul({i}).wrapping_add(1)", "}", ""]
    i += 1
open("big.rs", "w").write("\n".join(rs[:1000]) + "\n")
PY
wc -l big.py big.rs
cp big.py out.py && cp big.rs out.rs

common=(--warmup 10 --min-runs 50 -N)
echo "== syntax validation only (target < 15 ms) =="
hyperfine "${common[@]}" \
  -n 'cp (floor)' "cp big.py copy.py" \
  -n 'llm write big.py (python, 1000 lines)' "$LLM write out.py --overwrite --content-file big.py --json" \
  -n 'llm write big.rs (rust, 1000 lines)' "$LLM write out.rs --overwrite --content-file big.rs --json"

echo "== --check: python compile() =="
hyperfine --warmup 3 --min-runs 20 -N \
  -n 'llm write --check (python)' "$LLM write out.py --overwrite --check --content-file big.py --json"

echo "== --check: cargo check (small crate, incremental; two checks per write: before and after) =="
mkdir -p crate/src
printf '[package]\nname = "benchcrate"\nversion = "0.1.0"\nedition = "2021"\n' > crate/Cargo.toml
printf 'mod big;\npub use big::*;\n' > crate/src/lib.rs
cp big.rs crate/src/big.rs
(cd crate && cargo check -q 2>/dev/null)
hyperfine --warmup 1 --min-runs 5 -N \
  -n 'llm write --check (rust, cargo check)' "$LLM write crate/src/big.rs --overwrite --check --content-file big.rs --json"

echo "== --lsp pylsp (server start, initialize, didOpen, diagnostics, shutdown) =="
if command -v pylsp >/dev/null; then
  hyperfine --warmup 1 --min-runs 5 -N \
    -n 'llm write --lsp pylsp' "$LLM write out.py --overwrite --lsp pylsp --content-file big.py --json"
else
  echo "pylsp not installed (pip install python-lsp-server pyflakes); skipped"
fi
