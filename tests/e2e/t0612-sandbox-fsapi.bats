#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Policy fs+api with the real bubblewrap: the agent reaches a listed host
# (a loopback HTTP server) only through agentic-git's proxy, and cannot
# reach a second, unlisted one: not through the proxy (403 + net_deny),
# not directly by address (the cage's network namespace has no route),
# not by UDP, not by DNS. Refusals where the host cannot confine the
# network (Landlock, no user namespaces) happen before anything is
# created. agents/sandbox.h invariant 8, agents/netproxy.h 1-5, agents/netlistener.h.
load lib
load sandbox_cases

BACKEND=bwrap

setup() {
	sbx_setup
}

teardown() { net_server_stop; }

two_servers() {
	prereq node command -v node
	prereq curl command -v curl
	net_server A
	net_server B
	# control: both answer outside the sandbox
	run curl -sS --noproxy '*' "http://127.0.0.1:$PORT_A/"
	assert_output "hello from A"
	run curl -sS --noproxy '*' "http://127.0.0.1:$PORT_B/"
	assert_output "hello from B"
	: >"$T/A.log"
	: >"$T/B.log"
}

api() {
	sbx fs+api --allow "127.0.0.1:$PORT_A" --allow "localhost:$PORT_A" "$@"
}

@test "fs+api: the agent's environment names the proxy, NO_PROXY empty" {
	sbx_prereq bwrap
	run sbx fs+api --allow api.example.com -- /usr/bin/env
	assert_success
	assert_line "HTTPS_PROXY=http://127.0.0.1:3128"
	assert_line "https_proxy=http://127.0.0.1:3128"
	assert_line "HTTP_PROXY=http://127.0.0.1:3128"
	assert_line "ALL_PROXY=http://127.0.0.1:3128"
	assert_line "NO_PROXY="
}

@test "fs+api: a listed host is reached through the proxy, plain HTTP and CONNECT" {
	sbx_prereq bwrap
	two_servers
	run api -- curl -sS "http://127.0.0.1:$PORT_A/plain"
	assert_success
	assert_output "hello from A"
	run api -- curl -sS -p "http://127.0.0.1:$PORT_A/tunnel"
	assert_success
	assert_output "hello from A"
	# big bodies both ways, through both kinds of request (netpump.h)
	head -c 300000 /dev/zero >"$WS/body"
	for p in "" -p; do
		run api -- curl -sS -m 60 $p --data-binary @body "http://127.0.0.1:$PORT_A/post"
		assert_output "hello from A, got 300000"
		run api -- /bin/sh -c "curl -sS -m 60 $p http://127.0.0.1:$PORT_A/big | wc -c"
		assert_output 1048576
	done
	# a name is resolved by the proxy, outside the cage
	run api -- curl -sS "http://localhost:$PORT_A/byname"
	assert_output "hello from A"
	run grep -c "^http GET /plain host=127.0.0.1:$PORT_A" "$T/A.log"
	assert_output 1
	run grep -c "^http GET /tunnel" "$T/A.log"
	assert_output 1
	run jq -rs "[.[] | select(.event == \"net_allow\" and .port == $PORT_A)] |
		length == 7 and all(.bytes > 0 and .policy == \"fs+api\" and .disposition == \"info\")" \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output true
}

@test "fs+api: an unlisted host gets 403 naming it and how to allow it, and a net_deny event" {
	sbx_prereq bwrap
	two_servers
	run api -- curl -sS -i "http://127.0.0.1:$PORT_B/secret"
	assert_success
	assert_line --partial "HTTP/1.1 403 Forbidden"
	assert_output --partial "host '127.0.0.1:$PORT_B' is not in this agent's allow_hosts"
	assert_output --partial "to allow it add '127.0.0.1:$PORT_B'"
	refute_output --partial "hello from B"
	run api -- curl -sS -p "http://127.0.0.1:$PORT_B/"
	assert_failure
	assert_output --partial "403"
	# the same host on another port is another host
	run api -- curl -sS "http://localhost:$PORT_B/"
	assert_output --partial "is not in this agent's allow_hosts"
	[ ! -s "$T/B.log" ] || fail "server B was reached: $(cat "$T/B.log")"
	run jq -rs "[.[] | select(.event == \"net_deny\" and .port == $PORT_B)] |
		length == 3 and all(.disposition == \"deny\" and (.reason | test(\"allow_hosts\")))" \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output true
}

@test "fs+api: no direct connection by address, to the host's loopback or out" {
	sbx_prereq bwrap
	two_servers
	run api -- curl -sS --noproxy '*' "http://127.0.0.1:$PORT_A/direct"
	assert_failure
	refute_output --partial "hello from A"
	run api -- curl -sS --noproxy '*' "http://192.0.2.1:$PORT_A/"
	assert_failure
	assert_output --partial "Couldn't connect"
	run api -- "$SBX_HELPER" connect "$PORT_B"
	sbx_denied "connected"
	run grep -c direct "$T/A.log"
	assert_output 0
}

@test "fs+api: no UDP and no DNS out of the cage" {
	sbx_prereq bwrap
	two_servers
	run api -- "$SBX_HELPER" udp "$PORT_B"
	# the datagram goes to the cage's own loopback, never to the host's;
	# a control datagram sent afterwards from outside is the first to land
	run "$SBX_HELPER" udp "$PORT_B"
	assert_output "udp: sent"
	for _ in $(seq 200); do
		grep -q '^udp' "$T/B.log" 2>/dev/null && break
		sleep 0.05
	done
	run grep -c '^udp' "$T/B.log"
	assert_output 1
	# no resolver is reachable: a name that needs DNS does not resolve
	# (the control shows the host resolves it, when it has DNS at all)
	run api -- getent hosts example.com
	assert_failure
	if getent hosts example.com >/dev/null 2>&1; then
		run api -- curl -sS --noproxy '*' http://example.com/
		assert_output --partial "Could not resolve host"
	fi
}

@test "fs+api: hostile requests get a clear HTTP error and an event" {
	sbx_prereq bwrap
	two_servers
	run api -- curl -sS -i -X CONNECT "http://127.0.0.1:3128/" \
		--noproxy '*' --request-target "127.0.0.1:0"
	assert_output --partial "400 Bad Request"
	assert_output --partial "bad port"
	run api -- curl -sS -i --noproxy '*' "http://127.0.0.1:3128/not-a-proxy-request"
	assert_output --partial "400 Bad Request"
	assert_output --partial "not a proxy request"
	run api -- curl -sS -i -H "X-Long: $(head -c 20000 /dev/zero | tr '\0' a)" \
		"http://127.0.0.1:$PORT_A/long"
	assert_output --partial "431"
	run grep -c long "$T/A.log"
	assert_output 0
}

@test "fs+api: a flood of refused requests cannot rotate the journal away: past a burst, a minute's worth of events, the rest counted" {
	local n=600 written suppressed
	sbx_prereq bwrap
	two_servers
	run api -- bash -c 'for i in $(seq '"$n"'); do
		exec 3<>/dev/tcp/127.0.0.1/3128 || exit 1
		printf "CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n" >&3
		read -r -t 5 l <&3; exec 3>&-
		case $l in *403*) ;; *) echo "no 403: $l"; exit 1 ;; esac
	done; echo FLOODED'
	assert_success
	assert_output --partial FLOODED
	written=$(jq -s '[.[] | select(.event == "net_deny" and .host == "evil.example")] | length' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl")
	suppressed=$(jq -s '[.[] | .suppressed // 0] | add' "$AGENTIC_GIT_HOME/fleet_events.jsonl")
	# the burst, then at most a minute's worth (the run may cross a minute)
	[ "$written" -ge 256 ] && [ "$written" -le $((256 + 2 * 60)) ] ||
		fail "written: $written"
	# every refusal is accounted for, the last ones by net_suppressed
	assert_equal "$((written + suppressed))" "$n"
	run jq -s '[.[] | select(.event == "net_suppressed")] | length' "$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output 1
}

@test "fs+api: landlock cannot confine addresses: refused before anything is created" {
	sbx_prereq landlock
	run "$AG_BIN" sandbox run --backend landlock --policy fs+api \
		--workspace "$T/new-ws" --from "$REPO" --head main -- /bin/true
	assert_failure
	assert_output --partial "restricts ports, not addresses"
	[ ! -e "$T/new-ws" ]
	[ ! -e "$AGENTIC_GIT_HOME/runtime/net" ]
	# warn-run: runs unsandboxed, said durably
	run "$AG_BIN" sandbox run --backend landlock --policy fs+api \
		--fallback warn-run --workspace "$WS" -- /bin/true
	[ "$status" -eq 3 ]
	assert_output --partial "ran UNSANDBOXED"
	run jq -rs '[.[] | select(.event == "sandbox_downgraded" and .requested_policy == "fs+api")] | length' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output 1
}

@test "fs+api: without user namespaces it is refused before anything is created" {
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=userns run "$AG_BIN" sandbox run \
		--policy fs+api --workspace "$T/new-ws" --from "$REPO" --head main -- /bin/true
	assert_failure
	assert_output --partial "sandbox 'fs+api' cannot be provided on this host"
	assert_output --partial "user namespaces are unavailable"
	[ ! -e "$T/new-ws" ]
	[ ! -e "$AGENTIC_GIT_HOME/runtime/net" ]
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=userns run "$AG_BIN" sandbox probe --json
	run jq -r '.fs_api.available' <<<"$output"
	assert_output false
}

@test "fs+api: bad allow entries are one clear line, nothing run" {
	run "$AG_BIN" sandbox run --policy fs+api --allow 'bad host!' \
		--workspace "$WS" -- /bin/true
	[ "$status" -eq 2 ]
	assert_output --partial "allow_hosts entry 'bad host!'"
	[ "${#lines[@]}" -eq 1 ]
	run "$AG_BIN" sandbox run --policy fs+api --allow '*.1.2.3' \
		--workspace "$WS" -- /bin/true
	[ "$status" -eq 2 ]
	run "$AG_BIN" sandbox run --policy fs+api --allow 'h:99999' \
		--workspace "$WS" -- /bin/true
	[ "$status" -eq 2 ]
	run "$AG_BIN" sandbox run --policy fs+no-net --allow api.example.com \
		--workspace "$WS" -- /bin/true
	[ "$status" -eq 2 ]
	assert_output --partial "--allow is for --policy fs+api"
	[ ! -e "$AGENTIC_GIT_HOME/runtime/net" ]
	# the Landlock helper never runs fs+api (with its network open)
	run "$AG_BIN" sandbox exec --policy fs+api --net -- /bin/echo ran
	[ "$status" -eq 2 ]
	refute_output --partial "ran"
	# the internal halves refuse bad input before anything runs
	run "$AG_BIN" sandbox proxy --socket relative.sock -- /bin/echo ran
	[ "$status" -eq 2 ]
	refute_output --partial "ran"
	run "$AG_BIN" sandbox proxy --socket "$T/p.sock" --allow 'a b' -- /bin/echo ran
	[ "$status" -eq 2 ]
	[ ! -e "$T/p.sock" ]
	# something that is not a stale socket is never replaced
	echo keep >"$T/file.sock"
	run "$AG_BIN" sandbox proxy --socket "$T/file.sock" -- /bin/echo ran
	[ "$status" -eq 126 ]
	assert_output --partial "exists and is not a socket"
	refute_output --partial "ran"
	grep -qx keep "$T/file.sock"
	run "$AG_BIN" sandbox relay --port 0 --socket /x -- /bin/echo ran
	[ "$status" -eq 2 ]
	refute_output --partial "ran"
}

@test "fs+api: a session (run --profile) reaches its listed host, commits, and its events name the agent" {
	sbx_prereq bwrap
	two_servers
	mkdir -p "$T/bin"
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	set -- $1
	echo "A:$(curl -sS "http://127.0.0.1:$1/session")"
	echo "B:$(curl -sS "http://127.0.0.1:$2/session")"
	echo work >work.txt
	git add -A && git commit -q -m "agent: work" && echo COMMIT:ok
	echo precious >>work.txt
	git reset -q --hard && echo RESET:ok
	EOS
	chmod +x "$T/bin/agent.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: bwrap
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "{prompt}"]
	    env: []
	    sandbox: fs+api
	    allow_hosts: ["127.0.0.1:$PORT_A"]
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" agents show scripted
	assert_line "allow_host: 127.0.0.1:$PORT_A"
	cd "$REPO"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted \
		--prompt "$PORT_A $PORT_B"
	assert_success
	assert_output --partial "A:hello from A"
	assert_output --partial "B:agentic-git: host '127.0.0.1:$PORT_B' is not in this agent's allow_hosts"
	assert_output --partial "agents.scripted.allow_hosts in config.yaml"
	assert_output --partial "COMMIT:ok"
	assert_output --partial "RESET:ok"
	# the branch came back to the operator's clone; the reset was snapshotted
	run "$REAL_GIT" -C "$REPO" log -1 --format=%s feat/x
	assert_output "agent: work"
	run "$AG_BIN" snapshots list --repo "$REPO" --all --agent a1
	assert_output --partial "reset"
	run jq -rs "[.[] | select(.agent == \"a1\" and (.event == \"net_allow\" and .port == $PORT_A
		or .event == \"net_deny\" and .port == $PORT_B))] | length" \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output 2
	# the proxy stopped with the agent, and its socket is gone
	run pgrep -f "agentic-git-proxy --socket $AGENTIC_GIT_HOME/runtime/net/"
	assert_failure
	run find "$AGENTIC_GIT_HOME/runtime/net" -name '*.sock'
	assert_output ""
}

@test "fs+api: presets list their vendor's hosts; a profile's allow_hosts replaces them" {
	run "$AG_BIN" agents show claude
	assert_line "allow_host: api.anthropic.com"
	run "$AG_BIN" agents show codex --json
	run jq -r '.profile.allow_hosts | join(",")' <<<"$output"
	assert_output "api.openai.com,chatgpt.com,auth.openai.com"
	# every preset that needs the network lists its vendor's hosts
	for p in claude codex gemini copilot cursor; do
		run "$AG_BIN" agents show "$p" --json
		jq -e '.profile.allow_hosts | length > 0' <<<"$output" >/dev/null ||
			fail "preset $p lists no allow_hosts"
	done
	run "$AG_BIN" agents show copilot --json
	run jq -r '.profile.allow_hosts | join(",")' <<<"$output"
	assert_output "github.com,api.github.com,*.githubcopilot.com,copilot-proxy.githubusercontent.com,origin-tracker.githubusercontent.com"
	printf 'agents:\n  claude:\n    sandbox: fs+api\n    allow_hosts: ["llm.internal.example:8443"]\n' \
		>"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" agents show claude
	assert_line "allow_host: llm.internal.example:8443"
	refute_line "allow_host: api.anthropic.com"
}
