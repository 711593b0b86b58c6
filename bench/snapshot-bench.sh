#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The snapshot's cost before a destructive op (PRODUCT.md §11, issue 3 #5).
#
# In one run, on a 20,000-file repository with 100 changed files and one new
# file, times
#   A  `git reset --hard` through the shim, bound agent, snapshots on
#   B  a plain `git reset --hard` (real git)
#   C  `git status` (real git) on the same dirty tree
# and prints (A - B) / C. Budget: ≤ 1.0 (PRODUCT.md §11, raised by issue
# 33). Every timed run starts from the
# same dirty tree; the three are interleaved round by round.
#
# usage: bench/snapshot-bench.sh [path/to/agentic-git]   (RUNS=N to change)
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
TT=$(dirname "$BIN")/../tests/helper/test-tool
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-15}
FILES=${FILES:-20000}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
GIT=$(command -v git)
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name b
git config --global user.email b@b
git config --global init.defaultBranch main
# no automatic gc: the initial commit's 20,000 loose objects would start a
# background `git gc --auto` that repacks while the timed runs go (and
# once made the sanity snapshot fail, pruning an objects/xx directory
# under it); the repository is packed once, in the foreground, below
git config --global gc.auto 0
unset AGENTIC_GIT_BYPASS AGEND_GIT_BYPASS GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

echo "building a $FILES-file repository…" >&2
git init -q "$W/repo"
(
	cd "$W/repo"
	mkdir $(seq -f 'd%g' 0 199)
	awk -v per=$((FILES / 200)) 'BEGIN {
		for (d = 0; d < 200; d++)
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

# a bound agent's worktree, provisioned like an orchestrator
export AGENTIC_GIT_HOME=$W/ag AGENTIC_GIT_AGENT=bench AGENTIC_GIT_REAL_GIT=$GIT
export AGENTIC_GIT_SNAPSHOTS=1
mkdir -p "$AGENTIC_GIT_HOME/bin" "$AGENTIC_GIT_HOME/runtime/bench"
# the shim executable sessions install as <home>/bin/git (the full binary
# when it is not built)
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

# 100 changed files and one new file, fresh before every timed run
cat >"$W/dirty.sh" <<DIRTY
#!/bin/sh
cd '$WT' || exit 1
n=\$(date +%s%N)
for i in \$(seq 0 99); do echo "change \$n" >>"d\$i/f0.txt"; done
echo "new \$n" >new-file.txt
DIRTY
chmod +x "$W/dirty.sh"
SHIM=$AGENTIC_GIT_HOME/bin/git
"$W/dirty.sh"
git status >/dev/null

# sanity: the shim really snapshots
before=$(git for-each-ref refs/agentic-git/ | wc -l)
"$SHIM" reset -q --hard
after=$(git for-each-ref refs/agentic-git/ | wc -l)
[ "$after" -gt "$before" ] || { echo "snapshot-bench: the shim took no snapshot" >&2; exit 1; }

# A, B and C interleaved (bench/interleave.c): every round times each
# once, each from a freshly dirtied tree (the prepare step, untimed), so
# a change in machine load hits all three alike; the ratio is taken per
# round and its median printed.
cc -O2 -o "$W/interleave" "$ROOT/bench/interleave.c"
"$W/interleave" -r -p "$W/dirty.sh" "$RUNS" 3 "$SHIM" reset -q --hard \
	-- "$GIT" reset -q --hard -- "$GIT" status --porcelain >"$W/t"
echo "snapshot before reset --hard: $FILES files, 100 changed + 1 new, $RUNS rounds (interleaved)"
ratio=$(awk '/^round/ { print ($2 - $3) / $4 }' "$W/t" | sort -g |
	awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
awk -v r="$ratio" '!/^round/ { k++; med[k] = $1; mean[k] = $2; cpu[k] = $3 }
	END {
		printf "                                      median ms   mean ms   CPU ms\n"
		printf "  A shim reset --hard (snapshots on)  %9.1f %9.1f %8.1f\n", med[1], mean[1], cpu[1]
		printf "  B plain git reset --hard            %9.1f %9.1f %8.1f\n", med[2], mean[2], cpu[2]
		printf "  C git status                        %9.1f %9.1f %8.1f\n", med[3], mean[3], cpu[3]
		printf "  (A - B) / C, median of the rounds = %s   (budget <= 1.00: %s)\n", r, r <= 1 ? "pass" : "FAIL"
		printf "  from the means: %.2f   CPU time (medians): %.2f\n", (mean[1] - mean[2]) / mean[3], (cpu[1] - cpu[2]) / cpu[3]
	}' "$W/t"
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
