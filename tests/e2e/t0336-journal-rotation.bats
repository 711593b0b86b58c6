#!/usr/bin/env bats
# Issue 37 point 3: the audit log rotates by size (config.yaml journal:),
# `events` reads across the rotations in order, and `events --since` does
# not open a rotated log entirely older than its bound
# (base/eventlog-rotate.h).
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/sess-home
	cd "$REPO"
	mkdir -p "$AGENTIC_GIT_HOME"
	printf 'journal:\n  max_mib: 1\n  keep: 2\n' >"$AGENTIC_GIT_HOME/config.yaml"
	# an operator's command writes the limits where the writers read them
	"$AG_BIN" run --agent a1 --branch feat/a -- true 2>/dev/null
	WT=$AGENTIC_GIT_HOME/worktrees/a1/feat/a
	LOG=$AGENTIC_GIT_HOME/fleet_events.jsonl
}

# prefill: replace the log with records of 2020, 100 bytes short of 1 MiB
# (the next record written crosses the limit).
prefill() {
	rm -f "$LOG" "$LOG.marks"
	awk 'BEGIN { line = "{\"kind\":\"git_event\",\"event\":\"ref_update\",\"disposition\":\"info\",\"agent\":\"old1\",\"subcommand\":\"commit\",\"timestamp\":\"2020-01-01T00:00:00.000000000+00:00\",\"n\":\"";
		size = 0; want = 1048576 - 100; i = 0;
		while (size + 300 < want) { l = line sprintf("%08d", i++) "\"}"; print l; size += length(l) + 1 }
		pad = want - size - length(line) - 3; s = ""; for (k = 0; k < pad; k++) s = s "x";
		print line s "\"}" }' >"$LOG"
	[ "$(stat -c %s "$LOG")" -eq $((1048576 - 100)) ]
}

# deny N: N denied checkouts by agent a1 (one deny record each)
deny() {
	local i
	for i in $(seq 1 "$1"); do
		(cd "$WT" && AGENTIC_GIT_AGENT=a1 "$AGENTIC_GIT_HOME/bin/git" checkout main >/dev/null 2>&1) || true
	done
}

rotated() {
	ls "$AGENTIC_GIT_HOME" | grep -E '^fleet_events\.jsonl\.[0-9]{8}T[0-9]{6}Z(-[0-9]{2})?$' || true
}

@test "t0336: the log rotates at its limit; events reads across the rotation, with --since and without" {
	prefill
	old=$(wc -l <"$LOG")
	deny 3
	[ "$(rotated | wc -l)" -eq 1 ]
	r=$AGENTIC_GIT_HOME/$(rotated)
	# the record that crossed the limit is the rotated log's last
	[ "$(wc -l <"$r")" -eq $((old + 1)) ]
	[ "$(wc -l <"$LOG")" -eq 2 ]
	run "$AG_BIN" events --json
	assert_success
	[ "$(echo "$output" | wc -l)" -eq $((old + 3)) ]
	# in order: the old records first, the three denies last
	[ "$(echo "$output" | head -n1 | jq -r .agent)" = old1 ]
	[ "$(echo "$output" | tail -n3 | jq -r .event | sort -u)" = deny ]
	run "$AG_BIN" events --since 1h --json
	assert_success
	[ "$(echo "$output" | wc -l)" -eq 3 ]
	[ "$(echo "$output" | jq -r .event | sort -u)" = deny ]
}

@test "t0336: events --since does not read a rotated log older than its bound" {
	prefill
	deny 2
	# as if it had been rotated in 2020: its name bounds its records
	r=$AGENTIC_GIT_HOME/fleet_events.jsonl.20200101T000000Z
	mv "$AGENTIC_GIT_HOME/$(rotated)" "$r"
	# a line no reader can parse: whoever reads it says so
	echo 'not json' >>"$r"
	run "$AG_BIN" events --since 1h
	assert_success
	refute_output --partial "malformed"
	assert_output --partial "deny"
	run "$AG_BIN" events
	assert_success
	assert_output --partial "skipping malformed line"
	assert_output --partial "of fleet_events.jsonl.20200101T000000Z"
}

@test "t0336: only journal.keep rotated logs are kept, the oldest go" {
	for n in 1 2 3; do
		prefill
		deny 1
	done
	[ "$(rotated | wc -l)" -eq 2 ]
	run "$AG_BIN" events --json
	assert_success
	[ "$(echo "$output" | jq -r 'select(.event == "deny") | .event' | wc -l)" -eq 2 ]
}

@test "t0336: concurrent writers across a rotation lose and tear no record" {
	prefill
	old=$(wc -l <"$LOG")
	for w in 1 2 3 4; do
		deny 25 &
	done
	wait
	[ "$(rotated | wc -l)" -eq 1 ]
	run "$AG_BIN" events --json
	assert_success
	[ "$(echo "$output" | jq -r 'select(.event == "deny") | .agent' | wc -l)" -eq 100 ]
	[ "$(echo "$output" | wc -l)" -eq $((old + 100)) ]
}

@test "t0336: journal: limits that do not parse are an error of the config" {
	printf 'journal:\n  max_mib: 0\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" run --agent a2 --branch feat/a2 -- true
	assert_output --partial "journal.max_mib"
	printf 'journal:\n  rotate: yes\n' >"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" run --agent a3 --branch feat/a3 -- true
	assert_output --partial "unknown key 'rotate'"
}
