#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A sandboxed dispatch agent (fs+no-net, real bwrap and real Landlock)
# tries to read the operator's ~/.ssh and clone, write outside its
# workspace, push to origin by path and connect to a loopback listener:
# every attempt fails, nothing lands on the host or on origin, and the
# target is still verified and pushed by agentic-git. The controls: the
# key, clone and listener are reachable outside (sbx_listen checks the
# listener; t0709.3 shows an unsandboxed agent's view).
load lib
load dispatch
load sandbox_cases
load dispatch_sandbox

setup() {
	dsb_setup
}

teardown() {
	sbx_unlisten
}

# escape_case BACKEND: fs+no-net; every attempt fails, the target pushes.
escape_case() {
	local b=$1 log
	sbx_prereq "$b"
	boxed_config "$b" fs+no-net "$AGENTS/escape.sh"
	sbx_listen
	export ESC_KEY=$HOME/.ssh/id_rsa ESC_REPO=$REPO ESC_ORIGIN=$ORIGIN \
		ESC_OUT=$T/outside ESC_PORT=$PORT ESC_HELPER=$SBX_HELPER
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	log=$(run_dir)/repo-feat-a.stdout.log
	cat "$log" >&3
	assert_success
	grep -q '^== escape-done$' "$log"          # it ran every attempt
	[ "$(grep -c '^rc-' "$log")" -eq 8 ]
	for what in read-key read-fleet-key read-clone push connect checkout; do
		grep -q "^rc-$what=[1-9]" "$log"    # each one failed
	done
	! grep -q 'dsb-test-key\|hello\|\[core\]\|connected' "$log"
	[ ! -e "$REPO/planted" ]
	[ ! -e "$T/outside/planted" ]
	run "$REAL_GIT" --git-dir="$ORIGIN" rev-parse -q --verify refs/heads/evil
	assert_failure
	[ "$(meta repo-feat-a status)" = pushed ]   # still verified and pushed
	# the shim's deny inside the cage reached the audit log (spool), attributed
	events | jq -e -s 'map(select(.via == "sandbox" and (.agent | startswith("dispatch-")) and
		.subcommand == "checkout" and .disposition == "deny")) | length == 1'
	[ -z "$(ls "$AGENTIC_GIT_HOME/cache/boxed" | grep spool)" ]
}

@test "t0710.1 bwrap: the agent cannot read ~/.ssh or the clone, write outside, push or connect" {
	escape_case bwrap
}

@test "t0710.2 landlock: the agent cannot read ~/.ssh or the clone, write outside, push or connect" {
	escape_case landlock
}

