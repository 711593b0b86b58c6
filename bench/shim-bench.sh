#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The shim's hot path against its physical limit (PRODUCT.md §11).
#
# In one run, on a bound agent's worktree in a small repository, times
#   real git   | a minimal C program that only execs real git | the shim
# for `git rev-parse HEAD` and `git status`, and prints the ratios. Budget:
# shim ≤ 1.05 × the minimal program; peak memory ≤ 4 MiB; no extra process.
#
# usage: bench/shim-bench.sh [path/to/agentic-git]
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
# what <home>/bin/git points at: the small shim executable beside the binary
SHIM=$(dirname "$BIN")/agentic-git-shim
[ -x "$SHIM" ] || SHIM=$BIN
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-400}
command -v hyperfine >/dev/null || { echo "shim-bench: needs hyperfine" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
GIT=$(command -v git)
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name b; git config --global user.email b@b
git config --global init.defaultBranch main

cc -O2 -DREAL_GIT="\"$GIT\"" -o "$W/minexec" "$ROOT/bench/minexec.c"
cc -O2 -o "$W/maxrss" "$ROOT/bench/maxrss.c"
mkdir -p "$W/min"; ln -s "$W/minexec" "$W/min/git"

# a small repository and a bound worktree, provisioned like an orchestrator
git init -q "$W/repo"
( cd "$W/repo"; for i in $(seq 1 200); do echo "$i" >"f$i"; done
  git add -A; git commit -qm init; git remote add origin "$W/origin.git" )
export AGENTIC_GIT_HOME=$W/ag AGENTIC_GIT_AGENT=bench AGENTIC_GIT_REAL_GIT=$GIT
mkdir -p "$AGENTIC_GIT_HOME/bin" "$AGENTIC_GIT_HOME/runtime/bench"
ln -s "$SHIM" "$AGENTIC_GIT_HOME/bin/git"
"$ROOT/build/tests/helper/test-tool" key "$AGENTIC_GIT_HOME" 2>/dev/null ||
	"$(dirname "$BIN")/../tests/helper/test-tool" key "$AGENTIC_GIT_HOME"
WT=$AGENTIC_GIT_HOME/worktrees/bench/feat/bench
git -C "$W/repo" worktree add -q -b feat/bench "$WT"
printf '{"version":1,"agent":"bench","task_id":"t","branch":"feat/bench","worktree":"%s"}' "$WT" \
	>"$AGENTIC_GIT_HOME/runtime/bench/binding.json"
TT=$(dirname "$BIN")/../tests/helper/test-tool
"$TT" sign "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/runtime/bench/binding.json"
cd "$WT"
git status >/dev/null # warm the index

# sanity: the shim really is bound and routes
v=$("$BIN" check -- status | sed -n 's/^verdict: //p')
[ "$v" = route ] || { echo "shim-bench: expected a bound route verdict, got '$v'" >&2; exit 1; }

mean() { jq -r '.results[0].mean' "$1"; }
echo "shim hot path, $RUNS runs each (hyperfine -N), small repo, bound agent"
printf '%-22s %12s %12s %12s %10s %10s\n' command "git (ms)" "min-exec (ms)" "shim (ms)" shim/min shim/git
for cmd in "rev-parse HEAD" "status"; do
	# shellcheck disable=SC2086
	hyperfine -N -w 30 -r "$RUNS" --export-json "$W/g.json" "$GIT $cmd" >/dev/null 2>&1
	# shellcheck disable=SC2086
	hyperfine -N -w 30 -r "$RUNS" --export-json "$W/m.json" "$W/min/git $cmd" >/dev/null 2>&1
	# shellcheck disable=SC2086
	hyperfine -N -w 30 -r "$RUNS" --export-json "$W/s.json" "$AGENTIC_GIT_HOME/bin/git $cmd" >/dev/null 2>&1
	g=$(mean "$W/g.json"); m=$(mean "$W/m.json"); s=$(mean "$W/s.json")
	awk -v c="$cmd" -v g="$g" -v m="$m" -v s="$s" 'BEGIN {
		printf "%-22s %12.3f %12.3f %12.3f %10.3f %10.3f\n", c, g*1000, m*1000, s*1000, s/m, s/g }'
done
rss=$("$W/maxrss" "$AGENTIC_GIT_HOME/bin/git" rev-parse HEAD | tail -1)
rss_git=$("$W/maxrss" "$GIT" rev-parse HEAD | tail -1)
echo "peak RSS (KiB, high-water mark across exec): shim→git $rss, git alone $rss_git (budget: shim's own part ≤ 4096)"
if command -v strace >/dev/null; then
	n=$(strace -f -qq -e trace=execve,fork,vfork,clone,clone3 -o "$W/st" \
		"$AGENTIC_GIT_HOME/bin/git" rev-parse HEAD >/dev/null 2>&1; grep -cE 'execve\(|clone|fork' "$W/st")
	echo "processes: strace saw $n execve/fork/clone calls for a bound rev-parse (2 = shim + real git, no extra process)"
fi
