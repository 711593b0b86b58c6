#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fs+api's hand-over: the relay inside the cage hands its loopback
# listener to the proxy outside, once (agents/netlistener.h 1-3,
# agents/netproxy.h 3). The proxy refuses anything but a listening TCP
# socket on 127.0.0.0/8, takes one hand-over per run, good or bad, and a
# relay the proxy refused runs nothing.
load lib
load sandbox_cases

BACKEND=bwrap

setup() {
	sbx_setup
}

teardown() { net_server_stop; }

# proxy WHAT...: a proxy whose "sandbox" is a fake relay handing over
# each WHAT in turn (sbx-helper handover)
proxy() {
	local script=""
	for w in "$@"; do
		script+="'$SBX_HELPER' handover '$T/p.sock' $w; "
	done
	"$AG_BIN" sandbox proxy --socket "$T/p.sock" --home "$AGENTIC_GIT_HOME" \
		--agent bad-relay -- /bin/sh -c "$script"
}

@test "fs+api hand-over: anything but a loopback TCP listener is refused, and only one is taken" {
	for case in "pipe:not a socket" "udp:not a TCP socket" \
		"none:not exactly one descriptor" "two:not exactly one descriptor"; do
		run proxy "${case%%:*}" listener
		assert_line "handover: refused"
		assert_output --partial "the relay's listener was refused: ${case#*:}; the sandbox has no network"
		# fail closed: no second chance for a good one
		assert_line --partial "handover: connect: Connection refused"
		refute_line "handover: accepted"
	done
	run jq -rs '[.[] | select(.event == "net_deny" and .agent == "bad-relay"
		and (.reason | startswith("the relay'"'"'s listener was refused")))] | length' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output 4
	# a good one is taken, and then the socket takes no other
	run proxy listener listener
	assert_line "handover: accepted"
	assert_line --partial "handover: connect: Connection refused"
	refute_output --partial "refused:"
}

@test "fs+api hand-over: the agent cannot hand the proxy a listener of its own" {
	sbx_prereq bwrap
	run sbx fs+api --allow api.example.com -- \
		"$SBX_HELPER" handover /run/agentic-git/proxy.sock listener
	assert_output --partial "handover: connect: Connection refused"
	refute_output --partial "handover: accepted"
}

@test "fs+api hand-over: a relay the proxy did not answer runs nothing" {
	prereq node command -v node
	# a "proxy" that accepts and hangs up without an answer
	node -e 'require("net").createServer((c) => c.end()).listen(process.argv[1])' \
		"$T/mute.sock" &
	local pid=$!
	for _ in $(seq 100); do
		[ -S "$T/mute.sock" ] && break
		sleep 0.05
	done
	run sbx fs+no-net --ro "$T" --ro "$(dirname "$AG_BIN")" -- \
		"$AG_BIN" sandbox relay --port 3128 --socket "$T/mute.sock" -- /bin/echo ran
	kill "$pid"
	[ "$status" -eq 126 ]
	assert_output --partial "sandbox relay: the proxy did not take the listener"
	refute_output --partial "ran"
	# no proxy at all
	run sbx fs+no-net --ro "$T" --ro "$(dirname "$AG_BIN")" -- \
		"$AG_BIN" sandbox relay --port 3128 --socket "$T/none.sock" -- /bin/echo ran
	[ "$status" -eq 126 ]
	assert_output --partial "sandbox relay: cannot reach the proxy"
	refute_output --partial "ran"
}
