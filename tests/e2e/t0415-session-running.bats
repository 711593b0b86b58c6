#!/usr/bin/env bats
# A session knows it is running: `run` holds <home>/runtime/<agent>/run.lock
# while its agent runs (session.h invariant 6); `sessions` shows it, a
# second `run` and `end` refuse it, `end --force` stops the agent first.
# Invariant numbers refer to src/fleet/session-lock.h.
load lib

setup() {
	ag_setup
	export AGENTIC_GIT_HOME=$T/sess-home
	cd "$REPO"
	WT=$AGENTIC_GIT_HOME/worktrees/ag1/feat/x
	LOCK=$AGENTIC_GIT_HOME/runtime/ag1/run.lock
	AGENT_PID= RUN_PID= HOLDER_PID=
}

teardown() {
	# never leave an agent, its run or a lock holder behind
	for g in $AGENT_PID; do kill -KILL -- "-$g" 2>/dev/null || true; done
	for _ in $(seq 100); do
		[ -n "$RUN_PID" ] && kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	for p in $RUN_PID $HOLDER_PID; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
}

# poll CMD…: wait (at most ~30 s) until CMD succeeds. A bound, not a
# timing claim: a loaded machine only makes it slower.
poll() {
	for _ in $(seq 300); do
		"$@" && return 0
		sleep 0.1
	done
	echo "gave up waiting for: $*" >&2
	return 1
}

# The agent shells started below: leave work in the worktree, write the
# shell's pid (the leader of the agent's process group) to $1, then BODY.
agent_sh() {
	printf 'echo wip >wip.txt; echo $$ >"$1.tmp" && mv "$1.tmp" "$1"; %s' "$1"
}

# start_agent [BODY]: `run` ag1 on feat/x in the background; waits until
# the agent runs and `sessions` names its pid. Sets RUN_PID and AGENT_PID.
start_agent() {
	"$AG_BIN" run --agent ag1 --branch feat/x -- \
		sh -c "$(agent_sh "${1:-sleep 300 & wait}")" sh "$T/agent.pid" \
		>"$T/run.out" 2>"$T/run.err" 3>&- &
	RUN_PID=$!
	poll test -s "$T/agent.pid"
	AGENT_PID=$(cat "$T/agent.pid")
	poll pid_shown "$AGENT_PID"
}

# shown RUNNING PID: `sessions --json` says that of ag1.
shown() {
	[ "$("$AG_BIN" sessions --json | jq -r '.[] | select(.agent=="ag1") | "\(.running) \(.pid)"')" = "$1 $2" ]
}
pid_shown() { shown true "$1"; }

# group_gone PGID: no process of that group is left (zombies aside: this
# machine's init may never reap the orphans).
group_gone() {
	! ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { f = 1 } END { exit !f }'
}

# wait_run: wait for the background run; its exit status in RUN_RC.
wait_run() {
	RUN_RC=0
	wait "$RUN_PID" || RUN_RC=$?
	RUN_PID=
}

# A fingerprint of what end or a second run could change.
world() {
	ls -laR "$AGENTIC_GIT_HOME/runtime" "$AGENTIC_GIT_HOME/worktrees"
	cat "$AGENTIC_GIT_HOME/fleet_events.jsonl"
	"$REAL_GIT" -C "$REPO" worktree list --porcelain
	"$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname) %(objectname)'
	"$REAL_GIT" -C "$WT" status --porcelain
}

@test "sessions shows a running session and its pid, in the table and in --json" {
	start_agent
	assert_equal "$(cat "$LOCK")" "$(printf 'pid=%s\npgid=%s' "$AGENT_PID" "$AGENT_PID")"
	run "$AG_BIN" sessions
	assert_success
	assert_line --regexp "^ag1 +feat/x +running \\(pid $AGENT_PID\\) +0 +[^ ]+ session_start +$WT\$"
	run "$AG_BIN" sessions --json
	assert_success
	assert_equal "$(echo "$output" | jq -r '.[0].running')" true
	assert_equal "$(echo "$output" | jq -r '.[0].pid')" "$AGENT_PID"
	# the existing fields keep their meaning: state is the worktree's
	assert_equal "$(echo "$output" | jq -r '.[0].state')" dirty
	assert_equal "$(echo "$output" | jq -r '.[0].untracked')" 1
	assert_equal "$(echo "$output" | jq -r '.[0].branch')" feat/x
}

@test "end refuses a running session and changes nothing" {
	start_agent
	before=$(world)
	for args in "--agent ag1" "--agent=ag1"; do
		run "$AG_BIN" end $args
		assert_equal "$status" 1
		assert_equal "${#lines[@]}" 1
		assert_output --partial "end: agent 'ag1' is running in its session (pid $AGENT_PID), nothing was changed"
		assert_output --partial "wait for it to exit, or stop it and end the session: agentic-git end --agent ag1 --force"
	done
	assert_equal "$(world)" "$before"
	assert_equal "$(cat "$WT/wip.txt")" wip
	kill -0 "$AGENT_PID"
	pid_shown "$AGENT_PID"
}

@test "a second run of a running session is refused with the way out, changing nothing" {
	start_agent
	before=$(world)
	for br in feat/x feat/other; do
		run "$AG_BIN" run --agent ag1 --branch "$br" -- touch "$T/second-ran"
		assert_equal "$status" 1
		assert_equal "${#lines[@]}" 1
		assert_output "agentic-git: run: agent 'ag1' is running in its session (pid $AGENT_PID), nothing was changed; wait for it to exit, or stop it and end the session: agentic-git end --agent ag1 --force"
	done
	[ ! -e "$T/second-ran" ]
	run "$REAL_GIT" -C "$REPO" show-ref --verify --quiet refs/heads/feat/other
	assert_failure
	assert_equal "$(world)" "$before"
	pid_shown "$AGENT_PID"
}

@test "end --force stops the agent's whole process tree, snapshots its work and ends" {
	start_agent 'sleep 300 & echo $! >"$1.child"; wait'
	poll test -s "$T/agent.pid.child"
	child=$(cat "$T/agent.pid.child")
	# the child is part of the agent's process group
	assert_equal "$(ps -o pgid= -p "$child" | tr -d ' ')" "$AGENT_PID"
	run "$AG_BIN" end --agent ag1 --force
	assert_success
	assert_output --partial "ended session 'ag1'"
	assert_output --partial "stopped:   agent (pid $AGENT_PID) and its process group"
	assert_output --regexp "snapshot:  refs/agentic-git/snapshots/ag1/[^ ]+-end"
	poll group_gone "$AGENT_PID"
	# run reported the agent's death by SIGTERM and released the lock
	wait_run
	assert_equal "$RUN_RC" 143
	AGENT_PID=
	[ ! -e "$WT" ]
	[ ! -e "$AGENTIC_GIT_HOME/runtime/ag1" ]
	ref=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/)
	assert_equal "$("$REAL_GIT" show "$ref:wip.txt")" wip
	"$REAL_GIT" show-ref --verify --quiet refs/heads/feat/x
	run "$AG_BIN" sessions
	assert_output "(no sessions)"
}

@test "end --force kills an agent that ignores SIGTERM after the grace" {
	start_agent "trap '' TERM; sleep 300; echo survived >\"\$1.survived\""
	run "$AG_BIN" end --agent ag1 --force
	assert_success
	assert_output --partial "stopped:   agent (pid $AGENT_PID)"
	poll group_gone "$AGENT_PID"
	wait_run
	assert_equal "$RUN_RC" 137
	AGENT_PID=
	[ ! -e "$T/agent.pid.survived" ]
	[ ! -e "$WT" ]
}

@test "after the agent exits, sessions, run and end behave as before" {
	start_agent 'while [ ! -e "$1.go" ]; do sleep 0.1; done'
	touch "$T/agent.pid.go"
	wait_run
	assert_equal "$RUN_RC" 0
	AGENT_PID=
	# the file stays, its record emptied
	[ -e "$LOCK" ]
	[ ! -s "$LOCK" ]
	run "$AG_BIN" sessions --json
	assert_equal "$(echo "$output" | jq -r '.[0] | "\(.running) \(.pid) \(.state)"')" "false null dirty"
	run "$AG_BIN" sessions
	assert_line --regexp '^ag1 +feat/x +dirty +0 '
	run "$AG_BIN" end --agent ag1
	assert_equal "$status" 1
	assert_output --partial "has unsaved work (1 untracked file(s))"
	rm "$WT/wip.txt"
	run "$AG_BIN" run --agent ag1 --branch feat/x -- true
	assert_success
	run "$AG_BIN" sessions
	assert_line --regexp '^ag1 +feat/x +clean +0 '
	run "$AG_BIN" end --agent ag1
	assert_success
	refute_output --partial "stopped:"
	[ ! -e "$WT" ]
}

@test "a stale lock file is not running, whatever pid it names, and nothing is signalled (invariants 1, 3)" {
	"$AG_BIN" run --agent ag1 --branch feat/x -- true 2>/dev/null
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	printf 'pid=%s\npgid=%s\n' "$dead" "$dead" >"$LOCK"
	run "$AG_BIN" sessions --json
	assert_equal "$(echo "$output" | jq -r '.[0] | "\(.running) \(.pid) \(.state)"')" "false null clean"
	run "$AG_BIN" sessions
	assert_line --regexp '^ag1 +feat/x +clean +0 '
	sleep 300 3>&- &
	HOLDER_PID=$!
	printf 'pid=%s\npgid=%s\n' "$HOLDER_PID" "$HOLDER_PID" >"$LOCK"
	shown false null
	run "$AG_BIN" run --agent ag1 --branch feat/x -- true
	assert_success
	run "$AG_BIN" end --agent ag1 --force
	assert_success
	refute_output --partial "stopped:"
	kill -0 "$HOLDER_PID"
}

@test "the agent does not inherit the lock: nothing of it can keep the session running (invariant 2)" {
	# (what it leaves behind is stopped with it: t0801)
	"$AG_BIN" run --agent ag1 --branch feat/x -- \
		sh -c 'ls -l /proc/$$/fd/ >"$1"' sh "$T/fds" 2>/dev/null 3>&-
	run cat "$T/fds"
	assert_success
	assert_output --partial "$T/fds" # the listing is the agent's own
	refute_output --partial run.lock
	shown false null
	run "$AG_BIN" end --agent ag1
	assert_success
}

@test "end --force refuses and keeps the session when the lock is never released" {
	"$AG_BIN" run --agent ag1 --branch feat/x -- true 2>/dev/null
	echo wip >"$WT/wip.txt"
	# a holder that is not a run, and records no agent
	(exec 9>>"$LOCK" && flock 9 && exec sleep 300) 3>&- &
	HOLDER_PID=$!
	poll shown true null
	run "$AG_BIN" sessions
	assert_line --regexp '^ag1 +feat/x +running +0 '
	before=$(world)
	run "$AG_BIN" end --agent ag1 --force
	assert_equal "$status" 1
	assert_equal "${#lines[@]}" 1
	assert_output --partial "run.lock' is still held after 10 s and names no agent to stop; the session was kept"
	assert_equal "$(world)" "$before"
	kill -0 "$HOLDER_PID"
}

@test "run --profile holds the lock too" {
	mkdir -p "$T/bin"
	cat >"$T/bin/slow.sh" <<-'EOS'
	#!/bin/sh
	echo $$ >"$1.tmp" && mv "$1.tmp" "$1"
	while [ ! -e "$1.go" ]; do sleep 0.1; done
	EOS
	chmod +x "$T/bin/slow.sh"
	mkdir -p "$AGENTIC_GIT_HOME"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	agents:
	  slow:
	    command: ["$T/bin/slow.sh", "{prompt}"]
	    env: []
	    sandbox: none
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	"$AG_BIN" run --agent ag1 --branch feat/x --profile slow --prompt "$T/agent.pid" \
		>"$T/run.out" 2>"$T/run.err" 3>&- &
	RUN_PID=$!
	poll test -s "$T/agent.pid"
	AGENT_PID=$(cat "$T/agent.pid")
	poll pid_shown "$AGENT_PID"
	run "$AG_BIN" end --agent ag1
	assert_equal "$status" 1
	assert_output --partial "is running in its session (pid $AGENT_PID)"
	touch "$T/agent.pid.go"
	wait_run
	assert_equal "$RUN_RC" 0
	AGENT_PID=
	shown false null
}
