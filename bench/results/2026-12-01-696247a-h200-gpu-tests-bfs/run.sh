# One call (session 2026-12-01, call M1) made this folder beside ../2026-12-01-696247a-h200-sssp-headline/, whose run.sh it is.
