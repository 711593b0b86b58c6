#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Session start cost (PRODUCT.md §11, issue 4): `agentic-git run --agent x
# --branch b -- true` against a plain `git worktree add` of the same branch,
# measured in one run on one scratch repository, worktree and branch removed
# between iterations. Prints medians, the ratio and the absolute extra ms.
# Budget: at most a worktree add plus a few milliseconds.
#
#   bench/session-bench.sh <agentic-git binary> [iterations]
set -eu
[ $# -ge 1 ] && [ -x "$1" ] || {
	echo "usage: bench/session-bench.sh <agentic-git binary> [iterations]" >&2
	exit 2
}
AG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
N=${2:-30}
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
# A small but real tree: 200 files in 10 directories.
for d in 0 1 2 3 4 5 6 7 8 9; do
	mkdir -p "src/d$d"
	for f in $(seq 20); do echo "file $d/$f" >"src/d$d/f$f.c"; done
done
"$GIT" add -A && "$GIT" commit -q -m init
# First run outside the timing: creates the home, key, hooks and link once.
"$AG" run --agent warm --branch warm -- true 2>/dev/null
"$AG" end --agent warm >/dev/null
"$GIT" branch -q -D warm

now_ns() { date +%s%N; }
plain=$W/plain.txt
session=$W/session.txt
: >"$plain"
: >"$session"
spawn=$W/spawn.txt
: >"$spawn"
i=0
while [ "$i" -lt "$N" ]; do
	# interleaved, so drift on a shared machine hits both equally
	t0=$(now_ns)
	"$GIT" worktree add -q -b b "$W/wt" HEAD
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$plain"
	"$GIT" worktree remove --force "$W/wt"
	"$GIT" branch -q -D b

	# the price of one process on this machine right now, for scale
	t0=$(now_ns)
	"$GIT" rev-parse --verify -q HEAD >/dev/null
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$spawn"

	t0=$(now_ns)
	"$AG" run --agent x --branch b -- true 2>/dev/null
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$session"
	"$AG" end --agent x >/dev/null
	"$GIT" branch -q -D b
	i=$((i + 1))
done

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
p=$(median "$plain")
s=$(median "$session")
g=$(median "$spawn")
awk -v p="$p" -v s="$s" -v g="$g" -v n="$N" 'BEGIN {
	printf "session start (%d iterations, medians)\n", n
	printf "  git worktree add:                       %8.2f ms\n", p / 1000
	printf "  agentic-git run --agent x --branch b -- true: %8.2f ms\n", s / 1000
	printf "  one git rev-parse (process cost, for scale): %8.2f ms\n", g / 1000
	printf "  ratio: %.2fx   extra: %+.2f ms (= %.1f process spawns)\n", s / p, (s - p) / 1000, (s - p) / g
}'
