#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The long fuzzing run (docs/fuzzing.md): tests/fuzz/long.sh [seconds]
# runs every harness for that long (default 600), at most AG_FUZZ_JOBS
# (default 2) at a time under nice -n 19. The growing corpus is kept in
# build-fuzz/long-corpus/<harness>/ (reused by the next run), logs in
# build-fuzz/long-logs/, findings in build-fuzz/long-artifacts/<harness>/.
# Prints one line per harness: executions, cov, ft, corpus size, findings.
# AG_FUZZ_ONLY="argv binding" restricts the run to some harnesses;
# AG_FUZZ_TIMEOUT (default 60 s) is the per-input hang limit: generous,
# because a shared, loaded machine makes single inputs slow for seconds.
set -u
. "$(dirname "$0")/common.sh"
secs=${1:-600}
jobs=${AG_FUZZ_JOBS:-2}
list=${AG_FUZZ_ONLY:-$FUZZ_HARNESSES}
fuzz_setup || exit 1
rm -rf "$fuzz_build/long-artifacts"
mkdir -p "$fuzz_build/long-logs"
one() {
	local h=$1
	nice -n 19 bash -c "$(declare -f fuzz_run); fuzz_build='$fuzz_build' fuzz_dir='$fuzz_dir'; \
		fuzz_run '$h' '$fuzz_build/long-corpus/$h' '$fuzz_build/long-artifacts/$h' \
		'$fuzz_build/long-logs/$h.log' -max_total_time=$secs"
	echo $? >"$fuzz_build/long-logs/$h.rc"
}
running=0
for h in $list; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	one "$h" &
	running=$((running + 1))
done
wait
rc=0
printf '%-12s %12s %6s %7s %8s %s\n' harness execs cov ft corpus findings
for h in $list; do
	read -r execs cov ft units bytes <<<"$(fuzz_figures "$fuzz_build/long-logs/$h.log")"
	found=$(find "$fuzz_build/long-artifacts/$h" -type f \( -name 'crash-*' \
		-o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) 2>/dev/null | wc -l)
	[ "$(cat "$fuzz_build/long-logs/$h.rc")" = 0 ] || rc=1
	printf '%-12s %12s %6s %7s %8s %s\n' "$h" "$execs" "$cov" "$ft" "$units/$bytes" "$found"
done
exit $rc
