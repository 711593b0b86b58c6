#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch: an agent that tries to fetch or push by itself gets nowhere,
# and nothing it attempted leaks to origin.
#
# Which control stops it, honestly:
#  - the shim (git on PATH) denies pushing any branch but its own;
#  - the workspace has no remote at all, so `git fetch origin` and a push
#    of its own branch fail for the shim and for real git alike: "origin
#    does not appear to be a git repository";
#  - credential carriers (SSH_AUTH_SOCK, GH_TOKEN, GITHUB_TOKEN,
#    GIT_ASKPASS, ...) are removed from the agent's environment.
# Without the sandbox, an agent running as the operator's uid that knows
# the origin's URL can still reach a local or credential-less remote by
# naming it; only the sandbox's private workspace and network namespace
# close that (docs/dispatch.md "What stops an agent from pushing").
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
}

@test "t0703.1 the agent's own fetch and push fail; only agentic-git's verified push lands" {
	export PROBE_LOG=$T/probe.log
	origin_before=$("$REAL_GIT" --git-dir="$ORIGIN" for-each-ref --format='%(refname)')
	SSH_AUTH_SOCK=/tmp/agent.sock GH_TOKEN=secret-token GITHUB_TOKEN=secret-token \
		run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/remote.sh"
	cat $PROBE_LOG >&3
	assert_success
	# every attempt failed
	run grep -c '^rc=0$' $PROBE_LOG
	[ "$output" -le 1 ]   # only `remote -v` (which lists nothing) may succeed
	# fetch through the shim reaches real git, which finds no remote
	grep -A2 '== git fetch origin' $PROBE_LOG | grep -q "does not appear to be a git repository"
	# the shim denies pushing another branch outright
	grep -A2 '== git push origin' $PROBE_LOG | grep -q "git push denied"
	# its own branch is allowed through the shim, and fails for lack of a remote
	grep -A2 '== git push own branch' $PROBE_LOG | grep -q "does not appear to be a git repository"
	grep -A2 '== real git push origin' $PROBE_LOG | grep -q "does not appear to be a git repository"
	[ "$(sed -n '/== remotes/,/rc=/p' $PROBE_LOG | wc -l)" -eq 2 ]
	! grep -q 'secret-token\|agent.sock' $PROBE_LOG
	# nothing leaked: no new ref on origin, feat/a is agentic-git's push
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" for-each-ref --format='%(refname)')" = "$origin_before" ]
	[ "$(meta repo-feat-a status)" = pushed ]
	! grep -q 'SSH_AUTH_SOCK\|GH_TOKEN\|GITHUB_TOKEN' "$(run_dir)/repo-feat-a.meta.yaml"
}

@test "t0703.2 the agent's git is the shim, bound to its branch in its workspace" {
	cat >$T/probe.sh <<-'SH'
	#!/bin/bash
	echo "git=$(command -v git)"
	echo "agent=$AGENTIC_GIT_AGENT snapshots=$AGENTIC_GIT_SNAPSHOTS bypass=${AGENTIC_GIT_BYPASS-unset}"
	echo "cwd=$PWD"
	cat "$AGENTIC_GIT_HOME/runtime/$AGENTIC_GIT_AGENT/binding.json"; echo
	echo "ESCALATED: probe only"
	SH
	chmod +x $T/probe.sh
	AGENTIC_GIT_BYPASS=1 run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- $T/probe.sh
	[ "$status" -eq 3 ]
	log=$(run_dir)/repo-feat-a.stdout.log
	grep -q "^git=$AGENTIC_GIT_HOME/bin/git$" "$log"
	grep -q "snapshots=1 bypass=unset" "$log"
	grep -q "^cwd=$(run_dir)/work/repo-feat-a$" "$log"
	grep -q '"branch": "feat/a"' "$log"
	grep -q "\"worktree\": \"$(run_dir)/work/repo-feat-a\"" "$log"
	# the binding's signature verifies with the home's key
	agent=$(sed -n 's/^agent=\([^ ]*\) .*/\1/p' "$log")
	[ -z "$(ls -A "$AGENTIC_GIT_HOME/runtime")" ]  # removed at teardown
	[ -n "$agent" ]
}
