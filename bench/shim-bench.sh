#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The shim's hot path against its physical limit (PRODUCT.md §11).
#
# In one run, on a bound agent's worktree in a small repository, times
#   real git   | a minimal C program that only execs real git | the shim
# for `git rev-parse HEAD` and `git status`, round-robin (bench/interleave.c,
# so load changes hit all alike), and prints median ratios. Budget:
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
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/bench/shim-env.sh"
# the physical limit, built both ways; the faster one is the yardstick
cc -O2 -DREAL_GIT="\"$GIT\"" -o "$W/minexec" "$ROOT/bench/minexec.c"
cc -O2 -static -DREAL_GIT="\"$GIT\"" -o "$W/minexec-static" "$ROOT/bench/minexec.c"
cc -O2 -o "$W/interleave" "$ROOT/bench/interleave.c"
cc -O2 -o "$W/maxrss" "$ROOT/bench/maxrss.c"
mkdir -p "$W/min" "$W/mins"; ln -s "$W/minexec" "$W/min/git"; ln -s "$W/minexec-static" "$W/mins/git"

cd "$WT"
git status >/dev/null # warm the index

# sanity: the shim really is bound and routes
v=$("$BIN" check -- status | sed -n 's/^verdict: //p')
[ "$v" = route ] || { echo "shim-bench: expected a bound route verdict, got '$v'" >&2; exit 1; }

echo "shim hot path, $RUNS rounds (interleaved: git, min-exec dynamic, min-exec static, shim), median ms (and median page faults of the whole call, git included)"
printf '%-16s %9s %9s %9s %9s %9s %9s  %s\n' command git min-dyn min-stat shim shim/min shim/git "budget shim/min <= 1.05"
for cmd in "rev-parse HEAD" "status"; do
	# shellcheck disable=SC2086
	"$W/interleave" "$RUNS" 30 "$GIT" $cmd -- "$W/min/git" $cmd -- "$W/mins/git" $cmd \
		-- "$AGENTIC_GIT_HOME/bin/git" $cmd >"$W/t"
	awk -v c="$cmd" 'NR == 1 { g = $1 } NR == 2 { md = $1 } NR == 3 { ms = $1 } NR == 4 { s = $1 }
	END { m = md < ms ? md : ms
		printf "%-16s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f  %s\n", c, g, md, ms, s, s / m, s / g,
			s / m <= 1.05 ? "pass" : "FAIL" }' "$W/t"
	awk '{ f[NR] = $4 } END { printf "%-16s %9d %9d %9d %9d\n", "  page faults", f[1], f[2], f[3], f[4] }' "$W/t"
done
echo "(shim/min divides by the faster minimal program; budget <= 1.05)"
rss=$("$W/maxrss" "$AGENTIC_GIT_HOME/bin/git" rev-parse HEAD | tail -1)
rss_git=$("$W/maxrss" "$GIT" rev-parse HEAD | tail -1)
# the shim's own peak: real git replaced by a static program that exits
printf 'int main(void) { return 0; }\n' >"$W/true.c"
cc -O2 -static -o "$W/true" "$W/true.c"
rss_own=$(AGENTIC_GIT_REAL_GIT=$W/true "$W/maxrss" "$AGENTIC_GIT_HOME/bin/git" rev-parse HEAD | tail -1)
echo "peak RSS (KiB, high-water mark across exec): shim→git $rss, git alone $rss_git; the shim's own $rss_own (budget ≤ 4096: $([ "$rss_own" -le 4096 ] && echo pass || echo FAIL))"
if command -v strace >/dev/null; then
	n=$(strace -f -qq -e trace=execve,fork,vfork,clone,clone3 -o "$W/st" \
		"$AGENTIC_GIT_HOME/bin/git" rev-parse HEAD >/dev/null 2>&1; grep -cE 'execve\(|clone|fork' "$W/st")
	echo "processes: strace saw $n execve/fork/clone calls for a bound rev-parse (2 = shim + real git, no extra process: $([ "$n" -le 2 ] && echo pass || echo FAIL))"
fi
