# One call (session 2026-12-01, call K1) made this folder beside ../2026-12-01-f1d15c1-h200-sssp-narrow-words/, whose run.sh it is.
