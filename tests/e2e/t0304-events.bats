#!/usr/bin/env bats
# The audit log: concurrent writers never tear a line; `agentic-git events`
# filters, follows and survives bad lines.
load lib

setup() {
	ag_setup
	LOG=$AGENTIC_GIT_HOME/fleet_events.jsonl
}

@test "8 concurrent writers x 200 events: every line whole, count exact" {
	local i pids=()
	for i in 1 2 3 4 5 6 7 8; do
		"$TEST_TOOL" event-stress "$AGENTIC_GIT_HOME" 200 "w$i" &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i"; done
	assert_equal "$(wc -l <"$LOG")" 1600
	# every line parses on its own
	run jq -c . "$LOG"
	assert_success
	assert_equal "$(jq -s length "$LOG")" 1600
	# each writer's 200 events, each exactly once
	for i in 1 2 3 4 5 6 7 8; do
		assert_equal "$(jq -r "select(.agent == \"w$i\") | .seq" "$LOG" | sort -n | uniq | wc -l)" 200
	done
}

write_fixture() {
	cat >"$LOG" <<'JSONL'
{"kind":"git_event","event":"deny","disposition":"deny","agent":"ag1","subcommand":"checkout","timestamp":"2020-01-01T21:00:00.000000000+00:00","reason":"cross-branch"}
{"kind":"git_event","event":"snapshot_failed","disposition":"warn","agent":"ag2","subcommand":"reset","timestamp":"2020-01-01T22:00:00.000000000+00:00","reason":"disk full"}
this is not json
{"kind":"git_event","event":"ref_update","disposition":"info","agent":"ag1","subcommand":"commit","timestamp":"2020-01-01T23:00:00.000000000+00:00","ref":"refs/heads/feat/one","old":"0000000000","new":"1111111111"}
[1,2,3]
JSONL
}

@test "events: a table by default, JSON lines with --json" {
	write_fixture
	run "$AG_BIN" events
	assert_success
	assert_line --regexp '^TIME +EVENT +DISP +AGENT +SUBCOMMAND +DETAIL'
	assert_output --partial "deny"
	assert_output --partial "cross-branch"
	assert_output --partial "refs/heads/feat/one 0000000000 -> 1111111111"
	# the bad lines are reported once, then skipped
	assert_equal "$(echo "$output" | grep -c 'skipping malformed line')" 1
	assert_output --partial "malformed line 3"
	run "$AG_BIN" events --json
	assert_success
	assert_equal "$(echo "$output" | grep -v 'malformed' | jq -s length)" 3
}

@test "events: filters by agent, event, disposition and time" {
	write_fixture
	run sh -c "'$AG_BIN' events --json --agent ag1 2>/dev/null | jq -r .event | tr '\n' ' '"
	assert_output "deny ref_update "
	run sh -c "'$AG_BIN' events --json --event snapshot_failed,ref_update 2>/dev/null | jq -r .agent | tr '\n' ' '"
	assert_output "ag2 ag1 "
	run sh -c "'$AG_BIN' events --json --disposition warn 2>/dev/null | jq -r .event"
	assert_output "snapshot_failed"
	run sh -c "'$AG_BIN' events --json --since 2020-01-01T21:30:00Z --until 2020-01-01T22:30:00+00:00 2>/dev/null | jq -r .event"
	assert_output "snapshot_failed"
	run sh -c "'$AG_BIN' events --json --since 1h 2>/dev/null"
	assert_output ""
	run "$AG_BIN" events --agent nobody
	assert_success
	assert_output --partial "(no events)"
}

@test "events: bad options and a missing home are clear errors" {
	run "$AG_BIN" events --since yesterday
	assert_equal "$status" 2
	assert_output --partial "--since 'yesterday' is neither RFC 3339 nor an age"
	run "$AG_BIN" events --until
	assert_equal "$status" 2
	run "$AG_BIN" events --frob
	assert_equal "$status" 2
	assert_output --partial "unknown option '--frob'"
	# no AGENTIC_GIT_HOME: the home is ~/.agentic-git, as for run
	mkdir -p "$HOME/.agentic-git"
	printf '%s\n' '{"ts":"2026-01-01T00:00:00.000000000Z","event":"deny","agent":"dflt","subcommand":"checkout"}' >"$HOME/.agentic-git/fleet_events.jsonl"
	AGENTIC_GIT_HOME= AGEND_HOME= run "$AG_BIN" events --agent dflt --json
	assert_success
	assert_output --partial '"agent":"dflt"'
	# and no HOME either: one clear line
	AGENTIC_GIT_HOME= AGEND_HOME= HOME= run "$AG_BIN" events
	assert_equal "$status" 1
	assert_output --partial "cannot find the home: set AGENTIC_GIT_HOME or HOME"
	run "$AG_BIN" events
	assert_success
	assert_output "(no events)"
}

@test "events: an oversized line is skipped, the rest still read" {
	{
		printf '{"event":"big","pad":"'
		head -c 2100000 /dev/zero | tr '\0' 'a'
		printf '"}\n'
		echo '{"event":"after","agent":"z"}'
	} >"$LOG"
	run sh -c "'$AG_BIN' events --json 2>/dev/null | jq -r .event"
	assert_success
	assert_output "after"
}

@test "events --follow prints events appended later" {
	echo '{"event":"before","agent":"a"}' >"$LOG"
	timeout 4 "$AG_BIN" events --follow --json >"$T/follow.out" 2>&1 &
	local pid=$!
	sleep 1
	"$TEST_TOOL" event-stress "$AGENTIC_GIT_HOME" 3 follower
	printf '{"event":"partial",' >>"$LOG"
	sleep 0.5
	printf '"agent":"p"}\n' >>"$LOG"
	wait "$pid" || true
	run jq -r .event "$T/follow.out"
	assert_output "before
ref_update
ref_update
ref_update
partial"
}
