#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Inside bwrap the shim is every git the agent can name (PRODUCT.md §8;
# issue 16): an absolute /usr/bin/git and a login shell that resets PATH
# (as Codex runs every tool command) both meet the shim; real git lives at
# a private path the shim is pointed at. Landlock cannot remap paths: there
# /usr/bin/git stays real git (docs/sandbox.md).
load lib
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin"
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	/usr/bin/git checkout -q main 2>/dev/null; echo "ABS:$?"
	bash -lc 'git checkout -q main' 2>/dev/null; echo "LOGIN:$?"
	bash -lc 'command -v git; git rev-parse --abbrev-ref HEAD'
	echo precious >>README.md
	/usr/bin/git reset -q --hard; echo "RESET:$?"
	echo "$AGENTIC_GIT_REAL_GIT"
	EOS
	chmod +x "$T/bin/agent.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF2
	sandbox_backend: bwrap
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "{prompt}"]
	    env: []
	    sandbox: fs-only
	EOF2
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	cd "$REPO"
}

@test "bwrap: /usr/bin/git and a login shell's git are the shim; the reset is snapshotted" {
	sbx_prereq bwrap
	run "$AG_BIN" run --agent g1 --branch feat/g --profile scripted --prompt go
	assert_success
	assert_line "ABS:1"
	assert_line "LOGIN:1"
	assert_line "feat/g"
	assert_line "RESET:0"
	assert_line "/run/agentic-git/git"
	# both checkouts were denied by the shim, and recorded
	[ "$(events | jq -s '[.[] | select(.agent == "g1" and .subcommand == "checkout" and .disposition == "deny")] | length')" -eq 2 ]
	# the absolute /usr/bin/git reset was snapshotted, and comes back
	ws=$AGENTIC_GIT_HOME/worktrees/g1/feat/g
	run "$AG_BIN" snapshots restore --repo "$ws" --since 1h
	assert_success
	assert_equal "$(tail -1 "$ws/README.md")" precious
}
