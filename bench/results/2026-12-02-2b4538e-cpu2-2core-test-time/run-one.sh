#!/usr/bin/env bash
# One clean run of the README's test command in clone $1 (its target folder and tools removed
# first, so the build is counted), each output line stamped with the seconds since the start.
set -u
cd "$1"
rm -rf target .tools
start=$(date +%s)
scripts/test 2>&1 | while IFS= read -r line; do printf '%5d %s\n' "$(( $(date +%s) - start ))" "$line"; done > "$2"
exit "${PIPESTATUS[0]}"
