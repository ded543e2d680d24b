# One call (session 2026-12-01, call J1) made this folder beside
# ../2026-12-01-1f061ac-h200-one-gpu-every-bottom-up-level/, whose run.sh it is; the probe failed
# there (rng.permutation is not CuPy's) and ran, fixed, in the next call on the same warm machine:
#   python3 .carry/probe_narrow.py     (probe_narrow.py here; probe.txt its output)
