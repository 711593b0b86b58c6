#!/usr/bin/env bats
# Scriptable and visible (issue 35 point 6): progress on stderr when stdout
# is not a terminal, one line per state change, for run and dispatch;
# run --json's end record, end --json, dispatch --json-lines.
bats_require_minimum_version 1.5.0
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	cd "$REPO"
}

@test "run off a terminal says each state change on stderr, on a terminal it does not" {
	run --separate-stderr "$AG_BIN" run --agent a1 --branch feat/a -- sh -c 'echo out; exit 3'
	assert_equal "$status" 3
	assert_output "out"
	wt=$AGENTIC_GIT_HOME/worktrees/a1/feat/a
	grep -qxF "agentic-git: run: a1: session ready (new worktree $wt, branch feat/a)" <<<"$stderr"
	grep -qxF "agentic-git: run: a1: command 'sh' starting" <<<"$stderr"
	grep -qxF "agentic-git: run: a1: ended (exit 3)" <<<"$stderr"
	# the order is the order of the states
	[ "$(grep -n 'a1: session ready' <<<"$stderr" | cut -d: -f1)" -lt "$(grep -n 'a1: ended (exit 3)' <<<"$stderr" | cut -d: -f1)" ]
	run --separate-stderr "$AG_BIN" run --agent a1 --branch feat/a -- true
	grep -qF "session ready (reused worktree" <<<"$stderr"
	prereq script command -v script
	run script -qec "'$AG_BIN' run --agent a1 --branch feat/a -- true" /dev/null
	assert_success
	refute_output --partial "agentic-git: run: a1:"
}

@test "run --json ends with one JSON record, the last line of stdout" {
	run --separate-stderr "$AG_BIN" run --agent a1 --branch feat/a --json -- sh -c 'echo agent-says-hi'
	assert_success
	[ "${lines[0]}" = agent-says-hi ]
	rec=${lines[-1]}
	assert_equal "$(jq -r .record <<<"$rec")" run_end
	assert_equal "$(jq -r .agent <<<"$rec")" a1
	assert_equal "$(jq -r .branch <<<"$rec")" feat/a
	assert_equal "$(jq -r .worktree <<<"$rec")" "$AGENTIC_GIT_HOME/worktrees/a1/feat/a"
	assert_equal "$(jq -r .session <<<"$rec")" new
	assert_equal "$(jq -r .command <<<"$rec")" sh
	assert_equal "$(jq -r .exit_code <<<"$rec")" 0
	assert_equal "$(jq -r .timed_out <<<"$rec")" false
	jq -e '.duration_seconds >= 0 and (.started_at | test("^20")) and (.ended_at | test("^20"))' <<<"$rec" >/dev/null
	# --json replaces the summary on stderr
	refute_output --partial "session ended"
	! grep -q "session ended" <<<"$stderr"
	# a timeout and a re-entry
	run --separate-stderr "$AG_BIN" run --agent a1 --branch feat/a --json --timeout 1 --grace 0 -- sleep 30
	assert_equal "$status" 124
	assert_equal "$(jq -r .exit_code <<<"$output")" 124
	assert_equal "$(jq -r .timed_out <<<"$output")" true
	assert_equal "$(jq -r .session <<<"$output")" reused
	# nothing started: no record, the one-line error
	run --separate-stderr "$AG_BIN" run --agent 'bad name' --json -- true
	assert_equal "$status" 2
	assert_output ""
}

@test "end --json says what it did, or ended: false when it refuses" {
	"$AG_BIN" run --agent a1 --branch feat/a -- true 2>/dev/null
	echo wip >"$AGENTIC_GIT_HOME/worktrees/a1/feat/a/wip.txt"
	run --separate-stderr "$AG_BIN" end --agent a1 --json
	assert_equal "$status" 1
	assert_output '{"agent":"a1","ended":false}'
	grep -q "unsaved work" <<<"$stderr"
	[ -d "$AGENTIC_GIT_HOME/worktrees/a1/feat/a" ]
	run --separate-stderr "$AG_BIN" end --agent a1 --force --json
	assert_success
	assert_equal "$(jq -r .ended <<<"$output")" true
	assert_equal "$(jq -r .branch <<<"$output")" feat/a
	assert_equal "$(jq -r .forced <<<"$output")" true
	assert_equal "$(jq -r .stopped_pid <<<"$output")" null
	snap=$(jq -r .snapshot <<<"$output")
	"$REAL_GIT" rev-parse -q --verify "$snap" >/dev/null
	assert_equal "$(jq -r .get_back <<<"$output")" "cd $REPO && agentic-git run --agent a1 --branch feat/a -- <cmd>"
	[ ! -d "$AGENTIC_GIT_HOME/worktrees/a1/feat/a" ]
	run --separate-stderr "$AG_BIN" end --agent a1 --json
	assert_equal "$status" 1
	assert_output '{"agent":"a1","ended":false}'
}

@test "dispatch off a terminal: one line per state change on stderr, the result on stdout" {
	dsp_branch feat/a
	dsp_branch feat/b
	run --separate-stderr dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/escalate.sh"
	assert_success
	id=$(readlink "$AGENTIC_GIT_HOME/runs/latest")
	assert_line "run $id: $AGENTIC_GIT_HOME/runs/$id (exit 0)"
	refute_output --partial "running"
	[ "$(sed -n 1p <<<"$stderr")" = "agentic-git: dispatch: run $id: 1 target" ]
	[ "$(sed -n 2p <<<"$stderr")" = "agentic-git: dispatch: repo-feat-a: running" ]
	[ "$(sed -n 3p <<<"$stderr")" = "agentic-git: dispatch: repo-feat-a: no-change (1 of 1 done)" ]
	[ "$(sed -n 4p <<<"$stderr")" = "agentic-git: dispatch: run $id: done (exit 0)" ]
}

@test "dispatch --json-lines streams the run as it goes" {
	dsp_branch feat/a
	dsp_branch feat/b
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main}\n  - {repo: %s, head: feat/b, base: main}\n' "$REPO" "$REPO" >"$T/t.yaml"
	run --separate-stderr dispatch --json-lines --targets "$T/t.yaml" --task resolve-conflicts -- "$AGENTS/escalate.sh"
	code=$status
	# every line is one JSON object
	while IFS= read -r l; do jq -e 'type == "object"' <<<"$l" >/dev/null; done <<<"$output"
	recs=$(jq -r .record <<<"$output" | tr '\n' ' ')
	[ "${recs%% *}" = run_start ]
	[ "$(jq -r .record <<<"${lines[-1]}")" = run_end ]
	[ "$(grep -o target_start <<<"$recs" | wc -l)" -eq 2 ]
	[ "$(grep -o target_end <<<"$recs" | wc -l)" -eq 2 ]
	assert_equal "$(jq -r .targets <<<"${lines[0]}")" 2
	assert_equal "$(jq -r .exit_code <<<"${lines[-1]}")" "$code"
	assert_equal "$(jq -r .run_id <<<"${lines[-1]}")" "$(readlink "$AGENTIC_GIT_HOME/runs/latest")"
	# each target's end carries its record, as dispatch --json has it
	jq -r 'select(.record=="target_end") | .target.key' <<<"$output" | sort | tr '\n' ' ' | grep -qx 'repo-feat-a repo-feat-b '
	jq -s -e 'map(select(.record=="target_end")) | length == 2 and all(.target.status == "no-change")' <<<"$output" >/dev/null
	assert_equal "$(jq -r 'select(.record=="target_end") | .done' <<<"$output" | sort | tr '\n' ' ')" "1 2 "
	# a target ends after it starts
	for k in repo-feat-a repo-feat-b; do
		s=$(grep -n "\"target_start\",\"key\":\"$k\"" <<<"$output" | cut -d: -f1)
		e=$(grep -n "\"record\":\"target_end\",\"target\":{\"key\":\"$k\"" <<<"$output" | cut -d: -f1)
		[ "$s" -lt "$e" ]
	done
}

@test "dispatch --json-lines goes with neither --json nor --dry-run" {
	dsp_branch feat/a
	run dispatch --json-lines --json --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/escalate.sh"
	assert_equal "$status" 1
	assert_output "agentic-git: --json-lines goes with neither --json nor --dry-run"
	run dispatch --json-lines --dry-run --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/escalate.sh"
	assert_equal "$status" 1
	[ ! -e "$AGENTIC_GIT_HOME/runs" ]
}

@test "events --help lists the event names --event takes, by disposition" {
	run "$AG_BIN" events --help
	assert_success
	names=$(sed -n '/^Events (--event/,$p' <<<"$output" | tail -n +2 |
		sed 's/^ *[a-z]*://' | tr ' ' '\n' | grep -E '^[a-z_]+$')
	[ "$(wc -l <<<"$names")" -ge 20 ]
	for d in deny warn info; do
		grep -qE "^  $d: " <<<"$output" || fail "no '$d:' line"
	done
	# each listed name is one --event takes
	for n in $names; do
		run "$AG_BIN" events --event "$n"
		assert_success
	done
	# and every event a session writes is listed
	"$AG_BIN" run --agent a1 --branch feat/a -- sh -c 'git checkout main; echo x >x; git add x; git commit -qm x; git reset -q --hard HEAD~1; true' 2>/dev/null
	for n in $(jq -r .event "$AGENTIC_GIT_HOME/fleet_events.jsonl" | sort -u); do
		grep -qxF "$n" <<<"$names" || fail "event '$n' is written but not listed"
	done
	run "$AG_BIN" events --event no_such_event
	assert_equal "$status" 2
}
