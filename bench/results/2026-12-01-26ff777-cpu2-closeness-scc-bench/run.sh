#!/usr/bin/env bash
# On the 2-core development machine (`cargo build --release` at 26ff777): the CPU's closeness and
# SCC benches as the headline rows for issue 55 (no device time was left in this session):
# Email-Enron's exact closeness, 8 trials; SCC of web-NotreDame (16 trials) and dkron:22 (3),
# each run checked against Tarjan's algorithm, which the bench times once on one core.
set -u
D=$(dirname "$0"); W=target/release/warpath
{ nproc; lscpu | grep 'Model name'; date -u; git rev-parse HEAD; } > "$D/machine.txt"
$W bench ../shared/datasets/Email-Enron.txt.gz --algorithm closeness --trials 8 --backend cpu --json "$D/closeness-Email-Enron.json" > "$D/closeness-Email-Enron.txt" 2>&1
$W bench ../shared/datasets/web-NotreDame.txt.gz --algorithm scc --trials 16 --backend cpu --json "$D/scc-web-NotreDame.json" > "$D/scc-web-NotreDame.txt" 2>&1
$W bench dkron:22 --algorithm scc --trials 3 --backend cpu --json "$D/scc-dkron-22.json" > "$D/scc-dkron-22.txt" 2>&1
for f in "$D"/*.txt; do echo "$(basename "$f"): $(grep -E '^(time|tarjan|verified)' "$f" | tr '\n' ' ')"; done | grep -v machine
