#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The snapshot's cost before a destructive op (PRODUCT.md §11, issue 3 #5).
#
# In one run, on a 20,000-file repository with 100 changed files and one new
# file, times
#   A  `git reset --hard` through the shim, bound agent, snapshots on
#   B  a plain `git reset --hard` (real git)
#   C  `git status` (real git) on the same dirty tree
# and prints (A - B) / C. Budget: ≤ 2.0. Every timed run starts from the
# same dirty tree (hyperfine --prepare); without hyperfine, a shell loop.
#
# usage: bench/snapshot-bench.sh [path/to/agentic-git]   (RUNS=N to change)
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
TT=$(dirname "$BIN")/../tests/helper/test-tool
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

mean_ms() { jq -r '.results[0].mean * 1000' "$1"; }
# CPU time (user + system, children included): less sensitive to other load
cpu_ms() { jq -r '(.results[0].user + .results[0].system) * 1000' "$1"; }
time_loop() { # label command… -> mean ms
	local i t0 t1 total=0
	for i in $(seq 1 "$RUNS"); do
		"$W/dirty.sh"
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		total=$((total + t1 - t0))
	done
	awk -v t="$total" -v r="$RUNS" 'BEGIN { printf "%.3f", t / r / 1000000 }'
}
measure() { # name command…
	local name=$1
	shift
	if command -v hyperfine >/dev/null; then
		hyperfine -N -w 3 -r "$RUNS" --prepare "$W/dirty.sh" \
			--export-json "$W/$name.json" "$*" >/dev/null 2>&1
		mean_ms "$W/$name.json"
	else
		time_loop "$@"
	fi
}

A=$(measure shim "$SHIM" reset -q --hard)
B=$(measure plain "$GIT" reset -q --hard)
C=$(measure status "$GIT" status --porcelain)
ratio=$(awk -v a="$A" -v b="$B" -v c="$C" 'BEGIN { printf "%.2f", (a - b) / c }')
echo "snapshot before reset --hard: $FILES files, 100 changed + 1 new, $RUNS runs each"
printf '  A shim reset --hard (snapshots on)  %8.1f ms\n' "$A"
printf '  B plain git reset --hard            %8.1f ms\n' "$B"
printf '  C git status                        %8.1f ms\n' "$C"
printf '  (A - B) / C = %s   (budget <= 2.00)\n' "$ratio"
if command -v hyperfine >/dev/null; then
	awk -v a="$(cpu_ms "$W/shim.json")" -v b="$(cpu_ms "$W/plain.json")" -v c="$(cpu_ms "$W/status.json")" \
		'BEGIN { printf "  CPU time (user+sys): A %.1f  B %.1f  C %.1f ms, (A - B) / C = %.2f\n", a, b, c, (a - b) / c }'
fi
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
