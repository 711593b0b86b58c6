#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Runs every benchmark in bench/ against one binary and prints their ratios.
# usage: bench/run-all.sh [path/to/agentic-git]
set -u
BIN=$(realpath "${1:-build/src/agentic-git}")
cd "$(dirname "$0")/.."
rc=0
for b in bench/*-bench.sh; do
	echo "== $b"
	"$b" "$BIN" || rc=1
	echo
done
exit $rc
