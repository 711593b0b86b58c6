#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# CI smoke run of every libFuzzer harness (docs/fuzzing.md): builds build-fuzz/
# with clang and runs each harness for AG_FUZZ_RUNS inputs (default 50000)
# with a fixed seed (AG_FUZZ_SEED, default 1) from the seed corpus in
# tests/fuzz/corpus/, so a smoke run is reproducible: it catches regressions;
# exploring is the job of tests/fuzz/long.sh. Prints one TAP line per harness and
# exits 1 on any finding (crash, leak, timeout, invariant failure); the
# reproducer is kept under build-fuzz/smoke-artifacts/<harness>/.
set -u
. "$(dirname "$0")/common.sh"
runs=${AG_FUZZ_RUNS:-50000}
seed=${AG_FUZZ_SEED:-1}
command -v clang >/dev/null || { echo "fuzz smoke: clang is not installed" >&2; exit 1; }
fuzz_setup || { echo "not ok 1 fuzz build"; exit 1; }
n=0 rc=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for h in $FUZZ_HARNESSES; do
	n=$((n + 1))
	art=$fuzz_build/smoke-artifacts/$h
	rm -rf "$art"
	if fuzz_run "$h" "$work/$h" "$art" "$work/$h.log" -runs="$runs" -seed="$seed" -max_total_time=120; then
		read -r execs cov ft units bytes <<<"$(fuzz_figures "$work/$h.log")"
		echo "ok $n fuzz-$h: $execs execs, cov $cov, ft $ft, corpus $units"
	else
		rc=1
		echo "not ok $n fuzz-$h: finding kept in $art"
		grep -E 'ERROR|invariant failed|SUMMARY' "$work/$h.log" | head -5 | sed 's/^/# /'
	fi
done
exit $rc
