#!/usr/bin/env bash
# One device call (X) wrote three run folders; its script is kept once, in
# ../2026-12-01-080ebad-h200-sssp-profile/run.sh.
