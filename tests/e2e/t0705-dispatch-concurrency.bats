#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch's supervisor bounds concurrency (fleet/pool.h invariant 1).
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
}

@test "t0705.1 20 targets with -j 4 never run more than 4 agents at once" {
	{
		echo "targets:"
		for i in $(seq 1 20); do
			printf '  - {repo: %s, head: feat/a, base: main, key: k%02d}\n' "$REPO" "$i"
		done
	} >$T/t.yaml
	export COUNT_LOG=$T/count.log
	run dispatch -j 4 --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/count.sh"
	[ "$status" -eq 3 ]
	[ "$(grep -c '^start' $COUNT_LOG)" -eq 20 ]
	[ "$(grep -c '^end' $COUNT_LOG)" -eq 20 ]
	peak=$(awk '/^start/ {n++; if (n > p) p = n} /^end/ {n--} END {print p}' $COUNT_LOG)
	echo "peak=$peak"
	[ "$peak" -le 4 ]
	grep -q "barrier ok" $COUNT_LOG.barrier   # and it did run side by side
	[ "$(ls "$(run_dir)"/*.meta.yaml | wc -l)" -eq 20 ]
}
