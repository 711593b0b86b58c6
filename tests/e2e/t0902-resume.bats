#!/usr/bin/env bats
# Resume (run --agent --branch EXISTING, PRODUCT.md §6) and what `end`
# counts as saved.
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/loop-home
	cd "$REPO"
}

session() { # AGENT BRANCH SCRIPT
	"$AG_BIN" run --agent "$1" --branch "$2" -- sh -c "$3" 2>/dev/null
}

@test "resume: an ended session's branch is adopted at its tip, and end's hint is that command" {
	session r1 feat/a 'echo one >one.txt && git add one.txt && git commit -qm one'
	tip=$("$REAL_GIT" rev-parse feat/a)
	run "$AG_BIN" end --agent r1 --force
	assert_success
	assert_output --partial "get back:  cd $REPO && agentic-git run --agent r1 --branch feat/a -- <cmd>"
	wt=$AGENTIC_GIT_HOME/worktrees/r1/feat/a
	[ ! -e "$wt" ]
	run "$AG_BIN" run --agent r1 --branch feat/a -- sh -c 'git rev-parse HEAD && echo two >two.txt && git add two.txt && git commit -qm two'
	assert_success
	assert_line "$tip" # off a terminal stderr has progress lines too
	assert_equal "$("$REAL_GIT" rev-parse feat/a~1)" "$tip"
	assert_equal "$("$REAL_GIT" log -1 --format=%s feat/a)" two
	assert_equal "$("$REAL_GIT" -C "$wt" rev-parse --abbrev-ref HEAD)" feat/a
}

@test "resume: a branch the operator made is adopted too" {
	"$REAL_GIT" branch feat/op
	run "$AG_BIN" run --agent r2 --branch feat/op -- git rev-parse --abbrev-ref HEAD
	assert_success
	assert_line feat/op
}

@test "resume: a branch another live session holds is refused, nothing created" {
	session a1 feat/held 'true'
	run "$AG_BIN" run --agent b1 --branch feat/held -- true
	assert_equal "$status" 1
	assert_output --partial "branch 'feat/held' is held by the live session of agent 'a1'"
	[ ! -e "$AGENTIC_GIT_HOME/runtime/b1" ]
	[ ! -e "$AGENTIC_GIT_HOME/worktrees/b1" ]
	assert_equal "$("$REAL_GIT" worktree list | wc -l)" 2
}

@test "resume: the branch another agent's ended session left stays that agent's" {
	session a1 feat/left 'echo x >x && git add x && git commit -qm x'
	"$AG_BIN" end --agent a1 --force >/dev/null
	run "$AG_BIN" run --agent b1 --branch feat/left -- true
	assert_equal "$status" 1
	assert_output --partial "was left by agent 'a1' and stays that agent's; resume it with --agent a1"
	[ ! -e "$AGENTIC_GIT_HOME/runtime/b1" ]
}

@test "end: commits already in the base are saved work (merged by hand)" {
	session m1 feat/m 'echo m >m.txt && git add m.txt && git commit -qm m'
	run "$AG_BIN" end --agent m1
	assert_equal "$status" 1
	"$REAL_GIT" merge -q --no-ff --no-edit feat/m
	run "$AG_BIN" end --agent m1
	assert_success
	assert_output --partial "ended session 'm1'"
}

@test "end: commits in a protected branch are saved work" {
	session m2 feat/p 'echo p >p.txt && git add p.txt && git commit -qm p'
	"$REAL_GIT" branch master feat/p
	run "$AG_BIN" end --agent m2
	assert_success
}
