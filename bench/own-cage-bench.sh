#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The price of the boundary rule (issue 32 point 1 and acceptance 4;
# docs/sandbox.md "The boundary rule"): `sessions` over 10 sandboxed
# sessions, and `end --force` of one with uncommitted work, for two builds
# of agentic-git in one run, interleaved. Every git of the candidate over
# a workspace starts caged (one more exec with Landlock). Prints medians
# (ms) and the ratio candidate/baseline. Budget: <= 1.5x.
#
#   bench/own-cage-bench.sh <baseline agentic-git> <candidate agentic-git> [rounds]
set -eu
[ $# -ge 2 ] && [ -x "$1" ] && [ -x "$2" ] || {
	echo "usage: bench/own-cage-bench.sh <baseline agentic-git> <candidate agentic-git> [rounds]" >&2
	exit 2
}
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
B=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
N=${3:-7}
S=10
GIT=$(command -v git)
W=$(mktemp -d "${TMPDIR:-/tmp}/agentic-git-own-cage-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
export HOME="$W/home" GIT_CONFIG_NOSYSTEM=1
unset AGENTIC_GIT_AGENT AGEND_HOME 2>/dev/null || true
export AGENTIC_GIT_REAL_GIT="$GIT"
mkdir -p "$HOME" "$W/bin"
"$GIT" config --global user.name Bench
"$GIT" config --global user.email bench@example.com
backend=bwrap policy=fs+no-net
"$B" sandbox probe --json | grep -q '"works":true' || backend=landlock policy=fs-only
# the agent leaves a change and an untracked file: `end` has work to keep
cat >"$W/bin/agent.sh" <<EOF
#!/bin/sh
echo edit >>README
echo new >new.txt
EOF
chmod +x "$W/bin/agent.sh"

# setup NAME BINARY: a repository, a home and S sessions for that build
setup() {
	mkdir -p "$W/$1/home"
	"$GIT" init -q -b main "$W/$1/repo"
	(cd "$W/$1/repo" && seq 1 200 >README && "$GIT" add README && "$GIT" commit -q -m init)
	cat >"$W/$1/home/config.yaml" <<-EOF
	sandbox_backend: $backend
	agents:
	  bench:
	    command: ["$W/bin/agent.sh", "{prompt}"]
	    env: []
	    sandbox: $policy
	EOF
	chmod 600 "$W/$1/home/config.yaml"
	i=0
	while [ "$i" -lt "$S" ]; do
		start "$1" "$2" "s$i"
		i=$((i + 1))
	done
}
start() {
	(cd "$W/$1/repo" && AGENTIC_GIT_HOME="$W/$1/home" "$2" run --agent "$3" --branch "b-$3" \
		--profile bench --prompt go >/dev/null 2>&1)
}
setup a "$A"
setup b "$B"

now_ns() { date +%s%N; }
# one NAME BINARY I: a timed `sessions`, then a session started and a
# timed `end --force` of it (so `sessions` always sees S sessions)
one() {
	t0=$(now_ns)
	(cd "$W/$1/repo" && AGENTIC_GIT_HOME="$W/$1/home" "$2" sessions >/dev/null 2>&1)
	t1=$(now_ns)
	start "$1" "$2" "e$3"
	t2=$(now_ns)
	(cd "$W/$1/repo" && AGENTIC_GIT_HOME="$W/$1/home" "$2" end --agent "e$3" --force >/dev/null 2>&1)
	t3=$(now_ns)
	echo $(((t1 - t0) / 1000)) >>"$W/$1.sessions"
	echo $(((t3 - t2) / 1000)) >>"$W/$1.end"
}
one a "$A" warm
one b "$B" warm
: >"$W/a.sessions" && : >"$W/a.end" && : >"$W/b.sessions" && : >"$W/b.end"
i=0
while [ "$i" -lt "$N" ]; do
	one a "$A" "$i"
	one b "$B" "$i"
	i=$((i + 1))
done
n=$(AGENTIC_GIT_HOME="$W/b/home" "$B" sessions --json | grep -c '"agent"' || true)
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "backend $backend, $policy; $S sessions; $N rounds; load $(cut -d' ' -f1 /proc/loadavg)"
echo "sessions the candidate lists: $n"
for what in sessions end; do
	a=$(median "$W/a.$what")
	b=$(median "$W/b.$what")
	awk -v w="$what" -v a="$a" -v b="$b" 'BEGIN {
		printf "%-8s baseline %7.1f ms  candidate %7.1f ms  ratio %.2f\n", w, a / 1000, b / 1000, b / a }'
done
