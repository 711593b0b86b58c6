#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# run's time limit (fleet/session.h invariant 7, issue 16 point 4) and the
# warning for an API agent under a sandbox with no network
# (cmd/run-profile.h invariant 4, fleet/dispatch.c, issue 16 point 8).
load lib
load dispatch
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin"
	MARK=agtimeout-$$-$RANDOM
	export MARK
	# the agent: records its process group, starts a marked child that
	# runs a sleep, and sleeps itself; "ignore" also ignores SIGTERM (and
	# so do its children, which inherit the ignored disposition)
	cat >"$T/bin/child-$MARK.sh" <<-'EOS'
	#!/bin/sh
	sleep 60
	:
	EOS
	cat >"$T/bin/agent-$MARK.sh" <<-EOS
	#!/bin/sh
	[ "\$1" = ignore ] && trap '' TERM
	echo \$\$ >"\$AGENTIC_GIT_HOME/pgid.\$AGENTIC_GIT_AGENT"
	"$T/bin/child-$MARK.sh" &
	sleep 60
	:
	EOS
	chmod +x "$T/bin/child-$MARK.sh" "$T/bin/agent-$MARK.sh"
	cd "$REPO"
}

profile_config() { # timeout [extra profile lines]
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	agents:
	  hang:
	    command: ["$T/bin/agent-$MARK.sh", "{prompt}"]
	    env: []
	    timeout: $1
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

# bounded: the command, killed (status 137) if it outlives 40 s
bounded() {
	run timeout -s KILL 40 "$@"
}

# nothing_left AGENT: no marked process, no live member of the agent's group
nothing_left() {
	local pg
	pg=$(cat "$AGENTIC_GIT_HOME/pgid.$1")
	[ -n "$pg" ]
	[ -z "$(pgrep -f -- "$MARK" || true)" ]
	[ -z "$(ps -o stat= -g "$pg" 2>/dev/null | grep -v '^Z' || true)" ]
}

# timeout_event AGENT FIELD: FIELD of AGENT's timeout event
timeout_event() {
	events | jq -r --arg a "$1" "select(.event == \"timeout\" and .agent == \$a) | .$2"
}

@test "t0460.1 a profile's timeout: stops the agent and its child with SIGTERM, exit 124, timeout event" {
	profile_config 3
	bounded "$AG_BIN" run --agent t1 --branch t/one --profile hang --prompt go
	[ "$status" -eq 124 ]
	assert_output --partial "ran past its timeout of 3s and was stopped (SIGTERM)"
	nothing_left t1
	[ "$(timeout_event t1 seconds)" = 3 ]
	[ "$(timeout_event t1 signal)" = SIGTERM ]
	[ "$(timeout_event t1 disposition)" = warn ]
	events | jq -e -s 'map(select(.event == "session_end" and .agent == "t1")) | .[0].exit_code == 124'
	# the run lock went with it: the session is not running any more
	run "$AG_BIN" run --agent t1 --branch t/one -- true
	assert_success
}

@test "t0460.2 an agent that ignores SIGTERM is killed after the grace, nothing of it left" {
	profile_config 3
	bounded "$AG_BIN" run --agent t2 --branch t/two --grace 1 --profile hang --prompt ignore
	[ "$status" -eq 124 ]
	assert_output --partial "(SIGKILL)"
	nothing_left t2
	[ "$(timeout_event t2 signal)" = SIGKILL ]
	[ "$(timeout_event t2 grace_seconds)" = 1 ]
}

@test "t0460.3 --timeout bounds run -- cmd, and overrides a profile's timeout:" {
	bounded "$AG_BIN" run --agent t3 --branch t/three --timeout 2 --grace 1 -- "$T/bin/agent-$MARK.sh" ignore
	[ "$status" -eq 124 ]
	nothing_left t3
	[ "$(timeout_event t3 seconds)" = 2 ]
	profile_config 600
	bounded "$AG_BIN" run --agent t4 --branch t/four --timeout 2 --profile hang --prompt go
	[ "$status" -eq 124 ]
	nothing_left t4
	[ "$(timeout_event t4 seconds)" = 2 ]
}

@test "t0460.4 an agent that finishes in time keeps its own status and writes no timeout event" {
	profile_config 30
	bounded "$AG_BIN" run --agent t5 --branch t/five --timeout 30 -- sh -c 'exit 7'
	[ "$status" -eq 7 ]
	printf '#!/bin/sh\necho "done: $1"\n' >"$T/bin/quick.sh"
	chmod +x "$T/bin/quick.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	agents:
	  quick:
	    command: ["$T/bin/quick.sh", "{prompt}"]
	    env: []
	    timeout: 30
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	bounded "$AG_BIN" run --agent t6 --branch t/six --profile quick --prompt go
	assert_success
	assert_output --partial "done: go"
	[ -z "$(events | jq -r 'select(.event == "timeout") | .agent')" ]
}

@test "t0460.5 bad --timeout and --grace values are one-line usage errors that create nothing" {
	for v in 0 -1 abc 1.5 ''; do
		run "$AG_BIN" run --agent bad --branch t/bad --timeout "$v" -- true
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		assert_output --partial "run: --timeout: '$v' is not a number of seconds"
	done
	run "$AG_BIN" run --agent bad --branch t/bad --grace x -- true
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	assert_output --partial "run: --grace: 'x' is not a number of seconds"
	[ ! -e "$AGENTIC_GIT_HOME/worktrees" ]
	! "$REAL_GIT" -C "$REPO" rev-parse -q --verify refs/heads/t/bad
	[ -z "$(events)" ]
}

# net_config POLICY: the claude preset's command replaced by a scripted
# agent (so no real CLI is needed), and a custom profile, both under POLICY
net_config() {
	printf '#!/bin/sh\necho "agent ran: $1"\n' >"$T/bin/api.sh"
	chmod +x "$T/bin/api.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: bwrap
	agents:
	  claude:
	    command: ["$T/bin/api.sh", "{prompt}"]
	    ro_binds: ["$T/bin"]
	    sandbox: $1
	  custom:
	    command: ["$T/bin/api.sh", "{prompt}"]
	    env: []
	    ro_binds: ["$T/bin"]
	    sandbox: $1
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

@test "t0460.6 a preset's agent under fs+no-net is warned about at launch, naming the way out" {
	sbx_prereq bwrap
	net_config fs+no-net
	run "$AG_BIN" run --agent n1 --branch n/one --profile claude --prompt hi
	assert_success
	assert_output --partial "agent ran: hi"
	assert_output --partial "warning: profile 'claude' needs its vendor's API but sandbox 'fs+no-net' gives it no network"
	assert_output --partial "set sandbox: fs+api"
	events | jq -e -s 'map(select(.event == "agent_launch" and .agent == "n1")) | .[0].network_warning | test("fs\\+no-net")'
}

@test "t0460.7 no network warning under fs-only, nor for a custom profile" {
	sbx_prereq bwrap
	net_config fs-only
	run "$AG_BIN" run --agent n2 --branch n/two --profile claude --prompt hi
	assert_success
	assert_output --partial "agent ran: hi"
	refute_output --partial "no network"
	net_config fs+no-net
	run "$AG_BIN" run --agent n3 --branch n/three --profile custom --prompt hi
	assert_success
	assert_output --partial "agent ran: hi"
	refute_output --partial "no network"
	events | jq -e -s 'map(select(.event == "agent_launch" and .network_warning != null)) | length == 0'
}

@test "t0460.8 dispatch: the warning once per run on stderr and in summary.md, in every target's meta" {
	sbx_prereq bwrap
	dsp_setup
	dsp_branch feat/a
	dsp_branch feat/b
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: bwrap
	agents:
	  claude:
	    command: ["$AGENTS/noop.sh", "{prompt}"]
	    ro_binds: ["$AGENTS"]
	    sandbox: fs+no-net
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: a}\n  - {repo: %s, head: feat/b, base: main, key: b}\n' \
		"$REPO" "$REPO" >"$T/t.yaml"
	run dispatch --profile claude --targets "$T/t.yaml" --task resolve-conflicts -j 1
	[ "$(grep -c "warning: profile 'claude' needs its vendor's API but sandbox 'fs+no-net'" <<<"$output")" -eq 1 ]
	[ "$(grep -c "needs its vendor's API" "$(run_dir)/summary.md")" -eq 1 ]
	grep -q '^## Warnings' "$(run_dir)/summary.md"
	meta a warning | grep -q "sandbox 'fs+no-net' gives it no network"
	meta b warning | grep -q "set sandbox: fs+api"
	# a policy with the network: no warning
	sed -i 's/fs+no-net/fs-only/' "$AGENTIC_GIT_HOME/config.yaml"
	run dispatch --profile claude --targets "$T/t.yaml" --task resolve-conflicts -j 1
	refute_output --partial "needs its vendor's API"
	! grep -q "needs its vendor's API" "$(run_dir)/summary.md"
	[ "$(meta a warning)" = null ]
}
