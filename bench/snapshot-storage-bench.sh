#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Bounded snapshot storage (issue 37 point 2): plain git's small commands
# (`git rev-parse HEAD`, `git log -1`) before vs after 150 snapshots of a
# bound agent. Budget: ≤ 1.2×. Also prints the packs and loose snapshot
# refs left (git/snapshot-compact.h consolidates them, detached).
#
# usage: bench/snapshot-storage-bench.sh [path/to/agentic-git]
#        (SNAPS=N snapshots, FILES=N files, CALLS=N calls per batch)
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
TT=$(dirname "$BIN")/../tests/helper/test-tool
SNAPS=${SNAPS:-150}
FILES=${FILES:-2000}
CALLS=${CALLS:-100}
BATCHES=${BATCHES:-7}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
GIT=$(command -v git)
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name b
git config --global user.email b@b
git config --global init.defaultBranch main
git config --global gc.auto 0 # only what agentic-git does counts
unset AGENTIC_GIT_BYPASS AGEND_GIT_BYPASS GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

git init -q "$W/repo"
(
	cd "$W/repo"
	mkdir $(seq -f 'd%g' 0 19)
	awk -v per=$((FILES / 20)) 'BEGIN {
		for (d = 0; d < 20; d++)
			for (f = 0; f < per; f++) {
				fn = "d" d "/f" f ".txt"
				print "file " d "/" f > fn
				close(fn)
			}
	}'
	git add -A
	git commit -qm init
	git gc -q
)

export AGENTIC_GIT_HOME=$W/ag AGENTIC_GIT_AGENT=bench AGENTIC_GIT_REAL_GIT=$GIT
export AGENTIC_GIT_SNAPSHOTS=1
mkdir -p "$AGENTIC_GIT_HOME/bin" "$AGENTIC_GIT_HOME/runtime/bench"
SHIM_EXE=$(dirname "$BIN")/agentic-git-shim
[ -x "$SHIM_EXE" ] || SHIM_EXE=$BIN
ln -s "$SHIM_EXE" "$AGENTIC_GIT_HOME/bin/git"
"$TT" key "$AGENTIC_GIT_HOME"
WT=$AGENTIC_GIT_HOME/worktrees/bench/feat/bench
git -C "$W/repo" worktree add -q -b feat/bench "$WT"
printf '{"version":1,"agent":"bench","task_id":"t","branch":"feat/bench","worktree":"%s"}' "$WT" \
	>"$AGENTIC_GIT_HOME/runtime/bench/binding.json"
"$TT" sign "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/runtime/bench/binding.json"
cd "$WT"
GD=$W/repo/.git

# ms CMD…: the median over BATCHES of the mean time of CALLS runs, in µs
us() {
	local b i t0 t1 all=()
	for b in $(seq 1 "$BATCHES"); do
		t0=$(date +%s%N)
		for i in $(seq 1 "$CALLS"); do "$@" >/dev/null; done
		t1=$(date +%s%N)
		all+=($(((t1 - t0) / CALLS / 1000)))
	done
	printf '%s\n' "${all[@]}" | sort -n | sed -n "$(((BATCHES + 1) / 2))p"
}
state() {
	echo "packs $(find "$GD/objects/pack" -name '*.pack' | wc -l)," \
		"loose snapshot refs $(find "$GD/refs/agentic-git" -type f 2>/dev/null | wc -l)," \
		"snapshots $("$GIT" for-each-ref refs/agentic-git/snapshots/ | wc -l)"
}

echo "before: $(state)"
rp0=$(us "$GIT" rev-parse HEAD)
lg0=$(us "$GIT" log -1)
echo "taking $SNAPS snapshots…" >&2
for i in $(seq 1 "$SNAPS"); do
	echo "change $i" >>"d$((i % 20))/f0.txt"
	echo "new $i" >"new-$i.txt"
	"$AGENTIC_GIT_HOME/bin/git" reset -q --hard
done
flock "$GD/agentic-git-compact.lock" true # a consolidation still running
echo "after:  $(state)"
rp1=$(us "$GIT" rev-parse HEAD)
lg1=$(us "$GIT" log -1)
awk -v a="$rp0" -v b="$rp1" 'BEGIN { printf "git rev-parse HEAD  before %6d µs  after %6d µs  ratio %.2f (budget 1.2)\n", a, b, b / a }'
awk -v a="$lg0" -v b="$lg1" 'BEGIN { printf "git log -1          before %6d µs  after %6d µs  ratio %.2f (budget 1.2)\n", a, b, b / a }'
