#!/usr/bin/env bash
# Builds the pinned C# benchmark corpus (../shared/bench/make-corpus.sh has none) and prints its
# path as a shell assignment, like make-corpus.sh:
#   eval "$(bash bench/make-corpus-csharp.sh [DIR])"      → CSHARP_CORPUS=DIR/csharp
#   CSHARP  PyPI: the source distribution of pythonnet==3.0.5 (its C# runtime, src/**/*.cs,
#           ~150 files), fetched with `pip download` (PyPI is reachable where npm and apt are).
# Built once into DIR (default: ${LLM_BENCH_DIR:-~/.cache/llm-bench}); the .done marker keeps it.
set -euo pipefail
dir=${1:-${LLM_BENCH_DIR:-$HOME/.cache/llm-bench}}
version=3.0.5
d=$dir/csharp
if [[ ! -f $d/.done ]]; then
  mkdir -p "$dir"
  log=$dir/make-corpus.log
  rm -rf "$d"
  mkdir -p "$d"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --quiet --no-deps --no-binary :all: "pythonnet==$version" -d "$tmp" >>"$log" 2>&1
  tar -xzf "$tmp/pythonnet-$version.tar.gz" -C "$tmp"
  mv "$tmp/pythonnet-$version/src" "$d/src"
  find "$d" -type f ! -name '*.cs' -delete
  find "$d" -type d -empty -delete
  [[ -n $(find "$d" -name '*.cs' -print -quit) ]] || { echo "no .cs in pythonnet $version" >&2; exit 1; }
  echo "pythonnet==$version" >"$d/.done"
fi
echo "CSHARP_CORPUS=$d"
