#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# targets_finish() on N targets (issue 21: the pairwise scan was
# quadratic, and cubic for one repository and head). Builds
# bench/targets-bench.c against a build's internal library and prints the
# seconds per shape (see the .c file). No budget in PRODUCT.md §11: it
# prints times, no ratio. Before the change, on the shared 2-core machine:
# 100,000 distinct targets 288 s, 100,000 given keys 586 s, 1,000 of one
# repository and head 4.1 s (cubic); after: about 0.3 s each at 100,000.
#
# usage: bench/targets-bench.sh [BUILD-DIR | path/to/agentic-git [N [N-SAME]]]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(realpath "${1:-build}")
# bench/run-all.sh passes the binary, <build>/src/agentic-git
[ -f "$BUILD" ] && BUILD=$(dirname "$(dirname "$BUILD")")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -O2 -I"$ROOT/include" -I"$ROOT/src" -o "$W/targets-bench" \
	"$ROOT/bench/targets-bench.c" "$BUILD/src/libag-internal.a" \
	$(pkg-config --libs libsodium jansson yaml-0.1 libseccomp) -lm
"$W/targets-bench" "${2:-100000}" "${3:-${2:-100000}}"
