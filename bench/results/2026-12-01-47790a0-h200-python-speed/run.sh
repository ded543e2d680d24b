# One call (session 2026-12-01, call P) wrote this folder, ../2026-12-01-47790a0-h200-gpu-tests/ and
# ../2026-12-01-47790a0-h200-relaxation-probe/ or ../2026-12-01-47790a0-h200-python-speed/: its script is
# ../2026-12-01-47790a0-h200-gpu-tests/run.sh.
