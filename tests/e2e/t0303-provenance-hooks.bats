#!/usr/bin/env bats
# Issue 3, acceptance 4: trailers exactly once per commit (amend included),
# none from a forged binding; every ref move of a session shows up in
# `events`. The hooks run through the installed sh stubs.
load lib

setup() {
	ag_setup
	"$TEST_TOOL" hooks-install "$AGENTIC_GIT_HOME/hooks" "$AG_BIN"
	"$REAL_GIT" -C "$REPO" config core.hooksPath "$AGENTIC_GIT_HOME/hooks"
	ag_bind ag1 feat/one
	cd "$WT"
}

trailer_count() { # KEY [REV]
	"$REAL_GIT" log -1 --format=%B "${2:-HEAD}" | grep -c "^$1: " || true
}

@test "the installed hooks are tiny stubs that exec the binary" {
	local f
	for f in prepare-commit-msg reference-transaction; do
		[ -x "$AGENTIC_GIT_HOME/hooks/$f" ]
		# the home the hooks find sessions in is where they are installed
		assert_equal "$(cat "$AGENTIC_GIT_HOME/hooks/$f")" "#!/bin/sh
exec '$AG_BIN' hook --home '$AGENTIC_GIT_HOME' $f \"\$@\""
	done
	run "$TEST_TOOL" hooks-install "$T/h2" relative/path
	assert_failure
}

@test "a session commit gets the trailers exactly once, --amend included" {
	echo "a" >a.txt
	agit add a.txt
	run agit commit -q -m "feat: a"
	assert_success
	assert_equal "$(trailer_count Agentic-Agent)" 1
	run "$REAL_GIT" log -1 --format=%B
	assert_output "feat: a

Agentic-Agent: ag1
Agentic-Task: task-1
Agentic-Branch: feat/one
Agentic-Issued-At: 2026-11-29T21:07:02.301397292+00:00"
	agit commit -q --amend --no-edit
	assert_equal "$(trailer_count Agentic-Agent)" 1
	agit commit -q --amend -m "feat: a, reworded" -m "Signed-off-by: T <t@x>"
	assert_equal "$(trailer_count Agentic-Agent)" 1
	assert_equal "$(trailer_count Agentic-Task)" 1
	assert_equal "$(trailer_count Signed-off-by)" 1
}

@test "a forged binding adds no trailers" {
	printf ' ' >>"$AGENTIC_GIT_HOME/runtime/ag1/binding.json"
	echo "b" >b.txt
	AGENTIC_GIT_BYPASS=1 agit add b.txt
	run env AGENTIC_GIT_BYPASS=1 PATH="$AGENTIC_GIT_HOME/bin:$PATH" git commit -q -m "feat: b"
	assert_success
	assert_output --partial "not trusted"
	assert_equal "$(trailer_count Agentic-Agent)" 0
	run "$REAL_GIT" log -1 --format=%B
	assert_output "feat: b"
}

@test "no binding, no agent, or a merge: no trailers and exit 0" {
	echo "m" >m.txt
	run "$AG_BIN" hook prepare-commit-msg m.txt message
	assert_success
	unset AGENTIC_GIT_AGENT
	printf 'msg\n' >msg
	run "$AG_BIN" hook prepare-commit-msg msg message
	assert_success
	assert_equal "$(cat msg)" "msg"
	AGENTIC_GIT_AGENT=ag1 run "$AG_BIN" hook prepare-commit-msg msg merge
	assert_success
	assert_equal "$(cat msg)" "msg"
	AGENTIC_GIT_AGENT=nobody run "$AG_BIN" hook prepare-commit-msg msg
	assert_equal "$(cat msg)" "msg"
	AGENTIC_GIT_AGENT=ag1 run "$AG_BIN" hook prepare-commit-msg "$T/missing"
	assert_success
	run "$AG_BIN" hook no-such-hook
	assert_success
}

ref_events() { # jq filter on ref_update events -> "sub ref" lines
	jq -r 'select(.event == "ref_update") | "\(.subcommand) \(.agent) \(.ref)"' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
}

@test "every ref move of a session is journaled: commit, branch, reset, rebase" {
	local c1 c2
	echo "1" >one.txt
	agit add one.txt
	agit commit -q -m one
	c1=$("$REAL_GIT" rev-parse HEAD)
	run jq -c "select(.event == \"ref_update\" and .ref == \"refs/heads/feat/one\" and .new == \"$c1\")" \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output --partial '"agent":"ag1"'
	assert_output --partial '"subcommand":"commit"'
	assert_output --partial "\"worktree\":\"$WT\""
	assert_output --partial '"disposition":"info"'
	AGENTIC_GIT_BYPASS=1 agit branch side
	echo "2" >two.txt
	agit add two.txt
	agit commit -q -m two
	c2=$("$REAL_GIT" rev-parse HEAD)
	agit reset -q --hard "$c1"
	(cd "$REPO" && echo up >up.txt && "$REAL_GIT" add up.txt && "$REAL_GIT" commit -q -m up)
	agit rebase -q main
	run ref_events
	assert_line "commit ag1 refs/heads/feat/one"
	assert_line "branch ag1 refs/heads/side"
	assert_line "reset ag1 refs/heads/feat/one"
	assert_line "rebase ag1 refs/heads/feat/one"
	run "$AG_BIN" events --agent ag1 --event ref_update
	assert_success
	assert_output --partial "refs/heads/feat/one"
	assert_output --partial "${c2:0:10}"
}

@test "reference-transaction: only committed states are journaled; bad input is ignored" {
	printf '%s %s refs/heads/x\n' 0000 1111 | "$AG_BIN" hook reference-transaction prepared
	printf 'garbage\n\n%s %s refs/heads/y\n' 0000 1111 |
		GIT_WORK_TREE=/some/wt "$AG_BIN" hook reference-transaction committed
	run ref_events
	refute_output --partial "refs/heads/x"
	assert_output --partial "refs/heads/y"
	run jq -r 'select(.ref == "refs/heads/y") | .worktree' "$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output "/some/wt"
}
