# One call (session 2026-12-01, call Q) wrote this folder and ../2026-12-01-47790a0-h200-sssp-headline/: its
# script is ../2026-12-01-47790a0-h200-sssp-headline/run.sh.
