#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# What the push guard costs (issue 18: it judges what git really pushes).
#
# In one run, on a bound agent's worktree (bench/shim-env.sh) with a local
# bare origin and COMMITS new commits on the agent's branch, times
#   real git push --dry-run | the shim's [| another build's shim]
# round-robin (bench/interleave.c) and prints median ms and ratios. A dry
# run goes through every guard (the shim's own dry run, the advertisement,
# the scan) and pushes nothing, so every round measures the same push.
#
# usage: bench/push-bench.sh [path/to/agentic-git [path/to/other/agentic-git]]
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
OTHER=${2:+$(realpath "$2")}
SHIM=$(dirname "$BIN")/agentic-git-shim
[ -x "$SHIM" ] || SHIM=$BIN
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-40}
COMMITS=${COMMITS:-50}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/bench/shim-env.sh"
cc -O2 -o "$W/interleave" "$ROOT/bench/interleave.c"
git init -q --bare "$W/origin.git"
git -C "$W/repo" push -q origin main
cd "$WT"
for i in $(seq 1 "$COMMITS"); do
	echo "$i" >"c$i"
	git add "c$i"
	git commit -qm "c$i"
done
cmds=("$GIT" push --dry-run -q origin HEAD:feat/bench -- "$AGENTIC_GIT_HOME/bin/git" push --dry-run -q origin HEAD:feat/bench)
if [ -n "$OTHER" ]; then
	OSHIM=$(dirname "$OTHER")/agentic-git-shim
	[ -x "$OSHIM" ] || OSHIM=$OTHER
	mkdir -p "$W/other"
	ln -s "$OSHIM" "$W/other/git"
	cmds+=(-- "$W/other/git" push --dry-run -q origin HEAD:feat/bench)
fi
# sanity: the shim's guard lets this push through
"$AGENTIC_GIT_HOME/bin/git" push --dry-run -q origin HEAD:feat/bench
"$W/interleave" "$RUNS" 3 "${cmds[@]}" >"$W/t"
echo "push --dry-run of $COMMITS new commits, $RUNS rounds, median ms"
awk -v other="${OTHER:+yes}" 'NR == 1 { g = $1 } NR == 2 { s = $1 } NR == 3 { o = $1 }
END {
	printf "%-10s %9s %9s", "", "git", "shim"; if (other) printf " %9s", "other"; printf " %9s", "shim/git"
	if (other) printf " %9s %9s", "other/git", "shim/other"; printf "\n"
	printf "%-10s %9.2f %9.2f", "push", g, s; if (other) printf " %9.2f", o; printf " %9.2f", s / g
	if (other) printf " %9.2f %9.2f", o / g, s / o; printf "\n" }' "$W/t"
