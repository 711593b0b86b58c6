#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The operator's views over a fleet (issue 35, acceptance 4): `agentic-git
# report` over 100 sessions and a 100,000-line journal, and `sessions
# --json` over the same 100 sessions, each against `git for-each-ref` over
# the same refs (the sessions' branches and their snapshots), the floor of
# anything that lists them. Interleaved in one run; prints medians and
# ratios.
#
#   bench/report-bench.sh <agentic-git binary> [iterations] [sessions] [journal lines]
set -eu
[ $# -ge 1 ] && [ -x "$1" ] || {
	echo "usage: bench/report-bench.sh <agentic-git binary> [iterations] [sessions] [journal lines]" >&2
	exit 2
}
AG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
N=${2:-7}
S=${3:-100}
L=${4:-100000}
GIT=$(command -v git)
W=$(mktemp -d "${TMPDIR:-/tmp}/agentic-git-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
export HOME="$W/home" AGENTIC_GIT_HOME="$W/aghome" GIT_CONFIG_NOSYSTEM=1
unset AGENTIC_GIT_AGENT AGEND_HOME AGENTIC_GIT_REAL_GIT 2>/dev/null || true
mkdir -p "$HOME"
"$GIT" config --global user.name Bench
"$GIT" config --global user.email bench@example.com
"$GIT" init -q -b main "$W/repo"
cd "$W/repo"
for d in 0 1 2 3 4 5 6 7 8 9; do
	mkdir -p "src/d$d"
	for f in $(seq 20); do echo "file $d/$f" >"src/d$d/f$f.c"; done
done
"$GIT" add -A && "$GIT" commit -q -m init

# S sessions, each with two commits and one snapshot (a reset --hard)
i=0
while [ "$i" -lt "$S" ]; do
	"$AG" run --agent "s$i" --branch "feat/s$i" -- sh -c '
		echo "$1" >>src/d0/f1.c && git commit -qam "work $1"
		echo more >"new-$1.txt" && git add "new-$1.txt" && git commit -qm "more $1"
		echo scratch >>src/d1/f1.c && git reset -q --hard' sh "$i" 2>/dev/null
	i=$((i + 1))
done
# the journal to L lines: the sessions' own events, then a mix of theirs
have=$(wc -l <"$AGENTIC_GIT_HOME/fleet_events.jsonl")
awk -v n="$((L - have))" -v s="$S" 'BEGIN {
	for (i = 0; i < n; i++) {
		a = "s" (i % s)
		if (i % 10 == 0)
			printf "{\"kind\":\"git_event\",\"event\":\"deny\",\"disposition\":\"deny\",\"agent\":\"%s\",\"subcommand\":\"checkout\",\"timestamp\":\"2026-12-06T08:%02d:%02d.000000000+00:00\",\"target_branch\":null,\"reason\":\"cross-branch: assigned to feat/%s, cannot switch to main (%d)\"}\n", a, (i / 60) % 60, i % 60, a, i
		else
			printf "{\"kind\":\"git_event\",\"event\":\"ref_update\",\"disposition\":\"info\",\"agent\":\"%s\",\"subcommand\":\"commit\",\"timestamp\":\"2026-12-06T08:%02d:%02d.000000000+00:00\",\"ref\":\"refs/heads/feat/%s\",\"old\":\"%040d\",\"new\":\"%040d\",\"worktree\":\"/w/%s\"}\n", a, (i / 60) % 60, i % 60, a, i, i + 1, a
	}
}' >>"$AGENTIC_GIT_HOME/fleet_events.jsonl"
lines=$(wc -l <"$AGENTIC_GIT_HOME/fleet_events.jsonl")
refs=$("$GIT" for-each-ref refs/heads/feat refs/agentic-git | wc -l)

now_ns() { date +%s%N; }
fer=$W/fer.txt rep=$W/report.txt ses=$W/sessions.txt
: >"$fer"
: >"$rep"
: >"$ses"
"$AG" report -o "$W/page.html" 2>/dev/null # warm the caches once
i=0
while [ "$i" -lt "$N" ]; do
	t0=$(now_ns)
	"$GIT" for-each-ref refs/heads/feat refs/agentic-git >/dev/null
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$fer"
	t0=$(now_ns)
	"$AG" report -o "$W/page.html" 2>/dev/null
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$rep"
	t0=$(now_ns)
	"$AG" sessions --json >/dev/null
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$ses"
	i=$((i + 1))
done

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
f=$(median "$fer")
r=$(median "$rep")
s=$(median "$ses")
page=$(wc -c <"$W/page.html")
awk -v f="$f" -v r="$r" -v s="$s" -v n="$N" -v S="$S" -v L="$lines" \
	-v refs="$refs" -v page="$page" 'BEGIN {
	printf "operator views: %d sessions, %d journal lines, %d refs (%d iterations, medians)\n", S, L, refs, n
	printf "  git for-each-ref over the same refs: %9.2f ms\n", f / 1000
	printf "  agentic-git report (%d KiB page):     %9.2f ms   ratio %.1fx\n", page / 1024, r / 1000, r / f
	printf "  agentic-git sessions --json:          %9.2f ms   ratio %.1fx\n", s / 1000, s / f
	printf "  per session: report %.2f ms, sessions --json %.2f ms\n", r / 1000 / S, s / 1000 / S
}'
