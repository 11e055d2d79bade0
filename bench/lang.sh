#!/usr/bin/env bash
# Per-language measurements of `llm ast` / `llm find` on the pinned corpora, against peers run in
# the same invocation (issue 10):
#   bash bench/lang.sh [LANG...]     (from anywhere; default: every language; builds llm --release)
# For each language `llm` supports (probed with `llm ast -l LANG`; others print "not supported
# yet"), it prints:
#   1. counts of two definition kinds: `llm ast '(KIND) @x'` vs `ast-grep run -k KIND` (equal),
#   2. recall of `llm find --outline` against Universal Ctags' function/class/method/type
#      definitions on a sample of files (goal ≥ 97%; misses listed with SHOW_MISSES=N; the
#      names ctags makes up for anonymous items are left out, names compare without spaces),
#   3. `llm ast` bare-kind full scan vs `ast-grep -k` (goal ≤ 1.0×),
#   4. `llm find NAME` vs `rg -w NAME` (goal ≤ 3×; NAME: a function ctags found in the sample),
#   5. `llm find --outline` of the corpus's largest file (goal < 50 ms),
# then a markdown table of medians. RUNS (default 3) hyperfine runs (OUTLINE_RUNS, default 20,
# for the outline), SAMPLE (default 150) files,
# LLM=/path/to/llm to measure a given binary instead of building this checkout's, RECALL_ONLY=1
# for the recall alone (iterating on queries), SHOW_MISSES=N to list N misses, OUTLINE_ONLY=1 for
# the outline timing alone (BASE=/path/to/llm times that binary beside it).
# Needs: ast-grep (pip install ast-grep-cli), universal-ctags, ripgrep, hyperfine — installed
# when missing. Corpora: ../shared/bench/make-corpus.sh DIR all, C#'s bench/make-corpus-csharp.sh
# (built once into
# ${LLM_BENCH_DIR:-~/.cache/llm-bench}; slow the first time: Debian packages and npm).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export PATH="$HOME/.cargo/bin:$HOME/.local/bin:$PATH"
shared=${SHARED_BENCH:-$root/../shared/bench}
[[ -f $shared/make-corpus.sh ]] || shared=/work/shared/bench
runs=${RUNS:-3}
sample=${SAMPLE:-150}

sudo=$(command -v sudo || true)
[[ $(id -u) -eq 0 ]] && sudo=
apt_missing=()
command -v hyperfine >/dev/null || apt_missing+=(hyperfine)
command -v rg >/dev/null || apt_missing+=(ripgrep)
ctags --version 2>/dev/null | grep -q Universal || apt_missing+=(universal-ctags)
if [[ ${#apt_missing[@]} -gt 0 ]]; then
  $sudo apt-get update -qq && $sudo apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi
command -v ast-grep >/dev/null || python3 -m pip install --quiet ast-grep-cli

# name | ast-grep language | file extensions | two definition kinds | ctags language and kinds
table="
rust       rust       rs                            function_item         struct_item           Rust       fPsgit
python     python     py                            function_definition   class_definition      Python     cfm
javascript javascript js,mjs,cjs,jsx                function_declaration  class_declaration     JavaScript fcmg
typescript typescript ts,mts,cts                    function_declaration  interface_declaration TypeScript fcigma
tsx        tsx        tsx                           function_declaration  interface_declaration -          -
go         go         go                            function_declaration  method_declaration    Go         ftsi
java       java       java                          method_declaration    class_declaration     Java       cimg
c          c          c,h                           function_definition   struct_specifier      C          fsgut
cpp        cpp        cc,cpp,cxx,hpp,hh,hxx,ipp     function_definition   class_specifier       C++        fcsgut
csharp     csharp     cs                            method_declaration    class_declaration     C#         cimgs
ruby       ruby       rb                            method                class                 Ruby       cfmS
php        php        php                           method_declaration    class_declaration     PHP        cift
bash       bash       sh,bash                       function_definition   variable_assignment   Sh         f
"
# The files ast-grep reads, where llm reads more (C++: ast-grep takes cc hpp cpp c++ hh cxx cu
# ino; llm also .hxx, .ipp and the .h files that hold C++): counts and the full scan compare
# llm on ast-grep's files; llm's count over all its files is printed beside them.
declare -A peer_glob=([cpp]='*.{cc,hpp,cpp,c++,hh,cxx,cu,ino}')
want=("$@")
langs=()
while read -r l _; do [[ -n $l ]] && langs+=("$l"); done <<<"$table"
[[ ${#want[@]} -gt 0 ]] || want=("${langs[@]}")

if [[ -n ${LLM:-} ]]; then
  llm=$LLM # a given build (e.g. another branch's), used as it is
else
  cargo build --release -q
  llm=$root/target/release/llm
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F)"
echo "llm: $("$llm" --version); ast-grep: $(ast-grep --version); $(ctags --version | head -1); $(rg --version | head -1)"

supported() { # llm knows the language when `-l LANG` is not an unknown-language error
  local j
  j=$("$llm" ast '(ERROR) @e' -l "$1" /dev/null --format json 2>/dev/null || true)
  python3 -c 'import json,sys; v=json.loads(sys.argv[1]); sys.exit(1 if (v.get("error") or {}).get("code") == "AST_E002" else 0)' "$j"
}
count_llm() { "$llm" "$@" --format jsonl | tail -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["match_count"])'; }
count_sg() { ast-grep "$@" --json=stream | wc -l; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rows=$out/rows.md
: >"$rows"
for lang in "${want[@]}"; do
  line=$(awk -v l="$lang" '$1 == l' <<<"$table")
  if [[ -z $line ]]; then echo "unknown language '$lang' (one of: ${langs[*]})" >&2; exit 2; fi
  read -r _ sg exts k1 k2 ctl ctk <<<"$line"
  echo
  echo "## $lang"
  if ! supported "$lang"; then
    echo "$lang: not supported yet (llm ast -l $lang: unknown language)"
    echo "| $lang | not supported yet | | | | | |" >>"$rows"
    continue
  fi
  if [[ $lang == csharp ]]; then # not in make-corpus.sh: pythonnet's C# from PyPI
    corpus_line=$(bash "$root/bench/make-corpus-csharp.sh" "${LLM_BENCH_DIR:-$HOME/.cache/llm-bench}")
  else
    corpus_line=$(bash "$shared/make-corpus.sh" "${LLM_BENCH_DIR:-$HOME/.cache/llm-bench}" "$lang")
  fi
  corpus=${corpus_line#*=}
  find_args=()
  IFS=, read -ra ex <<<"$exts"
  for e in "${ex[@]}"; do find_args+=(-o -name "*.$e"); done
  find "$corpus" -type f \( "${find_args[@]:1}" \) | LC_ALL=C sort >"$out/files"
  nfiles=$(wc -l <"$out/files")
  echo "corpus: $corpus ($nfiles files, $(du -sh "$corpus" | cut -f1))"

  # OUTLINE_ONLY=1: the outline of the largest file alone (BASE=/path/to/llm beside it, in
  # the same hyperfine run: wall median and user+sys CPU of each).
  if [[ -n ${OUTLINE_ONLY:-} ]]; then
    largest=$(tr '\n' '\0' <"$out/files" | xargs -0 stat -c '%s %n' | sort -rn | awk 'NR == 1 {print $2}')
    cmds=(-n llm "$llm find --outline --json $largest")
    [[ -z ${BASE:-} ]] || cmds+=(-n base "$BASE find --outline --json $largest")
    hyperfine -N -i -w 2 -r "${OUTLINE_RUNS:-20}" --export-json "$out/h-outline.json" "${cmds[@]}" >/dev/null
    python3 - "$out/h-outline.json" "$lang" "${largest#"$corpus"/}" "$(wc -l <"$largest")" >>"$rows" <<'PY'
import json, sys
lang, f, lines = sys.argv[2:5]
cells = [f"{x['median'] * 1000:.1f} / {(x['user'] + x['system']) * 1000:.1f}" for x in json.load(open(sys.argv[1]))["results"]]
print(f"| {lang} | `{f}` ({lines} lines) | " + " | ".join(cells) + " |")
PY
    tail -n 1 "$rows"
    continue
  fi

  # 1. counts (skipped with RECALL_ONLY=1, as are the timings)
  if [[ -z ${RECALL_ONLY:-} ]]; then
  same=(); [[ -n ${peer_glob[$lang]:-} ]] && same=(-g "${peer_glob[$lang]}")
  c1l=$(count_llm ast "($k1) @x" -l "$lang" "${same[@]}" "$corpus"); c1s=$(count_sg run -k "$k1" -l "$sg" "$corpus")
  c2l=$(count_llm ast "($k2) @x" -l "$lang" "${same[@]}" "$corpus"); c2s=$(count_sg run -k "$k2" -l "$sg" "$corpus")
  printf '%-28s %10s %10s %s\n' "kind" "llm" "ast-grep" ""
  printf '%-28s %10s %10s %s\n' "$k1" "$c1l" "$c1s" "$([[ $c1l == "$c1s" ]] && echo equal || echo DIFFERENT)"
  printf '%-28s %10s %10s %s\n' "$k2" "$c2l" "$c2s" "$([[ $c2l == "$c2s" ]] && echo equal || echo DIFFERENT)"
  # Where counts differ, the files that make the difference, flagged when tree-sitter cannot
  # read them whole (such a file is read item by item: see README, llm ast). The flag comes
  # from a whole-file parse (`--no-prefilter`): a region parse around a literal can be clean.
  for k in "$k1" "$k2"; do
    [[ $k == "$k1" && $c1l == "$c1s" || $k == "$k2" && $c2l == "$c2s" ]] && continue
    python3 - <("$llm" ast "($k) @x" -l "$lang" "${same[@]}" --format jsonl "$corpus") \
      <(ast-grep run -k "$k" -l "$sg" --json=stream "$corpus") "$k" "$llm" "$lang" <<'PY'
import collections, json, os, subprocess, sys
mine, errors = collections.Counter(), set()
for l in open(sys.argv[1]):
    v = json.loads(l)
    if v.get("type") == "match":
        mine[os.path.normpath(v["span"]["file_path"])] += 1
    elif v.get("type") == "summary":
        errors = {os.path.normpath(f["file_path"]) for f in v["data"]["files"] if f.get("parse_errors")}
theirs = collections.Counter(os.path.normpath(json.loads(l)["file"]) for l in open(sys.argv[2]))
def broken(f):
    if f in errors:
        return True
    out = subprocess.run([sys.argv[4], "ast", "(ERROR) @e", "-l", sys.argv[5], "--no-prefilter",
                          "--format", "jsonl", f], capture_output=True, text=True).stdout
    return any(json.loads(l).get("type") == "match" for l in out.splitlines())
for f in sorted(set(mine) | set(theirs)):
    if mine[f] != theirs[f]:
        print(f"  {sys.argv[3]}: {f}: llm {mine[f]}, ast-grep {theirs[f]}{' (syntax errors)' if broken(f) else ''}")
PY
  done
  if [[ ${#same[@]} -gt 0 ]]; then
    echo "(counts and the full scan on ast-grep's files, ${same[1]}; over all of llm's $lang files: $k1 $(count_llm ast "($k1) @x" -l "$lang" "$corpus"), $k2 $(count_llm ast "($k2) @x" -l "$lang" "$corpus"))"
  fi
  fi

  # 2. recall against ctags on an evenly spread sample of files
  step=$(( nfiles / sample > 0 ? nfiles / sample : 1 ))
  awk -v s="$step" -v n="$sample" '(NR - 1) % s == 0 && c++ < n' "$out/files" >"$out/sample"
  recall="n/a"; name=""
  if [[ $ctl != - ]]; then
    tr '\n' '\0' <"$out/sample" | xargs -0 ctags --output-format=json --fields=+nKZ --extras=-F \
      --languages="$ctl" --language-force="$ctl" --kinds-"$ctl"="$ctk" -f - >"$out/ctags.json" 2>/dev/null || true
    tr '\n' '\0' <"$out/sample" | xargs -0 "$llm" find --outline --format jsonl -l "$lang" >"$out/outline.jsonl" || true
    read -r recall name < <(python3 - "$out/ctags.json" "$out/outline.jsonl" "${SHOW_MISSES:-0}" "$ctl" <<'PY'
import json, re, sys
tags = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
tags = [t for t in tags if t.get("_type") == "tag"]
# Names ctags makes up for what has none (`AnonymousFunction1a2b…`, `__anon…`) are left out:
# nobody asks for them by name. Names compare without spaces (ctags writes `operator ()`).
ANON = re.compile(r"^(AnonymousFunction|__anon)[0-9a-f]+$")
tags = [t for t in tags if not ANON.match(t["name"])]
# ctags' Sh parser takes `NAME=()` (an empty array) for a function named `NAME=`, and the words
# `function x` or `{()` anywhere on a line (in a string, in `${v%%[<{().[]*}`) for one: a
# shell function is defined where a line begins with `NAME()` or `function NAME`, and its name
# has no `=`. Others are left out, and counted.
def sh_function(t):
    if "=" in t["name"]:
        return False
    text = open(t["path"], "rb").read().decode("utf-8", "replace").split("\n")[t["line"] - 1]
    name = re.escape(t["name"])
    return re.match(r"\s*(function\s+" + name + r"(\s|\(|$)|" + name + r"\s*\(\s*\))", text) is not None
# ctags' JavaScript parser calls an object literal with members a class (`this.parameters = {`,
# `meta = {`, `uniforms: {`), and a call on a prototype one too (`Array.prototype.slice.call(a)`,
# with a method `slice`): a class is declared on a line that says `class` or `function`. The
# others, and the members ctags gives them on their line, are left out, and counted.
def js_class(t):
    text = open(t["path"], "rb").read().decode("utf-8", "replace").split("\n")[t["line"] - 1]
    return re.search(r"\b(class|function)\b", text) is not None
if sys.argv[4] == "JavaScript":
    fake = {(t["path"], t["line"], t["name"]) for t in tags if t.get("kind") == "class" and not js_class(t)}
    kept = [t for t in tags if (t["path"], t["line"], t["name"]) not in fake
            and (t["path"], t["line"], t.get("scope")) not in fake]
    print(f"  {len(tags) - len(kept)} ctags tags of object literals or calls called classes left out", file=sys.stderr)
    tags = kept
if sys.argv[4] == "Sh":
    kept = [t for t in tags if sh_function(t)]
    print(f"  {len(tags) - len(kept)} ctags tags that are no shell function left out", file=sys.stderr)
    tags = kept
key = lambda name: re.sub(r"\s+", "", name)
have = {}
# The lines a definition's name is on, per file: where ctags names a function after the macro
# that declares it (`BPF_CALL_2(bpf_map_push_elem, …) {`, `SYSCALL_DEFINE0(getpid)`), llm names
# it by its own name (`bpf_map_push_elem`, `getpid`); such a tag counts as found when llm reports
# a definition named on that line and the line calls the macro (`NAME(`). Counted apart.
named_on = set()
def walk(v):
    ns, s = v.get("name_span") or v["span"], v["span"]
    have.setdefault((s["file_path"], key(v["name"])), []).append((s["start_line"], s["end_line"], ns["start_line"]))
    named_on.add((s["file_path"], ns["start_line"]))
    for c in v.get("children") or []:
        walk(c)
for l in open(sys.argv[2]):
    v = json.loads(l)
    if "span" in v:
        walk(v)
# Definitions local to a function body (ctags scope kind function/method/member) are counted
# apart: an outline lists what a file declares, not every local helper.
LOCAL = {"function", "method", "member", "func", "singletonMethod"}
stats = {"all": [0, 0], "declared": [0, 0]}
misses = []
lines = {}
def macro_named(t):
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", t["name"]) or (t["path"], t["line"]) not in named_on:
        return False
    if t["path"] not in lines:
        lines[t["path"]] = open(t["path"], "rb").read().decode("utf-8", "replace").split("\n")
    text = lines[t["path"]][t["line"] - 1]
    return re.search(r"\b" + re.escape(t["name"]) + r"\s*\(", text) is not None
by_macro = 0
for t in tags:
    spans = have.get((t["path"], key(t["name"])), [])
    ok = any(a <= t["line"] <= b or n == t["line"] for a, b, n in spans)
    if not ok and t.get("kind") in ("function", "method") and macro_named(t):
        ok = True
        by_macro += 1
    groups = ["all"] + ([] if t.get("scopeKind") in LOCAL else ["declared"])
    for g in groups:
        stats[g][0] += ok
        stats[g][1] += 1
    if not ok:
        misses.append(t)
# Declared misses first, then those local to a function.
misses.sort(key=lambda t: t.get("scopeKind") in LOCAL)
for t in misses[: int(sys.argv[3])]:
    local = " local" if t.get("scopeKind") in LOCAL else ""
    print(f"  miss{local}: {t['path']}:{t['line']} {t.get('kind')} {t['name']} (scope {t.get('scope')})", file=sys.stderr)
funcs = sorted({t["name"] for t in tags if t.get("kind") in ("function", "method") and len(t["name"]) >= 10})
name = funcs[len(funcs) // 2] if funcs else ""
pct = lambda g: f"{100 * stats[g][0] / stats[g][1]:.1f}%({stats[g][0]}/{stats[g][1]})" if stats[g][1] else "n/a"
if by_macro:
    print(f"  {by_macro} definitions ctags names after their macro found under their own name", file=sys.stderr)
print(f"{pct('declared')},all:{pct('all')} {name}")
PY
)
  fi
  echo "recall vs ctags ($ctl kinds $ctk, $(wc -l <"$out/sample") files; definitions not local to a function, then all): $recall"
  if [[ -z $name ]]; then # no ctags parser (tsx): a function name from llm's own outline
    tr '\n' '\0' <"$out/sample" | xargs -0 "$llm" find --outline --format jsonl -l "$lang" >"$out/outline.jsonl" || true
    name=$(python3 - "$out/outline.jsonl" <<'PY'
import json, sys
names = set()
def walk(v):
    if v.get("kind") in ("function", "method") and len(v["name"]) >= 10:
        names.add(v["name"])
    for c in v.get("children") or []:
        walk(c)
for l in open(sys.argv[1]):
    v = json.loads(l)
    if "span" in v:
        walk(v)
names = sorted(names)
print(names[len(names) // 2] if names else "main")
PY
)
  fi

  [[ -z ${RECALL_ONLY:-} ]] || continue

  # 3–5. timings
  largest=$(tr '\n' '\0' <"$out/files" | xargs -0 stat -c '%s %n' | sort -rn | awk 'NR == 1 {print $2}')
  echo "find NAME: $name; largest file: $largest ($(wc -l <"$largest") lines)"
  hyperfine -N -i -w 1 -r "$runs" --export-json "$out/h.json" \
    -n "llm ast ($k1)" "$llm ast '($k1) @x' -l $lang ${same[*]:+-g '${same[1]}'} --format jsonl $corpus" \
    -n "ast-grep -k $k1" "ast-grep run -k $k1 -l $sg --json=stream $corpus" \
    -n "llm find $name" "$llm find $name --json -l $lang $corpus" \
    -n "rg -w $name" "rg -w --json $name $corpus" \
    >/dev/null
  # The outline takes tens of milliseconds: more runs (OUTLINE_RUNS, default 20) for a stable median.
  hyperfine -N -i -w 2 -r "${OUTLINE_RUNS:-20}" --export-json "$out/h-outline.json" \
    -n "llm find --outline largest" "$llm find --outline --json $largest" \
    >/dev/null
  python3 - "$out/h.json" "$out/h-outline.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
h["results"] += json.load(open(sys.argv[2]))["results"]
json.dump(h, open(sys.argv[1], "w"))
PY
  python3 - "$out/h.json" "$lang" "$c1l/$c1s" "$c2l/$c2s" "$recall" >>"$rows" <<'PY'
import json, sys
r = [x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]]
lang, c1, c2, recall = sys.argv[2:6]
print(f"| {lang} | {c1} | {c2} | {recall} | {r[0]:.0f} / {r[1]:.0f} ms = {r[0]/r[1]:.2f}× | "
      f"{r[2]:.0f} / {r[3]:.0f} ms = {r[2]/r[3]:.2f}× | {r[4]:.1f} ms |")
PY
  tail -n 1 "$rows"
done
echo
if [[ -n ${OUTLINE_ONLY:-} ]]; then
  echo "## outline of each corpus's largest file (wall median / user+sys CPU ms, ${OUTLINE_RUNS:-20} runs; goal < 50 ms)"
  echo "| language | file | llm |${BASE:+ base |}"
  echo "|---|---|---|${BASE:+---|}"
  cat "$rows"
  exit 0
fi
echo "## summary (medians of $runs runs)"
echo "| language | kind 1 llm/ast-grep | kind 2 llm/ast-grep | ctags recall (declared, all) | ast full scan llm/ast-grep (≤ 1.0×) | find NAME llm/rg -w (≤ 3×) | outline of largest file (< 50 ms) |"
echo "|---|---|---|---|---|---|---|"
cat "$rows"
