#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The operator looking never breaks an agent (PRODUCT.md §5): every git
# agentic-git runs for itself takes no optional locks (git/gitcmd.h), so
# `sessions`, `events` and `snapshots list` looping beside an agent's
# add+commit loop never make one of its commands fail.
load lib

setup() { ag_setup; }

teardown() {
	[ -n "${WATCH_PID:-}" ] && kill "$WATCH_PID" 2>/dev/null
	wait 2>/dev/null || true
}

# watch_loop: the operator, until $T/stop exists.
watch_loop() {
	while [ ! -e "$T/stop" ]; do
		"$AG_BIN" sessions >/dev/null 2>&1
		"$AG_BIN" sessions --json >/dev/null 2>&1
		"$AG_BIN" snapshots list --repo "$WT" >/dev/null 2>&1
		"$AG_BIN" events >/dev/null 2>&1
	done
}

@test "t0821: an agent's 100 add+commit pairs all succeed while the operator loops sessions, events and snapshots list" {
	ag_bind ag1 feat/one
	cd "$WT"
	# status in the worktree has an index to refresh: files whose stat
	# data the index does not hold yet (git then takes index.lock to
	# write the refreshed entries, unless optional locks are off)
	for i in $(seq 50); do echo "$i" >"f$i.txt"; done
	"$REAL_GIT" add -A
	"$REAL_GIT" commit -qm base
	watch_loop &
	WATCH_PID=$!
	local failed=0 i
	for i in $(seq 100); do
		touch f*.txt # stale stat data: the operator's status would refresh it
		echo "$i" >>work.txt
		agit add work.txt 2>>"$T/agent.err" || failed=$((failed + 1))
		agit commit -qm "agent $i" 2>>"$T/agent.err" || failed=$((failed + 1))
	done
	touch "$T/stop"
	wait "$WATCH_PID"
	WATCH_PID=
	cat "$T/agent.err"
	[ "$failed" -eq 0 ]
	# every commit is on the agent's branch, one for one
	[ "$(branch_of "$WT")" = feat/one ]
	[ "$("$REAL_GIT" rev-list --count main..feat/one)" -eq 101 ]
}
