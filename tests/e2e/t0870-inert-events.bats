#!/usr/bin/env bats
# Issue 32 point 4 (W7): `events` prints what an agent wrote (its git
# argv in a deny record, any field of a record the sandbox's spool
# imported) inert: no raw ESC/BEL/CR/bidi on the operator's terminal, the
# escaped form instead; `--json` keeps the exact record.
load lib
load inert

setup() {
	ag_setup
	ag_bind ag1 feat/a
	cd "$WT"
}

@test "an agent's argv in a deny: the shim's message and events are inert, --json exact" {
	run agit checkout "other$HOSTILE"
	assert_failure
	assert_shows "$output" "the shim's deny message"
	run "$AG_BIN" events
	assert_success
	assert_shows "$output" "events"
	run "$AG_BIN" events --json
	assert_success
	# the exact bytes, with JSON's own escaping
	[[ "$(jq -r .reason <<<"$output")" == *"other$HOSTILE"* ]]
}

@test "every field of a spooled record is inert in the table, exact in --json" {
	local rec
	# what the sandbox's spool may carry into the log: fields the agent set
	rec=$(jq -cn --arg h "$HOSTILE" '{kind:"event", event:("deny_" + $h),
		disposition:("d" + $h), agent:("ag" + $h), subcommand:("s" + $h),
		timestamp:"2026-12-01T00:00:00Z", reason:("why " + $h)}')
	printf '%s\n' "$rec" >>"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	run "$AG_BIN" events
	assert_success
	assert_shows "$output" "events"
	# every column: event, disposition, agent, subcommand, detail
	for col in "deny_$HOSTILE_SHOWN" "d$HOSTILE_SHOWN" "ag$HOSTILE_SHOWN" \
		"s$HOSTILE_SHOWN" "why $HOSTILE_SHOWN"; do
		assert_output --partial "$col"
	done
	run "$AG_BIN" events --json
	assert_success
	assert_equal "$output" "$rec"
}

@test "a backslash in a record prints doubled: an escape cannot be forged" {
	local rec
	rec=$(jq -cn '{kind:"event", event:"deny", disposition:"deny",
		agent:"ag1", subcommand:"checkout",
		timestamp:"2026-12-01T00:00:00Z", reason:"looks like \\x1b"}')
	printf '%s\n' "$rec" >>"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	run "$AG_BIN" events
	assert_success
	assert_output --partial 'looks like \\x1b'
}
