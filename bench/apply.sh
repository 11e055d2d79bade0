#!/usr/bin/env bash
# llm apply throughput: a `git diff` touching 100 files (200-line Rust files, 3 hunks each),
# against `git apply` of the same diff as the peer, in the same invocation.
set -euo pipefail
source "$(dirname "$0")/common.sh"
need_hyperfine
build_llm
command -v git >/dev/null || { echo "git is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 - <<'PY'
import os
os.makedirs("base/src", exist_ok=True)
for f in range(100):
    body = []
    for i in range(40):
        body.append(f"pub fn f{f}_{i}(x: u64) -> u64 {{\n    let a = x + {i};\n    a * 2\n}}\n")
    open(f"base/src/m{f}.rs", "w").write("\n".join(body))
PY
cp -r base new
python3 - <<'PY'
import glob
for p in glob.glob("new/src/*.rs"):
    t = open(p).read()
    for i in (3, 20, 37):
        t = t.replace(f"let a = x + {i};\n", f"let a = x + {i} + 1;\n", 1)
    open(p, "w").write(t)
PY
git diff --no-index base new | sed -e 's#a/base/#a/#g' -e 's#b/new/#b/#g' > change.diff || true
files=$(grep -c '^diff --git' change.diff)
hunks=$(grep -c '^@@' change.diff)
cp -r base tree
cd tree
git init -q .
hyperfine -N --warmup 3 --runs 20 --export-json "$work/h.json" \
  --prepare "cp -r $work/base/src/. $work/tree/src/" \
  -n "git apply" "git apply $work/change.diff" \
  -n "llm apply" "$LLM apply --patch $work/change.diff" \
  -n "llm apply --dry-run" "$LLM apply --dry-run --patch $work/change.diff" >/dev/null
python3 - "$work/h.json" "$files" "$hunks" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
print(f"apply: a git diff of {sys.argv[2]} files, {sys.argv[3]} hunks ({len(res[0]['times'])} runs, medians)\n")
print("| command | median ms | files/s | vs git apply |")
print("|---|---:|---:|---:|")
floor = res[0]["median"]
for r in res:
    print(f"| {r['command']} | {r['median']*1000:.1f} | {int(sys.argv[2])/r['median']:.0f} | {r['median']/floor:.2f}x |")
PY
machine
