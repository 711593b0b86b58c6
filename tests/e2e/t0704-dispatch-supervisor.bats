#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch's supervisor (fleet/pool.h invariants 1-5): timeouts kill the
# whole tree, daemons included; concurrency is bounded; Ctrl-C drains.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	MARK=agtest-$$-$RANDOM
	export MARK
}

teardown() {
	pkill -KILL -f "$MARK" 2>/dev/null || true
}

# survivors: processes whose command line carries $MARK.
survivors() {
	pgrep -f -- "$MARK" || true
}

@test "t0704.1 an agent that hangs and ignores SIGTERM is killed at the timeout, children too" {
	run dispatch --timeout 1 --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/hang.sh"
	[ "$status" -eq 4 ]
	assert_output --partial "timed-out     repo-feat-a"
	[ "$(meta repo-feat-a status)" = timed-out ]
	[ "$(meta repo-feat-a timed_out)" = true ]
	[ "$(meta repo-feat-a exit_code)" = 137 ]   # SIGKILL after the grace
	[ -z "$(survivors)" ]
}

@test "t0704.2 a daemon (setsid, SIGTERM ignored) left behind is killed; no process survives" {
	HANG_DAEMON=1 run dispatch --timeout 30 --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/hang.sh"
	[ -z "$(survivors)" ]
	[ "$(meta repo-feat-a orphans_killed)" -ge 1 ]
	# it still finished in time, judged on its verdict (HEAD unmoved)
	[ "$(meta repo-feat-a exit_code)" = 0 ]
	[ "$(meta repo-feat-a timed_out)" = false ]
}

@test "t0704.3 SIGINT drains: queued targets become interrupted; a second one stops the running" {
	{
		echo "targets:"
		for i in 1 2 3; do
			printf '  - {repo: %s, head: feat/a, base: main, key: k%d}\n' "$REPO" "$i"
		done
	} >$T/t.yaml
	"$AG_BIN" dispatch --grace 1 -j 1 --timeout 60 --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/hang.sh" >$T/out 2>&1 &
	pid=$!
	for _ in $(seq 100); do pgrep -f "agent-$MARK" >/dev/null && break; sleep 0.1; done
	kill -INT $pid
	sleep 0.3
	kill -INT $pid
	wait $pid || rc=$?
	[ "${rc:-0}" -eq 4 ]
	cat $T/out
	[ "$(meta k1 status)" = interrupted ]
	[ "$(meta k2 status)" = interrupted ]
	[ "$(meta k3 status)" = interrupted ]
	grep -q 'agent_argv: null' "$(run_dir)/k3.meta.yaml"   # never started
	[ -z "$(survivors)" ]
}
