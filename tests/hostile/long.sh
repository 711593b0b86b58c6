#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The hostile-workspace fuzzer's long run (docs/fuzzing.md, "Long runs of
# the hostile-workspace fuzzer"): generated scenes from SEED on for
# SECONDS (default one hour), at low priority, into DIR (default
# build/hostile-long/<UTC time>), then one summary line for the table:
#
#   tests/hostile/long.sh [SECONDS] [SEED]
#
# AG_BIN is the agentic-git under test (default build/src/agentic-git);
# HX_LONG_DIR overrides DIR. Exit status: hostile.sh's (0 nothing found).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-3600}
seed=${2:-$(date +%s)}
for n in "$seconds" "$seed"; do
	[[ $n =~ ^[0-9]{1,10}$ ]] || { echo "long.sh: not a number: '$n'" >&2; exit 2; }
done
export AG_BIN=${AG_BIN:-$root/build/src/agentic-git}
[ -x "$AG_BIN" ] || { echo "long.sh: no agentic-git at '$AG_BIN' (make build)" >&2; exit 2; }
dir=${HX_LONG_DIR:-$root/build/hostile-long/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$dir/bin" || exit 2
# a copy of the build under test: a rebuild during the hour changes
# nothing of the run (hostile.sh copies its own scripts likewise)
for b in agentic-git agentic-git-shim agentic-git-proxy; do
	[ -e "$(dirname "$AG_BIN")/$b" ] && cp "$(dirname "$AG_BIN")/$b" "$dir/bin/"
done
AG_BIN=$dir/bin/$(basename "$AG_BIN")
echo "long.sh: seed $seed, $seconds s, $(git -C "$root" describe --always --dirty 2>/dev/null), into $dir"
nice -n 19 "$root/tests/hostile/hostile.sh" -o "$dir" -s "$seed" -t "$seconds" >"$dir/tap" 2>"$dir/stderr"
rc=$?
scenes=$(grep -c '^\(not \)\?ok ' "$dir/tap")
broken=$(grep -c '^not ok ' "$dir/tap")
distinct=$(find "$dir/findings" -name '*.scene' 2>/dev/null | wc -l)
echo "long.sh: $scenes scenes from seed $seed, $broken broken, $distinct distinct (findings in $dir/findings)"
grep '^not ok ' "$dir/tap" | head -20
exit $rc
