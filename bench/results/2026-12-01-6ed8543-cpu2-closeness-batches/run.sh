#!/usr/bin/env bash
# On the 2-core development machine: warpath at 1f48d79's host code (base) against 6ed8543 (new),
# both `cargo build --release`, interleaved three times: closeness and the exact diameter of
# Email-Enron, closeness on one thread, and one batch of 64 roots (kron:16) beside them.
set -u
D=$(dirname "$0"); E=../shared/datasets/Email-Enron.txt.gz
{ nproc; lscpu | grep 'Model name'; date -u; } > "$D/machine.txt"
for i in 1 2 3; do for b in base new; do
  W=/tmp/warpath-$b
  echo "$b closeness: $($W closeness $E 2>&1 | grep '^time') | diameter: $($W info $E --diameter 2>&1 | grep '^diameter')"
done; done | tee "$D/runs.txt"
for b in base new; do echo "$b, one thread: $(RAYON_NUM_THREADS=1 /tmp/warpath-$b closeness $E 2>&1 | grep '^time')"; done | tee -a "$D/runs.txt"
for b in base new; do echo "$b kron:16 --batch: $(/tmp/warpath-$b bench kron:16 --batch --roots 64 2>&1 | grep '^batch')"; done | tee -a "$D/runs.txt"
/tmp/warpath-base closeness $E > "$D/closeness-base.txt" 2>&1
/tmp/warpath-new closeness $E > "$D/closeness-new.txt" 2>&1
