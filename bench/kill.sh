#!/usr/bin/env bash
# Crash recovery by hand: a 20-file `llm transform` SIGKILLed at random moments, N times (default
# 100), each followed by `llm history` (which recovers). Counts runs left all old, all new, mixed,
# and runs with temp files behind; mixed and temp files must be 0. Uses the test build, whose
# LLM_FAILPOINT_SLEEP_MS failpoint (default 5 ms before each rename) stretches the commit so
# that kills land inside it. LLM_BIN=target/release/llm runs a release build instead (no
# failpoint: the kills land wherever the run happens to be). Usage: bench/kill.sh [N] [FILE_BYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${LLM_BIN:-}" ]; then cargo build --quiet; fi
llm=$(realpath "${LLM_BIN:-target/debug/llm}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$llm" "$work" "${1:-100}" "${2:-200000}" <<'PY'
import json, os, random, subprocess, sys, time
llm, work, n, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
names = [f"f{i:02}.txt" for i in range(20)]
old = {nm: (f"file {i}\n" * (size // 7 + 1)).encode()[:size] for i, nm in enumerate(names)}
req = json.dumps([{"file_path": nm, "edits": [{"byte_start": 0, "byte_end": 4, "new_content": "FILE"}]} for nm in names]).encode()
env = dict(os.environ, LLM_FAILPOINT_SLEEP_MS=os.environ.get("LLM_FAILPOINT_SLEEP_MS", "5"))
def reset():
    for nm in names:
        open(os.path.join(work, nm), "wb").write(old[nm])
def start():
    p = subprocess.Popen([llm, "--json", "transform"], cwd=work, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p.stdin.write(req); p.stdin.close()
    return p
reset(); t = time.monotonic(); start().wait(); full = time.monotonic() - t
counts = {"all old": 0, "all new": 0, "mixed": 0, "temp files left": 0, "recovered by history": 0}
for k in range(n):
    reset()
    p = start()
    time.sleep(random.uniform(0, full * 1.1))
    p.kill(); p.wait()
    h = subprocess.run([llm, "--json", "history", "--limit", "1"], cwd=work, capture_output=True)
    counts["recovered by history"] += len(json.loads(h.stdout)["data"]["recovered"])
    new = [open(os.path.join(work, nm), "rb").read()[:4] == b"FILE" for nm in names]
    counts["all new" if all(new) else "all old" if not any(new) else "mixed"] += 1
    if any(f.startswith(".llm-") and f.endswith(".tmp") for f in os.listdir(work)):
        counts["temp files left"] += 1
print(f"{n} SIGKILLs of a 20-file transform ({size} bytes each; one run {full*1000:.0f} ms)\n")
print("| outcome | runs |\n|---|---:|")
for k, v in counts.items():
    print(f"| {k} | {v} |")
sys.exit(1 if counts["mixed"] or counts["temp files left"] else 0)
PY
