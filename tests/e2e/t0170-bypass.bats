#!/usr/bin/env bats
# Bypass (PRODUCT.md §4): only AGENTIC_GIT_BYPASS=1, a matching
# BYPASS_AGENT or a future BYPASS_UNTIL bypass; every bypassed mutating op is
# audited; canonical provisioning stays denied without ALLOW_CANONICAL_MUTATE.
load lib
load shimlib

setup() {
	ag_setup
	"$REAL_GIT" -C "$REPO" branch other
	ag_bind ag1 feat/a
	cd "$WT"
}

# a command the policy denies for a bound agent: create the protected
# branch master
try_delete_other() {
	run agit -C "$WT" branch -f master HEAD
}

# the probe did not happen
probe_not_done() {
	! "$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/heads/master >/dev/null
}

@test "without a bypass the probe command is denied (control)" {
	run agit branch -D main
	assert_denied bound
	run agit -C "$REPO" checkout other
	assert_denied bound
}

@test "AGENTIC_GIT_BYPASS=1 passes and audits with the normalised subcommand" {
	AGENTIC_GIT_BYPASS=1 try_delete_other
	assert_success
	! probe_not_done
	assert_output --partial "AGENTIC_GIT_BYPASS"
	assert_output --partial "audited"
	assert_events 1
	assert_last_event bypass_mutating_op branch warn
	run jq -r '.bypass_layer, (.argv | join(" ")), (.ppid | type), .cwd' <<<"$(events)"
	assert_line --index 0 env
	assert_line --index 1 "-C $WT branch -f master HEAD"
	assert_line --index 2 number
	assert_line --index 3 "$WT"
}

@test "a bypassed read-only command is not audited" {
	AGENTIC_GIT_BYPASS=1 run agit -C "$REPO" log -1
	assert_success
	AGENTIC_GIT_BYPASS=1 run agit status
	assert_success
	assert_events 0
}

@test "AGENTIC_GIT_BYPASS=0, empty, yes, true, ' 1' do not bypass" {
	local v
	for v in 0 "" yes true " 1" "1 " 2; do
		AGENTIC_GIT_BYPASS=$v try_delete_other
		assert_denied bound
		probe_not_done
	done
	run jq -r '.event' <<<"$(events)"
	refute_output --partial bypass_mutating_op
}

@test "legacy AGEND_GIT_BYPASS=1 bypasses; the primary wins when set" {
	AGEND_GIT_BYPASS=1 try_delete_other
	assert_success
	assert_last_event bypass_mutating_op branch warn
	"$REAL_GIT" -C "$REPO" branch -D master
	AGENTIC_GIT_BYPASS=0 AGEND_GIT_BYPASS=1 try_delete_other
	assert_denied bound
}

@test "AGENTIC_GIT_BYPASS_AGENT equal to the agent bypasses; another name does not" {
	AGENTIC_GIT_BYPASS_AGENT=ag2 try_delete_other
	assert_denied bound
	AGENTIC_GIT_BYPASS_AGENT="" try_delete_other
	assert_denied bound
	AGENTIC_GIT_BYPASS_AGENT=ag1 try_delete_other
	assert_success
	assert_last_event bypass_mutating_op branch warn
	assert_equal "$(events | tail -n1 | jq -r .bypass_layer)" agent
}

@test "AGENTIC_GIT_BYPASS_UNTIL: future passes, past and garbage do not" {
	local now
	now=$(date +%s)
	AGENTIC_GIT_BYPASS_UNTIL=$((now - 10)) try_delete_other
	assert_denied bound
	local g
	for g in tomorrow 2099-01-01T00:00:00Z -1 "" 12abc; do
		AGENTIC_GIT_BYPASS_UNTIL=$g try_delete_other
		assert_denied bound
	done
	probe_not_done
	AGENTIC_GIT_BYPASS_UNTIL=$((now + 3600)) try_delete_other
	assert_success
	assert_equal "$(events | tail -n1 | jq -r .bypass_layer)" until
}

@test "an unbound agent can bypass too, audited" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	cd "$REPO"
	run agit tag t1
	assert_denied unbound
	AGENTIC_GIT_BYPASS=1 run agit tag t1
	assert_success
	assert_last_event bypass_mutating_op tag warn
}

@test "canonical bypass-provisioning: checkout <branch> in canonical is still denied" {
	cd "$REPO"
	AGENTIC_GIT_BYPASS=1 run agit checkout other
	assert_equal "$status" 1
	assert_output --partial "DENIED — agent 'ag1' must not bypass-checkout in a canonical-rooted repo"
	assert_output --partial "AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1"
	assert_output --partial "agentic-git run"
	refute_security
	assert_equal "$(branch_of "$REPO")" main
	# no deny event for this one (reference §4.2)
	run jq -r .event <<<"$(events)"
	refute_output --partial deny
	AGENTIC_GIT_BYPASS=1 run agit -C "$REPO" switch other
	assert_equal "$status" 1
	assert_output --partial "bypass-switch"
	assert_equal "$(branch_of "$REPO")" main
}

@test "canonical bypass-provisioning: worktree add in canonical is still denied" {
	cd "$REPO"
	AGENTIC_GIT_BYPASS=1 run agit worktree add "$T/w" other
	assert_equal "$status" 1
	assert_output --partial "bypass-worktree"
	[ ! -e "$T/w" ]
	cd "$T"
	AGENTIC_GIT_BYPASS=1 run agit -C "$REPO" worktree add "$T/w" other
	assert_equal "$status" 1
	[ ! -e "$T/w" ]
}

@test "canonical bypass: file checkouts, -b and other forms are not provisioning" {
	cd "$REPO"
	echo dirty >>README.md
	AGENTIC_GIT_BYPASS=1 run agit checkout -- README.md
	assert_success
	AGENTIC_GIT_BYPASS=1 run agit worktree list
	assert_success
}

@test "AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1 lifts the canonical deny" {
	cd "$REPO"
	AGENTIC_GIT_BYPASS=1 AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1 run agit checkout -q other
	assert_success
	assert_equal "$(branch_of "$REPO")" other
	assert_last_event bypass_mutating_op checkout warn
	AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1 run agit checkout -q main
	assert_denied bound
}

@test "AGENTIC_GIT_ALLOW_CANONICAL_MUTATE alone is not a bypass" {
	cd "$REPO"
	AGENTIC_GIT_ALLOW_CANONICAL_MUTATE=1 run agit checkout other
	assert_denied bound
	assert_equal "$(branch_of "$REPO")" main
}

@test "a bypass whose argv is not UTF-8 is still one valid record that events shows" {
	local bad=$'x\xffy'
	AGENTIC_GIT_BYPASS=1 run agit -C "$WT" branch "$bad"
	assert_success
	assert_events 1
	# valid JSON, the byte as U+FFFD
	run jq -r '.argv | join(" ")' <<<"$(events)"
	assert_success
	assert_output "-C $WT branch x"$'\xef\xbf\xbd'"y"
	# and the reader keeps it: no "skipping malformed line"
	run "$AG_BIN" events --agent ag1 --event bypass_mutating_op --json
	assert_success
	refute_output --partial "malformed"
	assert_equal "$(echo "$output" | jq -s length)" 1
	run "$AG_BIN" events --agent ag1
	assert_success
	assert_output --partial "bypass_mutating_op"
}
