#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The price of binding a cage's snapshots to its session (issue 32 W4,
# fleet/snapshot-bind.h; PRODUCT.md §11): a sandboxed `run` whose agent
# takes K snapshots (each brought back by the sync at exit), and the
# `end --force` of that session, for two builds of agentic-git in one
# run, interleaved. Prints medians (ms) and the ratio candidate/baseline.
# Budget: <= 1.5x (issue 32 acceptance 4).
#
#   bench/cage-sync-bench.sh <baseline agentic-git> <candidate agentic-git> [iterations] [snapshots]
set -eu
[ $# -ge 2 ] && [ -x "$1" ] && [ -x "$2" ] || {
	echo "usage: bench/cage-sync-bench.sh <baseline agentic-git> <candidate agentic-git> [iterations] [snapshots]" >&2
	exit 2
}
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
B=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
N=${3:-7}
K=${4:-5}
GIT=$(command -v git)
W=$(mktemp -d "${TMPDIR:-/tmp}/agentic-git-cage-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
export HOME="$W/home" GIT_CONFIG_NOSYSTEM=1
unset AGENTIC_GIT_AGENT AGEND_HOME 2>/dev/null || true
export AGENTIC_GIT_REAL_GIT="$GIT"
mkdir -p "$HOME" "$W/bin"
"$GIT" config --global user.name Bench
"$GIT" config --global user.email bench@example.com
backend=bwrap policy=fs+no-net
"$B" sandbox probe --json | grep -q '"works":true' || backend=landlock policy=fs-only
cat >"$W/bin/agent.sh" <<EOF
#!/bin/sh
i=0
while [ "\$i" -lt $K ]; do
	echo "change \$i" >>README && git reset -q --hard
	i=\$((i + 1))
done
EOF
chmod +x "$W/bin/agent.sh"

# setup NAME BINARY: a repository and a home of its own for that build
setup() {
	mkdir -p "$W/$1/home"
	"$GIT" init -q -b main "$W/$1/repo"
	(cd "$W/$1/repo" && echo base >README && "$GIT" add README && "$GIT" commit -q -m init)
	cat >"$W/$1/home/config.yaml" <<-EOF
	sandbox_backend: $backend
	agents:
	  bench:
	    command: ["$W/bin/agent.sh", "{prompt}"]
	    env: []
	    sandbox: $policy
	EOF
	chmod 600 "$W/$1/home/config.yaml"
}
setup a
setup b

now_ns() { date +%s%N; }
# one NAME BINARY I: a timed run and a timed end, appended to NAME.run/.end
one() {
	t0=$(now_ns)
	(cd "$W/$1/repo" && AGENTIC_GIT_HOME="$W/$1/home" "$2" run --agent x --branch "b$3" \
		--profile bench --prompt go >/dev/null 2>&1)
	t1=$(now_ns)
	(cd "$W/$1/repo" && AGENTIC_GIT_HOME="$W/$1/home" "$2" end --agent x --force >/dev/null 2>&1)
	t2=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$W/$1.run"
	echo $(((t2 - t1) / 1000)) >>"$W/$1.end"
}
one a "$A" warm
one b "$B" warm
: >"$W/a.run" && : >"$W/a.end" && : >"$W/b.run" && : >"$W/b.end"
i=0
while [ "$i" -lt "$N" ]; do
	one a "$A" "$i"
	one b "$B" "$i"
	i=$((i + 1))
done
n=$("$GIT" -C "$W/b/repo" for-each-ref refs/agentic-git/snapshots/x/ | wc -l)
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "backend $backend, $policy; $K snapshots per run; $N rounds; load $(cut -d' ' -f1 /proc/loadavg)"
echo "snapshots filed by the candidate: $n"
for what in run end; do
	a=$(median "$W/a.$what")
	b=$(median "$W/b.$what")
	awk -v w="$what" -v a="$a" -v b="$b" 'BEGIN {
		printf "%-4s baseline %7.1f ms  candidate %7.1f ms  ratio %.2f\n", w, a / 1000, b / 1000, b / a }'
done
