#!/usr/bin/env bats
# The bypass belongs to the operator (issue 19; PRODUCT.md §4): in a
# session agentic-git provisions, an agent that sets AGENTIC_GIT_BYPASS*
# itself is still denied, and no deny message teaches it a bypass, unless
# the operator ran `run --allow-bypass`. A binding without the field (an
# embedding orchestrator's) keeps the original contract.
load lib
load shimlib

setup() {
	ag_setup
	# the scripted agent: tries the protected branch three ways, with the
	# bypass variables it sets itself
	cat >"$T/agent.sh" <<-'EOS'
	#!/bin/sh
	git checkout -q main >"$T/plain.out" 2>&1; echo "plain=$?" >"$T/rc"
	AGENTIC_GIT_BYPASS=1 git branch -f master HEAD >"$T/bypass.out" 2>&1; echo "bypass=$?" >>"$T/rc"
	AGENTIC_GIT_BYPASS_AGENT=ag1 git branch -f master HEAD >"$T/agentvar.out" 2>&1; echo "agentvar=$?" >>"$T/rc"
	AGENTIC_GIT_BYPASS_UNTIL=4102444800 git branch -f master HEAD >"$T/until.out" 2>&1; echo "until=$?" >>"$T/rc"
	exit 0
	EOS
	chmod +x "$T/agent.sh"
	cd "$REPO"
}

binding() { cat "$AGENTIC_GIT_HOME/runtime/ag1/binding.json"; }

@test "run: an agent's own bypass is ignored, denied, recorded, and no message teaches it" {
	run "$AG_BIN" run --agent ag1 --branch feat/x -- "$T/agent.sh"
	assert_success
	assert_equal "$(binding | jq -r .bypass)" denied
	run cat "$T/rc"
	assert_output "$(printf 'plain=1\nbypass=1\nagentvar=1\nuntil=1')"
	! "$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/heads/master >/dev/null
	for f in plain bypass agentvar until; do
		run cat "$T/$f.out"
		assert_output --partial "denied"
		refute_output --partial "AGENTIC_GIT_BYPASS=1                 one-shot"
		refute_output --partial "or bypass with one of"
		assert_output --partial "ask"
		assert_output --partial "the operator"
	done
	run cat "$T/bypass.out"
	assert_output --partial "AGENTIC_GIT_BYPASS* was set but is ignored"
	# recorded as denies that tried a bypass; no bypass went through
	[ "$(events | jq -s '[.[] | select(.disposition == "deny" and .bypass_refused == true)] | length')" -eq 3 ]
	[ "$(events | jq -s '[.[] | select(.event == "bypass_mutating_op")] | length')" -eq 0 ]
}

@test "run --allow-bypass: the operator's choice, signed, and the bypass passes audited" {
	run "$AG_BIN" run --allow-bypass --agent ag1 --branch feat/x -- "$T/agent.sh"
	assert_success
	assert_equal "$(binding | jq -r .bypass)" allowed
	run cat "$T/rc"
	assert_line "plain=1"
	assert_line "bypass=0"
	assert_line "agentvar=0"
	assert_line "until=0"
	run cat "$T/plain.out"
	assert_output --partial "or bypass with one of"
	"$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/heads/master >/dev/null
	[ "$(events | jq -s '[.[] | select(.event == "bypass_mutating_op")] | length')" -eq 3 ]
}

@test "re-entering without --allow-bypass takes the bypass back (re-signed binding)" {
	run "$AG_BIN" run --allow-bypass --agent ag1 --branch feat/x -- true
	assert_success
	assert_equal "$(binding | jq -r .bypass)" allowed
	run "$AG_BIN" run --agent ag1 --branch feat/x -- "$T/agent.sh"
	assert_success
	assert_equal "$(binding | jq -r .bypass)" denied
	run cat "$T/rc"
	assert_line "bypass=1"
	# still a verified session, not a forged one
	run "$AG_BIN" sessions --json
	assert_success
	assert_equal "$(echo "$output" | jq -r '.[0].state')" clean
}

@test "a binding without the field keeps the original contract; an unknown value counts as denied" {
	ag_bind ag1 feat/a
	cd "$WT"
	AGENTIC_GIT_BYPASS=1 run agit branch -f master HEAD
	assert_success
	"$REAL_GIT" -C "$REPO" branch -D -q master
	run agit checkout main
	assert_failure
	assert_output --partial "or bypass with one of"
	# the same binding, signed with a value we do not know
	local f=$AGENTIC_GIT_HOME/runtime/ag1/binding.json
	jq '. + {bypass: "maybe"}' "$f" >"$f.new" && mv "$f.new" "$f"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$f"
	AGENTIC_GIT_BYPASS=1 run agit branch -f master HEAD
	assert_failure
	assert_output --partial "no bypass exists in this session"
	! "$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/heads/master >/dev/null
	# and a field that is not a string makes the binding malformed: unbound
	jq '. + {bypass: true}' "$f" >"$f.new" && mv "$f.new" "$f"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$f"
	run agit commit --allow-empty -qm nope
	assert_failure
	assert_output --partial "unbound"
}
