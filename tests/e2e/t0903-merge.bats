#!/usr/bin/env bats
# agentic-git merge (PRODUCT.md §13; invariants in src/cmd/merge.c).
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/loop-home
	cd "$REPO"
	RUN_PID=
}

teardown() {
	[ -n "$RUN_PID" ] && { touch "$T/go"; wait "$RUN_PID" || true; }
	true
}

session() { # AGENT SCRIPT: a session on agent/AGENT
	"$AG_BIN" run --agent "$1" --branch "agent/$1" -- sh -c "$2" 2>/dev/null
}

# What a refused merge must leave as it was.
world() {
	"$REAL_GIT" rev-parse main HEAD
	"$REAL_GIT" status --porcelain
	ls "$AGENTIC_GIT_HOME/runtime"
	ls "$("$REAL_GIT" rev-parse --git-dir)"
}

@test "merge: --help, and bad usage" {
	run "$AG_BIN" merge --help
	assert_success
	assert_output --partial "usage: agentic-git merge --agent NAME [--rebase|--squash] [--keep]"
	run "$AG_BIN" merge
	assert_equal "$status" 2
	run "$AG_BIN" merge --agent x --rebase --squash
	assert_equal "$status" 2
	assert_output --partial "give --rebase or --squash, not both"
	run "$AG_BIN" merge --agent nobody
	assert_equal "$status" 1
	assert_output --partial "no session for agent 'nobody'"
}

@test "merge: a merge commit on the base, the session ended without --force, the branch kept" {
	session m1 'echo one >one.txt && git add one.txt && git commit -qm one'
	tip=$("$REAL_GIT" rev-parse agent/m1)
	run "$AG_BIN" merge --agent m1
	assert_success
	assert_output --partial "merged session 'm1' (merge): branch 'agent/m1' into 'main'"
	assert_output --partial "ended session 'm1'"
	assert_equal "$("$REAL_GIT" rev-parse main^2)" "$tip"
	assert_equal "$(cat one.txt)" one
	[ ! -e "$AGENTIC_GIT_HOME/runtime/m1" ]
	assert_equal "$("$REAL_GIT" rev-parse agent/m1)" "$tip"
	run "$AG_BIN" events --event session_merged --json
	assert_equal "$(jq -r .mode <<<"$output")" merge
	assert_equal "$(jq -r .new <<<"$output")" "$("$REAL_GIT" rev-parse main)"
}

@test "merge --squash: one commit with the changes; the session ends" {
	session s1 'echo a >a.txt && git add a.txt && git commit -qm a && echo b >b.txt && git add b.txt && git commit -qm b'
	before=$("$REAL_GIT" rev-parse main)
	run "$AG_BIN" merge --agent s1 --squash
	assert_success
	assert_equal "$("$REAL_GIT" rev-parse main~1)" "$before"
	assert_equal "$("$REAL_GIT" rev-list --parents -1 main | wc -w)" 2
	[ -f a.txt ] && [ -f b.txt ]
	[ ! -e "$AGENTIC_GIT_HOME/runtime/s1" ]
}

@test "merge --rebase: the commits replayed linearly on the base; the session ends" {
	session r1 'echo a >a.txt && git add a.txt && git commit -qm ra && echo b >b.txt && git add b.txt && git commit -qm rb'
	echo base >base.txt && "$REAL_GIT" add base.txt && "$REAL_GIT" commit -qm "base moved"
	run "$AG_BIN" merge --agent r1 --rebase
	assert_success
	assert_equal "$("$REAL_GIT" log --format=%s -3 main | tr '\n' ' ')" "rb ra base moved "
	assert_equal "$("$REAL_GIT" rev-list --merges main | wc -l)" 0
	[ ! -e "$AGENTIC_GIT_HOME/runtime/r1" ]
}

@test "merge --keep: merged, the session stays" {
	session k1 'echo k >k.txt && git add k.txt && git commit -qm k'
	run "$AG_BIN" merge --agent k1 --keep
	assert_success
	assert_output --partial "kept:      the session (--keep)"
	[ -d "$AGENTIC_GIT_HOME/runtime/k1" ]
	[ -f k.txt ]
}

@test "merge refuses, changing nothing: a dirty checkout, another branch" {
	session d1 'echo d >d.txt && git add d.txt && git commit -qm d'
	echo local >>README.md
	before=$(world)
	run "$AG_BIN" merge --agent d1
	assert_equal "$status" 1
	assert_output --partial "has uncommitted changes; commit or stash them first; nothing was changed"
	assert_equal "$(world)" "$before"
	"$REAL_GIT" checkout -q -- README.md
	"$REAL_GIT" switch -q -c other
	before=$(world)
	run "$AG_BIN" merge --agent d1 --squash
	assert_equal "$status" 1
	assert_output --partial "is on branch other, not on the session's base 'main'"
	assert_equal "$(world)" "$before"
}

@test "merge refuses a conflict, naming the files, changing nothing (all modes)" {
	session c1 'echo agent >README.md && git commit -qam agent'
	echo operator >README.md && "$REAL_GIT" commit -qam operator
	before=$(world)
	for mode in "" --squash --rebase; do
		run "$AG_BIN" merge --agent c1 $mode
		assert_equal "$status" 1
		assert_output --partial "conflicts in: README.md"
		assert_equal "$(world)" "$before"
	done
	[ -d "$AGENTIC_GIT_HOME/runtime/c1" ]
}

@test "merge refuses uncommitted work in the session, and a running agent" {
	session u1 'echo u >u.txt && git add u.txt && git commit -qm u && echo wip >wip.txt'
	before=$(world)
	run "$AG_BIN" merge --agent u1
	assert_equal "$status" 1
	assert_output --partial "has uncommitted work in"
	assert_equal "$(world)" "$before"
	"$AG_BIN" run --agent u2 --branch agent/u2 -- sh -c \
		'echo x >x.txt && git add x.txt && git commit -qm x && while [ ! -e "$1" ]; do sleep 0.1; done' \
		sh "$T/go" >/dev/null 2>&1 3>&- &
	RUN_PID=$!
	for _ in $(seq 300); do
		[ "$("$AG_BIN" sessions --json | jq -r '.[] | select(.agent=="u2") | .running')" = true ] &&
			"$REAL_GIT" rev-parse -q --verify agent/u2~1 >/dev/null && break
		sleep 0.1
	done
	before=$(world)
	run "$AG_BIN" merge --agent u2
	assert_equal "$status" 1
	assert_output --partial "agent 'u2' is still running in its session"
	assert_equal "$(world)" "$before"
}

@test "merge --rebase: a replay that conflicts although the merge would not is aborted, nothing changed" {
	# the branch changes a line and changes it back: merging is clean,
	# replaying its first commit on the moved base is not
	session a1 'echo agent >README.md && git commit -qam there && echo hello >README.md && git commit -qam back'
	echo operator >README.md && "$REAL_GIT" commit -qam operator
	before=$(world)
	run "$AG_BIN" merge --agent a1 --rebase
	assert_equal "$status" 1
	assert_output --partial "git cherry-pick failed and was aborted"
	assert_equal "$(world)" "$before"
	[ -d "$AGENTIC_GIT_HOME/runtime/a1" ]
}
