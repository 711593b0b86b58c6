#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The snapshot's cost with unchanged untracked files (issue 37 point 1, the
# incremental capture: git/snapshot-ucache.h).
#
# In one run, in a 1,000-file worktree with one changed tracked file before
# every op, and either
#   (a) one unchanged 50 MB untracked file, or
#   (b) 5,000 unchanged untracked files,
# times, from the second op on (a first snapshot is taken before timing),
#   A  `git reset --hard` through the shim, bound agent, snapshots on
#   B  a plain `git reset --hard` (real git)
#   C  `git status` (real git) on the same tree
# and prints (A - B) / C (budget <= 1.0) and the object store's growth per
# op (du of objects/ before and after the timed ops; budget <= 1 MB).
#
# usage: bench/snapshot-untracked-bench.sh [path/to/agentic-git]  (RUNS=N)
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
TT=$(dirname "$BIN")/../tests/helper/test-tool
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-15}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
GIT=$(command -v git)
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name b
git config --global user.email b@b
git config --global init.defaultBranch main
git config --global gc.auto 0
unset AGENTIC_GIT_BYPASS AGEND_GIT_BYPASS GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
cc -O2 -o "$W/interleave" "$ROOT/bench/interleave.c"

export AGENTIC_GIT_HOME=$W/ag AGENTIC_GIT_AGENT=bench AGENTIC_GIT_REAL_GIT=$GIT
export AGENTIC_GIT_SNAPSHOTS=1
mkdir -p "$AGENTIC_GIT_HOME/bin" "$AGENTIC_GIT_HOME/runtime/bench"
SHIM_EXE=$(dirname "$BIN")/agentic-git-shim
[ -x "$SHIM_EXE" ] || SHIM_EXE=$BIN
ln -s "$SHIM_EXE" "$AGENTIC_GIT_HOME/bin/git"
"$TT" key "$AGENTIC_GIT_HOME"
SHIM=$AGENTIC_GIT_HOME/bin/git

# one_case NAME MAKE_UNTRACKED: a fresh 1,000-file repository and bound
# worktree, the untracked files made by MAKE_UNTRACKED (run in it)
one_case() {
	local name=$1 make=$2 repo=$W/repo-$1 wt
	git init -q "$repo"
	(
		cd "$repo"
		mkdir $(seq -f 'd%g' 0 19)
		awk 'BEGIN { for (d = 0; d < 20; d++) for (f = 0; f < 50; f++) {
			fn = "d" d "/f" f ".txt"; print "file " d "/" f > fn; close(fn) } }'
		git add -A
		git commit -qm init
		git gc -q
	)
	wt=$AGENTIC_GIT_HOME/worktrees/bench/$name
	git -C "$repo" worktree add -q -b "$name" "$wt"
	printf '{"version":1,"agent":"bench","task_id":"t","branch":"%s","worktree":"%s"}' \
		"$name" "$wt" >"$AGENTIC_GIT_HOME/runtime/bench/binding.json"
	"$TT" sign "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/runtime/bench/binding.json"
	cd "$wt"
	"$make"
	cat >"$W/dirty.sh" <<-DIRTY
		#!/bin/sh
		echo "change \$(date +%s%N)" >>'$wt/d0/f0.txt'
	DIRTY
	chmod +x "$W/dirty.sh"
	"$W/dirty.sh"
	# the first op captures the untracked files; the timed ones follow
	before=$(git for-each-ref refs/agentic-git/ | wc -l)
	"$SHIM" reset -q --hard
	[ "$(git for-each-ref refs/agentic-git/ | wc -l)" -gt "$before" ] ||
		{ echo "snapshot-untracked-bench: the shim took no snapshot" >&2; exit 1; }
	sleep 1
	"$W/dirty.sh"
	"$SHIM" reset -q --hard
	objects=$(git rev-parse --git-common-dir)/objects
	# let the detached consolidation settle, then measure
	flock "$(git rev-parse --git-common-dir)/agentic-git-compact.mutex" true 2>/dev/null || true
	kb0=$(du -sk "$objects" | cut -f1)
	"$W/interleave" -r -p "$W/dirty.sh" "$RUNS" 0 "$SHIM" reset -q --hard \
		-- "$GIT" reset -q --hard -- "$GIT" status --porcelain >"$W/t"
	flock "$(git rev-parse --git-common-dir)/agentic-git-compact.mutex" true 2>/dev/null || true
	kb1=$(du -sk "$objects" | cut -f1)
	ratio=$(awk '/^round/ { print ($2 - $3) / $4 }' "$W/t" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
	echo "snapshot before reset --hard, 1,000 files + $name, $RUNS rounds (interleaved), from the second op on"
	awk -v r="$ratio" -v g="$(((kb1 - kb0) / RUNS))" '!/^round/ { k++; med[k] = $1; mean[k] = $2; cpu[k] = $3 }
		END {
			printf "                                      median ms   mean ms   CPU ms\n"
			printf "  A shim reset --hard (snapshots on)  %9.1f %9.1f %8.1f\n", med[1], mean[1], cpu[1]
			printf "  B plain git reset --hard            %9.1f %9.1f %8.1f\n", med[2], mean[2], cpu[2]
			printf "  C git status                        %9.1f %9.1f %8.1f\n", med[3], mean[3], cpu[3]
			printf "  (A - B) / C, median of the rounds = %s   (budget <= 1.00: %s)\n", r, r <= 1 ? "pass" : "FAIL"
			printf "  from the means: %.2f   CPU time (medians): %.2f\n", (mean[1] - mean[2]) / mean[3], (cpu[1] - cpu[2]) / cpu[3]
			printf "  object store growth per op = %d KB   (budget <= 1024 KB: %s)\n", g, g <= 1024 ? "pass" : "FAIL"
		}' "$W/t"
	cd "$W"
}

big_file() {
	head -c 52428800 /dev/urandom >big.bin
}

many_files() {
	mkdir -p u
	awk 'BEGIN { for (d = 0; d < 50; d++) for (f = 0; f < 100; f++) {
		fn = "u/" d "-" f ".txt"; print "untracked " d "/" f > fn; close(fn) } }'
}

one_case one-50MB-untracked-file big_file
one_case 5000-untracked-files many_files
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
