#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `events --since` over a rotated journal (PRODUCT.md §11, issue 37).
#
# In one run, times
#   A  `events --since 1h --json` over a 1,000,000-line journal spanning
#      LINES / PER_HOUR hours, rotated as the writers rotate it
#   B  the same query over a journal holding only the last hour's lines
# and prints A / B. Budget: ≤ 1.2. The two are interleaved round by round;
# the best of RUNS is kept for each.
#
# The journal is generated, not written record by record (a million
# processes): the generator follows the writers' rules
# (base/eventlog-rotate.h) with the records' own times as the clock — a
# mark "<offset> <bound>" every 64 KiB, the bound the second after the
# last record's; at each mark past MAX_MIB the log is renamed to
# fleet_events.jsonl.<bound> with its marks.
#
# usage: bench/events-bench.sh [path/to/agentic-git]
#        (RUNS=N LINES=N PER_HOUR=N MAX_MIB=N to change)
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
RUNS=${RUNS:-7}
LINES=${LINES:-1000000}
PER_HOUR=${PER_HOUR:-50000}
MAX_MIB=${MAX_MIB:-64}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/full" "$W/hour"
now=$(date +%s)

echo "generating $LINES records over $((LINES / PER_HOUR)) hours…" >&2
# one record every 3600/PER_HOUR seconds, the last one now
awk -v n="$LINES" -v per="$PER_HOUR" -v now="$now" -v dir="$W/full" \
	-v hour="$W/hour/fleet_events.jsonl" -v max=$((MAX_MIB << 20)) '
function stamp(t) { return strftime("%Y-%m-%dT%H:%M:%S", t, 1) }
function compact(t) { return strftime("%Y%m%dT%H%M%SZ", t, 1) }
BEGIN {
	log_ = dir "/fleet_events.jsonl"; marks = log_ ".marks"
	size = 0; step = 3600 / per
	for (i = 0; i < n; i++) {
		t = now - (n - 1 - i) * step
		s = int(t); ns = int((t - s) * 1e9)
		line = sprintf("{\"kind\":\"git_event\",\"event\":\"ref_update\",\"disposition\":\"info\",\"agent\":\"ag%d\",\"subcommand\":\"commit\",\"timestamp\":\"%s.%09d+00:00\",\"ref\":\"refs/heads/feat/a%d\",\"old\":\"%040d\",\"new\":\"%040d\"}", i % 50, stamp(s), ns, i % 50, i, i + 1)
		print line > log_
		if (t >= now - 3600)
			print line > hour
		old = size; size += length(line) + 1
		if (int(old / 65536) == int(size / 65536))
			continue
		bound = s + 1
		if (size >= max) {
			close(log_); close(marks)
			to = log_ "." compact(bound)
			system("mv \"" log_ "\" \"" to "\"; [ ! -e \"" marks "\" ] || mv \"" marks "\" \"" to ".marks\"")
			size = 0
		} else {
			printf "%d %d\n", size, bound > marks
			fflush(marks)
		}
	}
}'
echo "full: $(cat "$W"/full/fleet_events.jsonl* | grep -c '^{') records in" \
	"$(ls "$W/full" | grep -vc marks) files; last hour: $(wc -l <"$W/hour/fleet_events.jsonl")" >&2

best() { sort -n | head -n1; }
time_one() {
	local t0 t1
	t0=$(date +%s%N)
	AGENTIC_GIT_HOME=$1 "$BIN" events --since 1h --json >"$W/out.$2"
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}
: >"$W/a"
: >"$W/b"
for r in $(seq 1 "$RUNS"); do
	time_one "$W/full" a >>"$W/a"
	time_one "$W/hour" b >>"$W/b"
done
# the same answer, or the ratio means nothing
na=$(wc -l <"$W/out.a")
nb=$(wc -l <"$W/out.b")
[ "$na" -ge $((nb - PER_HOUR / 360)) ] && [ "$na" -le $((nb + PER_HOUR / 360)) ] ||
	{ echo "answers differ: $na vs $nb records" >&2; exit 1; }
a=$(best <"$W/a")
b=$(best <"$W/b")
echo "events --since 1h, $LINES-line rotated journal:  ${a} us ($na records)"
echo "events --since 1h, last hour's lines alone:      ${b} us ($nb records)"
awk -v a="$a" -v b="$b" 'BEGIN { printf "ratio A/B: %.2f (budget <= 1.2)\n", a / b }'
