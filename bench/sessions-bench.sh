#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `sessions` as a fleet grows (issue 37 point 4, acceptance 1; PRODUCT.md
# §11): over S sessions (linked worktrees of one small repository and their
# signed bindings, each made by `run`), `agentic-git sessions` against a
# serial `git --no-optional-locks status` loop over the same worktrees, and
# the same `sessions` read one session at a time
# (AGENTIC_GIT_SESSIONS_JOBS=1). Interleaved in one run; prints medians (ms)
# and the ratios. Budget: sessions <= 1.0x the status loop. With
# BASELINE=<another agentic-git>, its `sessions` over the same fleet too
# (an older build: what the change gains).
#
#   [BASELINE=<agentic-git>] bench/sessions-bench.sh <agentic-git binary> [rounds] [sessions ...]
#   (default: 5 rounds, 100 and 1000 sessions)
set -eu
[ $# -ge 1 ] && [ -x "$1" ] || {
	echo "usage: bench/sessions-bench.sh <agentic-git binary> [rounds] [sessions ...]" >&2
	exit 2
}
AG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
N=${2:-5}
[ $# -ge 2 ] && shift 2 || shift $#
SIZES=${*:-100 1000}
B=${BASELINE:-}
[ -z "$B" ] || B=$(cd "$(dirname "$B")" && pwd)/$(basename "$B")
GIT=$(command -v git)
W=$(mktemp -d "${TMPDIR:-/tmp}/agentic-git-sessions-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
export HOME="$W/home" GIT_CONFIG_NOSYSTEM=1
unset AGENTIC_GIT_AGENT AGEND_HOME AGENTIC_GIT_REAL_GIT AGENTIC_GIT_SESSIONS_JOBS 2>/dev/null || true
mkdir -p "$HOME"
"$GIT" config --global user.name Bench
"$GIT" config --global user.email bench@example.com

now_ns() { date +%s%N; }
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# fleet S: a repository with 100 files and S sessions, each with one
# commit of its own and one uncommitted change (a dirty worktree)
fleet() {
	export AGENTIC_GIT_HOME="$W/f$1/home"
	"$GIT" init -q -b main "$W/f$1/repo"
	cd "$W/f$1/repo"
	for f in $(seq 100); do echo "file $f" >"f$f.c"; done
	"$GIT" add -A && "$GIT" commit -q -m init
	i=0
	while [ "$i" -lt "$1" ]; do
		"$AG" run --agent "s$i" --branch "feat/s$i" -- sh -c '
			echo "$1" >>f1.c && git commit -qam "work $1"
			echo edit >>f2.c' sh "$i" >/dev/null 2>&1
		i=$((i + 1))
	done
	ls -d "$AGENTIC_GIT_HOME"/worktrees/*/feat/* >"$W/f$1/list"
}

loop() {
	while read -r wt; do
		"$GIT" -C "$wt" --no-optional-locks status --porcelain >/dev/null
	done <"$1"
}

for S in $SIZES; do
	fleet "$S"
	n=$("$AG" sessions --json | grep -c '"agent"' || true)
	: >"$W/loop" && : >"$W/par" && : >"$W/ser" && : >"$W/base"
	loop "$W/f$S/list" # warm
	"$AG" sessions >/dev/null
	i=0
	while [ "$i" -lt "$N" ]; do
		t0=$(now_ns)
		loop "$W/f$S/list"
		t1=$(now_ns)
		"$AG" sessions >/dev/null
		t2=$(now_ns)
		AGENTIC_GIT_SESSIONS_JOBS=1 "$AG" sessions >/dev/null
		t3=$(now_ns)
		echo $(((t1 - t0) / 1000)) >>"$W/loop"
		echo $(((t2 - t1) / 1000)) >>"$W/par"
		echo $(((t3 - t2) / 1000)) >>"$W/ser"
		if [ -n "$B" ]; then
			t0=$(now_ns)
			"$B" sessions >/dev/null
			t1=$(now_ns)
			echo $(((t1 - t0) / 1000)) >>"$W/base"
		fi
		i=$((i + 1))
	done
	echo "$S sessions ($n listed), $N rounds, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
	awk -v l="$(median "$W/loop")" -v p="$(median "$W/par")" \
		-v s="$(median "$W/ser")" -v n="$S" 'BEGIN {
		printf "  git status loop     %9.1f ms  %6.2f ms/session\n", l / 1000, l / 1000 / n
		printf "  sessions            %9.1f ms  %6.2f ms/session  ratio %.2f\n", p / 1000, p / 1000 / n, p / l
		printf "  sessions, 1 job     %9.1f ms  %6.2f ms/session  ratio %.2f\n", s / 1000, s / 1000 / n, s / l }'
	[ -z "$B" ] || awk -v l="$(median "$W/loop")" -v b="$(median "$W/base")" -v n="$S" 'BEGIN {
		printf "  baseline sessions   %9.1f ms  %6.2f ms/session  ratio %.2f\n", b / 1000, b / 1000 / n, b / l }'
	rm -rf "$W/f$S"
done
