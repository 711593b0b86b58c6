#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# PRODUCT.md §11, issue 37 point 5: dispatch flat per target. A no-op agent
# (one empty commit, then RESOLVED) dispatched over N repositories, one
# target each, for every N in NS (default "10 100 500"), in one run, -j 1.
# Each N gets its own repositories (a bare origin and a clone each, copied
# from one template) and its own AGENTIC_GIT_HOME, so no run inherits
# another's state. Prints the wall time per target for each N and its ratio
# to the first N's; budget: every ratio within 1.00 +- 0.10.
# usage: bench/dispatch-scale-bench.sh [path/to/agentic-git]
#   NS="10 100 500 1000"   the sizes (the first is the reference)
set -eu
BIN=$(realpath "${1:-build/src/agentic-git}")
NS=${NS:-10 100 500}
GIT=$(command -v git)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@x GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@x
mkdir -p "$HOME"
"$GIT" config --global init.defaultBranch main

# The template: an origin with main and br, and a clone of it.
"$GIT" init -q --bare "$W/tpl/origin.git"
"$GIT" init -q "$W/tpl/clone"
(
	cd "$W/tpl/clone"
	for f in $(seq 1 50); do echo "file $f" >"f$f"; done
	"$GIT" add -A && "$GIT" commit -q -m init
	"$GIT" branch -q br
	"$GIT" remote add origin "$W/tpl/origin.git"
	"$GIT" push -q origin main br
	"$GIT" fetch -q origin
)

cat >"$W/agent.sh" <<'SH'
#!/bin/sh
cat >/dev/null
git commit -q --allow-empty -m noop && echo "RESOLVED: noop"
SH
chmod +x "$W/agent.sh"
echo "do nothing" >"$W/prompt.md"

# N repositories under $W/n<N>, and their targets file
make_set() {
	local n=$1 d=$W/n$1 i
	mkdir -p "$d"
	echo "targets:" >"$d/targets.yaml"
	for i in $(seq 1 "$n"); do
		cp -a "$W/tpl/origin.git" "$d/o$i.git"
		cp -a "$W/tpl/clone" "$d/c$i"
		"$GIT" -C "$d/c$i" remote set-url origin "$d/o$i.git"
		printf '  - {repo: %s, head: br, base: main, key: k%d}\n' "$d/c$i" "$i" \
			>>"$d/targets.yaml"
	done
}

now() { date +%s.%N; }

echo "dispatch over N repositories (one target each), no-op agent, -j 1"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $("$GIT" --version)"
ref=
fail=0
for n in $NS; do
	make_set "$n"
	export AGENTIC_GIT_HOME=$W/n$n/aghome
	t0=$(now)
	"$BIN" dispatch -j 1 --timeout 60 --targets "$W/n$n/targets.yaml" \
		--prompt-file "$W/prompt.md" -- "$W/agent.sh" >"$W/n$n/out" 2>"$W/n$n/err"
	t1=$(now)
	pushed=$(grep -c '^pushed' "$W/n$n/out" || true)
	[ "$pushed" -eq "$n" ] || { echo "dispatch pushed $pushed of $n"; tail "$W/n$n/out" "$W/n$n/err"; exit 1; }
	ms=$(awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.1f", (b - a) * 1000 / n }')
	[ -n "$ref" ] || ref=$ms
	verdict=$(awk -v m="$ms" -v r="$ref" 'BEGIN { x = m / r; print (x >= 0.9 && x <= 1.1) ? "pass" : "FAIL" }')
	[ "$verdict" = pass ] || fail=1
	awk -v n="$n" -v m="$ms" -v r="$ref" -v v="$verdict" 'BEGIN {
		printf "  %5d repositories: %7.1f ms/target  ratio to the first: %.3f (budget 0.90-1.10: %s)\n", n, m, m / r, v }'
	rm -rf "${W:?}/n$n"
done
[ "$fail" = 0 ] && echo "result: pass (flat within +-10%)" || echo "result: FAIL"
