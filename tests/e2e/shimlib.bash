# SPDX-License-Identifier: Apache-2.0
# Helpers shared by the shim end-to-end tests (t0100–t0299), on top of lib.bash.

bats_require_minimum_version 1.5.0

# The word the deny prose must never use (reference §4.1).
refute_security() {
	if printf '%s' "$output" | grep -qi 'security'; then
		fail "deny text mentions 'security': $output"
	fi
}

# assert_denied [bound|unbound]: exit 1 and the standard deny block of
# reference §4.1 with the right remedy, the three bypass options, and no
# "security".
assert_denied() {
	local who=${1:-bound}
	assert_equal "$status" 1
	assert_output --partial "agentic-git: ERROR git "
	assert_output --partial " denied"
	assert_output --partial "reason: "
	assert_output --partial "bypass with one of"
	assert_output --partial "AGENTIC_GIT_BYPASS=1"
	assert_output --partial "AGENTIC_GIT_BYPASS_AGENT="
	assert_output --partial "AGENTIC_GIT_BYPASS_UNTIL="
	assert_output --partial "Unix seconds"
	if [ "$who" = bound ]; then
		assert_output --partial "your assigned worktree is $WT"
		assert_output --partial "no bypass needed"
	else
		assert_output --partial "agentic-git run"
		assert_output --partial "orchestrator"
		refute_output --partial "no bypass needed"
	fi
	refute_security
}

# assert_not_denied: the shim let the command through (git's own status may
# still be non-zero).
assert_not_denied() {
	refute_output --partial "agentic-git: ERROR"
	refute_output --partial "DENIED"
}

# event_count: number of fleet_events.jsonl records.
event_count() {
	events | grep -c . || true
}

# assert_events N: exactly N records so far.
assert_events() {
	assert_equal "$(event_count)" "$1"
}

# assert_last_event EVENT SUBCOMMAND [DISPOSITION]: the newest EVENT record has the
# six envelope fields with these values, agent = $AGENTIC_GIT_AGENT.
assert_last_event() {
	local ev=$1 sub=$2 disp=${3:-deny} rec got
	rec=$(events | jq -c --arg ev "$ev" 'select(.event == $ev)' | tail -n 1)
	[ -n "$rec" ] || fail "no $ev event recorded; log: $(events)"
	got=$(jq -r '[.kind, .event, .disposition, .agent, .subcommand,
		    (.timestamp | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{9}\\+00:00$") | tostring)]
		   | join("|")' <<<"$rec") || fail "event is not JSON: $rec"
	assert_equal "$got" "git_event|$ev|$disp|$AGENTIC_GIT_AGENT|$sub|true"
}

# commit_file DIR PATH [CONTENT]: add and commit a file with real git.
commit_file() {
	local dir=$1 path=$2 content=${3:-content of $2}
	mkdir -p "$(dirname "$dir/$path")"
	printf '%s\n' "$content" >"$dir/$path"
	"$REAL_GIT" -C "$dir" add -- "$path"
	"$REAL_GIT" -C "$dir" commit -q -m "add $path"
}

# origin_sha BRANCH: the commit the bare origin has for BRANCH (empty if none).
origin_sha() {
	"$REAL_GIT" -C "$ORIGIN" rev-parse -q --verify "refs/heads/$1" || true
}

# assert_no_deny_events: nothing with disposition deny was recorded (snapshot
# records of destructive ops are not this suite's business).
assert_no_deny_events() {
	local n
	n=$(events | jq -s '[.[] | select(.disposition == "deny")] | length')
	assert_equal "$n" 0
}

# count_of EVENT: number of records with that event name.
count_of() {
	events | jq -s --arg ev "$1" '[.[] | select(.event == $ev)] | length'
}

# push_fixture: a real bare origin with main and other; agent ag1 bound to
# feat/a with one commit (WT_HEAD); ORIGIN_REFS records origin's refs; the
# worktree is the current directory (t0150, t0151).
push_fixture() {
	"$REAL_GIT" -C "$REPO" branch other
	"$REAL_GIT" -C "$REPO" push -q origin other
	ag_bind ag1 feat/a
	commit_file "$WT" work.txt
	WT_HEAD=$(head_of "$WT")
	ORIGIN_REFS=$("$REAL_GIT" -C "$ORIGIN" for-each-ref)
	cd "$WT"
}

origin_unchanged() {
	assert_equal "$("$REAL_GIT" -C "$ORIGIN" for-each-ref)" "$ORIGIN_REFS"
}

# assert_push_denied EVENT: denied with that event, origin untouched.
assert_push_denied() {
	assert_denied bound
	assert_output --partial "ERROR git push denied"
	assert_last_event "$1" push
	origin_unchanged
}
