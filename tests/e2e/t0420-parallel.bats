#!/usr/bin/env bats
# Two agents in parallel on one repository, each confined to its own
# branch by the shim their session puts first on PATH.
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/sess-home
	cd "$REPO"
	# The agent's script: commit on its own branch, then try to leave it.
	cat >"$T/agent.sh" <<'SH'
#!/bin/sh
# $1 = other agent's branch, $2 = other agent's worktree, $3 = log dir
me=$AGENTIC_GIT_AGENT
log=$3/$me
echo "work of $me" >"$me.txt"
git add "$me.txt"
git commit -qm "work of $me" 2>/dev/null; echo "commit=$?" >"$log.res"
git checkout "$1" 2>"$log.checkout"; echo "checkout=$?" >>"$log.res"
git checkout -q "$1" 2>/dev/null; echo "checkout_q=$?" >>"$log.res"
git switch main 2>"$log.switch"; echo "switch_main=$?" >>"$log.res"
git checkout -b escape 2>/dev/null; echo "checkout_b=$?" >>"$log.res"
git -C "$2" status 2>"$log.cross"; echo "cross=$?" >>"$log.res"
git branch --show-current >"$log.branch"
SH
	chmod +x "$T/agent.sh"
}

@test "two agents in parallel, each confined to its own branch" {
	# Provision both first so each can name the other's worktree.
	"$AG_BIN" run --agent ag1 --branch feat/one -- true 2>/dev/null
	"$AG_BIN" run --agent ag2 --branch feat/two -- true 2>/dev/null
	wt1=$AGENTIC_GIT_HOME/worktrees/ag1/feat/one
	wt2=$AGENTIC_GIT_HOME/worktrees/ag2/feat/two
	"$AG_BIN" run --agent ag1 --branch feat/one -- "$T/agent.sh" feat/two "$wt2" "$T" 2>/dev/null &
	p1=$!
	"$AG_BIN" run --agent ag2 --branch feat/two -- "$T/agent.sh" feat/one "$wt1" "$T" 2>/dev/null &
	p2=$!
	wait $p1
	wait $p2
	for a in ag1 ag2; do
		run cat "$T/$a.res"
		assert_line commit=0
		assert_line checkout=1
		assert_line checkout_q=1
		assert_line switch_main=1
		assert_line checkout_b=1
		assert_line cross=1
		run cat "$T/$a.checkout"
		assert_output --partial "cross-branch"
		run cat "$T/$a.switch"
		assert_output --partial "'main'"
		run cat "$T/$a.cross"
		assert_output --partial "DENIED"
	done
	# each commit landed on its own branch, and only there
	assert_equal "$(cat "$T/ag1.branch")" feat/one
	assert_equal "$(cat "$T/ag2.branch")" feat/two
	assert_equal "$("$REAL_GIT" log -1 --format=%s feat/one)" "work of ag1"
	assert_equal "$("$REAL_GIT" log -1 --format=%s feat/two)" "work of ag2"
	assert_equal "$("$REAL_GIT" log -1 --format=%s main)" "initial import"
	run "$REAL_GIT" show-ref --verify --quiet refs/heads/escape
	assert_failure
	assert_equal "$(branch_of "$REPO")" main
	# the deny events name each agent
	assert_equal "$(jq -r 'select(.disposition=="deny") | .agent' "$AGENTIC_GIT_HOME/fleet_events.jsonl" | sort -u | tr '\n' ' ')" "ag1 ag2 "
}

@test "an ambient AGENTIC_GIT_BYPASS=1 does not let the agent leave its branch" {
	AGENTIC_GIT_BYPASS=1 AGEND_GIT_BYPASS=1 run "$AG_BIN" run --agent ag1 --branch feat/one -- git checkout main
	assert_equal "$status" 1
	assert_output --partial "cross-branch"
	assert_equal "$(branch_of "$AGENTIC_GIT_HOME/worktrees/ag1/feat/one")" feat/one
}

@test "the agent's git is the shim, and destructive ops are snapshotted" {
	run "$AG_BIN" run --agent ag1 --branch feat/one -- \
		sh -c 'echo change >>README.md && git reset -q --hard'
	assert_success
	assert_equal "$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/ | wc -l)" 1
	run "$AG_BIN" sessions --json
	assert_equal "$(echo "$output" | jq -r '.[0].snapshots')" 1
}
