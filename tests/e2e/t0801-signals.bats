#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# No process outlives its session (PRODUCT.md §6): a SIGINT, SIGTERM or
# SIGHUP to `run` or to `dispatch` stops the agent's whole process tree,
# in its process group or out of it (setsid), as its timeout does, and
# `sessions` agrees with what is running (fleet/session.h invariant 8,
# fleet/pool.h invariants 4 and 5).
load lib
load dispatch

setup() {
	ag_setup
	PIDS=()
}

teardown() {
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
}

# The agent: a child in its group and a child that left it (setsid), each
# a `sleep` whose pid goes to $T/<sig>.<n>, then it waits for them.
agent_cmd() {
	printf 'sleep 30 & echo $! >%s/%s.1; setsid sleep 31 & echo $! >%s/%s.2; wait' \
		"$T" "$1" "$T" "$1"
}

# gone PIDFILE: the process whose pid the file names no longer exists
# (not even as a zombie: the stopped tree was reaped).
gone() {
	local p
	p=$(cat "$1")
	PIDS+=("$p")
	! kill -0 "$p" 2>/dev/null
}

@test "t0801: SIGINT, SIGTERM or SIGHUP to run stops the agent's whole tree, setsid children too" {
	cd "$REPO"
	local sig code pid rc
	for sig in INT TERM HUP; do
		case $sig in INT) code=130 ;; TERM) code=143 ;; HUP) code=129 ;; esac
		"$AG_BIN" run --agent ag1 --branch "feat/$sig" -- \
			bash -c "$(agent_cmd "$sig")" >"$T/out" 2>&1 3>&- &
		pid=$!
		PIDS+=("$pid")
		for _ in $(seq 300); do [ -s "$T/$sig.2" ] && break; sleep 0.1; done
		[ -s "$T/$sig.1" ] && [ -s "$T/$sig.2" ]
		run "$AG_BIN" sessions --json
		[ "$(jq -r '.[] | select(.agent == "ag1") | .running' <<<"$output")" = true ]
		kill "-$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		[ "$rc" -eq "$code" ]
		gone "$T/$sig.1"
		gone "$T/$sig.2"
		# sessions agrees: nothing runs
		run "$AG_BIN" sessions --json
		assert_success
		[ "$(jq -r '.[] | select(.agent == "ag1") | .running' <<<"$output")" = false ]
		"$AG_BIN" end --agent ag1 --force >/dev/null 2>&1
	done
}

@test "t0801: what the agent leaves behind when it exits by itself goes with it" {
	cd "$REPO"
	run "$AG_BIN" run --grace 1 --agent ag1 --branch feat/x -- \
		bash -c "setsid sleep 30 </dev/null >/dev/null 2>&1 & echo \$! >$T/left.1; (trap '' TERM; exec sleep 31) & echo \$! >$T/left.2; exit 3"
	[ "$status" -eq 3 ]
	gone "$T/left.1"
	gone "$T/left.2" # it ignored SIGTERM: SIGKILL after the grace
}

@test "t0801: end --force stops a running session's whole tree, setsid children too" {
	cd "$REPO"
	"$AG_BIN" run --agent ag1 --branch feat/x -- bash -c "$(agent_cmd end)" \
		>/dev/null 2>&1 3>&- &
	local run_pid=$!
	PIDS+=("$run_pid")
	for _ in $(seq 300); do [ -s "$T/end.2" ] && break; sleep 0.1; done
	[ -s "$T/end.1" ] && [ -s "$T/end.2" ]
	run "$AG_BIN" end --agent ag1 --force
	assert_success
	wait "$run_pid" || true
	gone "$T/end.1"
	gone "$T/end.2"
}

# dispatch_agent SIG: a target that leaves a setsid child and a child in
# its group, both pids in $T/d<SIG>.*, then waits.
dispatch_agent() {
	cat >"$T/agent-$1.sh" <<EOS
#!/bin/bash
setsid sleep 300 </dev/null >/dev/null 2>&1 & echo \$! >$T/d$1.1
sleep 301 & echo \$! >$T/d$1.2
wait
EOS
	chmod +x "$T/agent-$1.sh"
}

@test "t0801: SIGTERM or SIGHUP to dispatch stops every target's tree; SIGINT drains, then nothing is left either" {
	dsp_setup
	dsp_branch feat/a
	local sig
	for sig in TERM HUP; do
		dispatch_agent "$sig"
		"$AG_BIN" dispatch --grace 1 --repo "$REPO" --head feat/a --base main \
			--task resolve-conflicts -- "$T/agent-$sig.sh" >"$T/out" 2>&1 &
		local pid=$!
		PIDS+=("$pid")
		for _ in $(seq 300); do [ -s "$T/d$sig.2" ] && break; sleep 0.1; done
		[ -s "$T/d$sig.1" ] && [ -s "$T/d$sig.2" ]
		kill "-$sig" "$pid"
		wait "$pid" || true
		gone "$T/d$sig.1"
		gone "$T/d$sig.2"
		[ "$(meta repo-feat-a status)" = interrupted ]
	done
	# the first SIGINT drains: the running target finishes on its own,
	# and what it leaves behind still goes with it
	cat >"$T/agent-INT.sh" <<EOS
#!/bin/bash
setsid sleep 300 </dev/null >/dev/null 2>&1 & echo \$! >$T/dINT.1
while [ ! -e $T/go ]; do sleep 0.1; done
echo "ESCALATED: done"
EOS
	chmod +x "$T/agent-INT.sh"
	"$AG_BIN" dispatch --grace 1 --repo "$REPO" --head feat/a --base main \
		--task resolve-conflicts -- "$T/agent-INT.sh" >"$T/out" 2>&1 &
	pid=$!
	PIDS+=("$pid")
	for _ in $(seq 300); do [ -s "$T/dINT.1" ] && break; sleep 0.1; done
	kill -INT "$pid"
	touch "$T/go"
	wait "$pid" || true
	gone "$T/dINT.1"
	[ "$(meta repo-feat-a status)" = escalated ]
}

# sandboxed_stop BACKEND: a sandboxed session's agent leaves a setsid
# child and a child in its group (each a `sleep` whose command line
# carries $MARK, seen from outside by it), then SIGTERM to run.
sandboxed_stop() {
	sbx_prereq "$1"
	local mark=agt801-$$-$RANDOM-$1 policy=fs+no-net pid
	[ "$1" = landlock ] && policy=fs-only
	mkdir -p "$T/bin"
	cat >"$T/bin/agent.sh" <<-EOS
	#!/bin/bash
	setsid bash -c "exec -a $mark-1 sleep 300" </dev/null >/dev/null 2>&1 &
	bash -c "exec -a $mark-2 sleep 301" &
	echo started >started
	wait
	EOS
	chmod +x "$T/bin/agent.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: $1
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "{prompt}"]
	    env: []
	    sandbox: $policy
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	cd "$REPO"
	"$AG_BIN" run --agent "a-$1" --branch "feat/$1" --profile scripted \
		--prompt go >"$T/out" 2>&1 3>&- &
	pid=$!
	PIDS+=("$pid")
	for _ in $(seq 300); do
		[ "$(pgrep -fc "$mark-")" -eq 2 ] && break
		sleep 0.1
	done
	[ "$(pgrep -fc "$mark-")" -eq 2 ]
	kill -TERM "$pid"
	wait "$pid" || true
	run pgrep -f "$mark-"
	assert_output ""
}

@test "t0801: SIGTERM to run stops a sandboxed agent's whole tree (bubblewrap)" {
	load sandbox_cases
	sandboxed_stop bwrap
}

@test "t0801: SIGTERM to run stops a sandboxed agent's whole tree (Landlock)" {
	load sandbox_cases
	sandboxed_stop landlock
}
