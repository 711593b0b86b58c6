#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Runs every benchmark in bench/ against one binary and prints their ratios.
# usage: bench/run-all.sh [path/to/agentic-git]
set -u
BIN=$(realpath "${1:-build/src/agentic-git}")
cd "$(dirname "$0")/.."
# the machine, for bench/RESULTS.md: ratios within one run are what count
echo "date:    $(date -u +%Y-%m-%dT%H:%MZ)"
echo "commit:  $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "machine: $(nproc) cores, Linux $(uname -r), Debian $(cat /etc/debian_version 2>/dev/null || echo '?')"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg)"
echo
rc=0
for b in bench/*-bench.sh; do
	echo "== $b"
	"$b" "$BIN" || rc=1
	echo
done
exit $rc
