#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The supervisor's kill semantics hold for a sandboxed agent (fleet/pool.h
# invariants 3-4; docs/dispatch.md "Supervisor"): at the timeout the whole
# sandbox goes (bwrap: the outer bwrap dies, --die-with-parent takes the
# PID namespace down; Landlock: the process group and the subreaper
# sweep), and a daemon the agent leaves behind does not survive.
load lib
load dispatch
load sandbox_cases
load dispatch_sandbox

setup() {
	dsb_setup
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
}

# hang_case BACKEND
hang_case() {
	local b=$1
	sbx_prereq "$b"
	boxed_config "$b" fs+no-net "$AGENTS/hang.sh"
	# hangs (SIGTERM ignored) after starting a daemon of its own
	HANG_DAEMON=hang run dispatch --timeout 3 --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	[ "$status" -eq 4 ]
	grep -q '^daemon started$' "$(run_dir)/repo-feat-a.stdout.log"
	[ "$(meta repo-feat-a status)" = timed-out ]
	[ "$(meta repo-feat-a timed_out)" = true ]
	[ "$(meta repo-feat-a sandbox)" = "fs+no-net ($b)" ]
	[ -z "$(survivors)" ]
	# a daemon (setsid, SIGTERM ignored) left behind by an agent that exits
	HANG_DAEMON=1 run dispatch --timeout 30 --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	[ -z "$(survivors)" ]
	[ "$(meta repo-feat-a exit_code)" = 0 ]
	[ "$(meta repo-feat-a timed_out)" = false ]
	grep -q '^daemon started$' "$(run_dir)/repo-feat-a.stdout.log"
}

@test "t0711.1 bwrap: a hanging agent is killed at the timeout with its sandbox; no daemon survives" {
	hang_case bwrap
}

@test "t0711.2 landlock: a hanging agent is killed at the timeout; no daemon survives" {
	hang_case landlock
}
