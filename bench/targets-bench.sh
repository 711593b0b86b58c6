#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# targets_finish() on N targets (issue 21: the pairwise scan was
# quadratic, and cubic for one repository and head). Builds
# bench/targets-bench.c against a build's internal library and prints the
# seconds per shape (see the .c file).
#
# usage: bench/targets-bench.sh [BUILD-DIR [N [N-SAME]]]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(realpath "${1:-build}")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -O2 -I"$ROOT/include" -I"$ROOT/src" -o "$W/targets-bench" \
	"$ROOT/bench/targets-bench.c" "$BUILD/src/libag-internal.a" \
	$(pkg-config --libs libsodium jansson yaml-0.1 libseccomp) -lm
"$W/targets-bench" "${2:-100000}" "${3:-${2:-100000}}"
