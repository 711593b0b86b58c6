#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# PRODUCT.md §11: dispatch of N targets (default 100) with a no-op agent
# versus a shell script doing the same git steps, in one run:
#   fetch base+head, workspace (worktree add), run the agent, check HEAD
#   moved (rev-parse), push with an explicit lease, remove the workspace.
# The agent in both is the same script: one empty commit, then RESOLVED.
# Both run one target at a time (-j 1). Prints the per-target times and
# the ratio dispatch / script (budget: <= 1.0, "no worse").
# usage: bench/dispatch-bench.sh [path/to/agentic-git]   (N=100 by default)
set -eu
BIN=$(realpath "${1:-build/src/agentic-git}")
N=${N:-100}
GIT=$(command -v git)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1 AGENTIC_GIT_HOME=$W/aghome
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@x GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@x
mkdir -p "$HOME"
"$GIT" config --global init.defaultBranch main
"$GIT" init -q --bare "$W/origin.git"
"$GIT" init -q "$W/clone"
cd "$W/clone"
for f in $(seq 1 50); do echo "file $f" >"f$f"; done
"$GIT" add -A && "$GIT" commit -q -m init
"$GIT" remote add origin "$W/origin.git"
for i in $(seq 1 "$N"); do "$GIT" branch -q "br$i"; done
"$GIT" push -q origin --all
cd "$W"

cat >"$W/agent.sh" <<'SH'
#!/bin/sh
cat >/dev/null
git commit -q --allow-empty -m noop && echo "RESOLVED: noop"
SH
chmod +x "$W/agent.sh"
echo "do nothing" >"$W/prompt.md"
{
	echo "targets:"
	for i in $(seq 1 "$N"); do
		printf '  - {repo: %s, head: br%d, base: main, key: k%d}\n' "$W/clone" "$i" "$i"
	done
} >"$W/targets.yaml"

script_run() {
	local i b old new
	for i in $(seq 1 "$N"); do
		b=br$i
		"$GIT" -C "$W/clone" fetch -q --no-tags origin "+refs/heads/main:refs/remotes/origin/main" \
			"+refs/heads/$b:refs/remotes/origin/$b"
		"$GIT" -C "$W/clone" worktree add -q --detach "$W/wt/$i" "refs/remotes/origin/$b"
		old=$("$GIT" -C "$W/wt/$i" rev-parse HEAD)
		(cd "$W/wt/$i" && "$W/agent.sh" </dev/null >"$W/wt.log" 2>&1)
		grep -q '^RESOLVED' "$W/wt.log"
		new=$("$GIT" -C "$W/wt/$i" rev-parse HEAD)
		[ "$new" != "$old" ]
		"$GIT" -C "$W/wt/$i" push -q "--force-with-lease=refs/heads/$b:$old" origin "$new:refs/heads/$b"
		"$GIT" -C "$W/clone" worktree remove --force "$W/wt/$i"
	done
}

now() { date +%s.%N; }

t0=$(now)
script_run
t1=$(now)
"$BIN" dispatch -j 1 --timeout 60 --targets "$W/targets.yaml" --prompt-file "$W/prompt.md" \
	-- "$W/agent.sh" >"$W/dispatch.out"
t2=$(now)
pushed=$(grep -c '^pushed' "$W/dispatch.out" || true)
[ "$pushed" -eq "$N" ] || { echo "dispatch pushed $pushed of $N"; cat "$W/dispatch.out"; exit 1; }
awk -v n="$N" -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
	s = t1 - t0; d = t2 - t1
	printf "dispatch of %d targets, no-op agent, -j 1\n", n
	printf "  shell script (same git steps): %.1f ms/target\n", s * 1000 / n
	printf "  agentic-git dispatch:          %.1f ms/target\n", d * 1000 / n
	printf "  ratio dispatch/script: %.2fx (budget <= 1.00x: %s)\n", d / s, d <= s ? "pass" : "FAIL"
}'
