#!/usr/bin/env bash
# Runs every benchmark against its peers, measured in the same run, and prints the tables that
# go in README.md.   bash bench/run.sh   (from anywhere; corpora come from ../shared/bench)
# Installs the peers when missing: ripgrep (cargo), ast-grep (pip ast-grep-cli), hyperfine (apt).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$HOME/.local/bin:$PATH"
sudo=$(command -v sudo || true)
command -v hyperfine >/dev/null || $sudo apt-get install -y -qq hyperfine >/dev/null
command -v rg >/dev/null || cargo install --quiet ripgrep
command -v ast-grep >/dev/null || python3 -m pip install --quiet ast-grep-cli
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F)"
for b in search ast patch write; do
  echo
  echo "## bench/$b.sh"
  bash "bench/$b.sh"
done
