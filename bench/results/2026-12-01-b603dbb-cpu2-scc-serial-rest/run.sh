#!/usr/bin/env bash
# On the 2-core development machine (`cargo build --release` at the commit in the folder's name):
# bench --algorithm scc (every run compared with Tarjan's algorithm, which runs once on one core
# and is timed) on web-NotreDame and directed Kronecker graphs; issue 55's SCC comparison while
# no GPU path exists and ECL-SCC has not been built on the device machine.
set -u
D=$(dirname "$0"); W=target/release/warpath
{ nproc; lscpu | grep 'Model name'; date -u; git rev-parse HEAD; } > "$D/machine.txt"
$W bench ../shared/datasets/web-NotreDame.txt.gz --algorithm scc --trials 16 --backend cpu > "$D/web-NotreDame.txt" 2>&1
$W bench dkron:20 --algorithm scc --trials 8 --backend cpu > "$D/dkron-20.txt" 2>&1
$W bench dkron:22 --algorithm scc --trials 3 --backend cpu > "$D/dkron-22.txt" 2>&1
for f in "$D"/*.txt; do echo "$(basename "$f"): $(grep -E '^(time|tarjan|components|largest)' "$f" | tr '\n' ' ')"; done | grep -v machine
