#!/usr/bin/env bash
# One clean run of the README's test command in clone $1: its own target folder and tools
# removed first, so the build is counted.
set -u
cd "$1"
rm -rf target .tools
exec scripts/test > "$2" 2>&1
