#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# fs+api's proxy resolves names off its loop (agents/resolver.h,
# agents/netproxy.h invariant 4): a lookup that gets no answer holds up no
# other connection, gets a 502 once the proxy stops waiting, and only
# RESOLVER_MAX_PENDING (16) lookups run at once. The slow resolver is real:
# a network namespace of its own (bwrap) whose resolv.conf names a DNS
# server on its loopback that never answers (tests/helper/dns-blackhole.mjs).
load lib

setup() {
	T=$BATS_TEST_TMPDIR
	export AGENTIC_GIT_HOME=$T/home
	mkdir -p "$AGENTIC_GIT_HOME"
	HELPER=$BATS_TEST_DIRNAME/../helper
	# the client's `lookups N`: waits until the DNS server saw N lookups
	# (one source port each)
	lookups_script='lookups() { for _ in $(seq 400); do
	[ "$(grep ^query '"$T"'/dns.log 2>/dev/null | sort -u | wc -l)" -ge "$1" ] && return
	sleep 0.05; done; echo "only $(grep -c ^query '"$T"'/dns.log) queries"; }'
}

resolver_prereqs() {
	prereq node command -v node
	prereq curl command -v curl
	prereq netns bwrap --unshare-user --unshare-net --cap-add CAP_NET_BIND_SERVICE \
		--dev-bind / / -- /bin/true
}

# the proxy and its fake cage (the relay, then the client script $1),
# with the HTTP server A and the silent DNS server, in a namespace of their
# own; glibc is told to wait long, so the proxy's own bound is what ends
# the lookup
in_netns() {
	echo "nameserver 127.0.0.1" >"$T/resolv.conf"
	cat >"$T/inner.sh" <<INNER
set -u
exec 8> >(exec node "$HELPER/http-udp-server.mjs" --name A --port-file "$T/A.port" --log "$T/A.log" --lifetime 120 >/dev/null 2>&1)
exec 9> >(exec node "$HELPER/dns-blackhole.mjs" --log "$T/dns.log" --lifetime 120 >/dev/null 2>&1)
for _ in \$(seq 200); do
	[ -s "$T/A.port" ] && grep -q listening "$T/dns.log" 2>/dev/null && break
	sleep 0.05
done
export PORT=\$(cat "$T/A.port")
RES_OPTIONS="timeout:30 attempts:2" "$AG_BIN" sandbox proxy --socket "$T/p.sock" \
	--allow slow.example.com:80 --allow "127.0.0.1:\$PORT" --allow "dual.example.com:\$PORT" \
	--home "$AGENTIC_GIT_HOME" --agent slow -- \
	"$AG_BIN" sandbox relay --port 3128 --socket "$T/p.sock" -- /bin/sh "$T/client.sh"
INNER
	printf '%s\n' "$1" >"$T/client.sh"
	local hosts=()
	[ ! -e "$T/hosts" ] || hosts=(--bind "$T/hosts" /etc/hosts)
	bwrap --unshare-user --unshare-net --cap-add CAP_NET_BIND_SERVICE \
		--dev-bind / / --bind "$T/resolv.conf" /etc/resolv.conf "${hosts[@]}" \
		-- /bin/bash "$T/inner.sh"
}

@test "fs+api resolver: a lookup without an answer stalls no other request, then gets a 502" {
	resolver_prereqs
	run in_netns "$lookups_script"'
curl -sS -i -x http://127.0.0.1:3128 http://slow.example.com/ >'"$T"'/slow.out 2>&1 &
slow=$!
lookups 1
curl -sS -x http://127.0.0.1:3128 "http://127.0.0.1:$PORT/fast"; echo
kill -0 $slow && echo "slow: still waiting"
wait $slow
cat '"$T"'/slow.out'
	refute_output --partial "queries"
	assert_line "hello from A"
	assert_line "slow: still waiting"
	assert_output --partial "HTTP/1.1 502 Bad Gateway"
	assert_output --partial "cannot resolve allowed host 'slow.example.com:80': no answer within 10 s"
	run jq -rs '[.[] | select(.event == "net_deny" and .host == "slow.example.com")] | length' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output 1
}

@test "fs+api resolver: past 16 lookups at once the next one is refused at once" {
	resolver_prereqs
	run in_netns "$lookups_script"'
for i in $(seq 16); do
	curl -sS -o /dev/null -x http://127.0.0.1:3128 http://slow.example.com/ &
done
lookups 16
curl -sS -i -x http://127.0.0.1:3128 http://slow.example.com/17th
# an address literal needs no lookup: still served
curl -sS -x http://127.0.0.1:3128 "http://127.0.0.1:$PORT/literal"; echo
kill $(jobs -p) 2>/dev/null; true'
	refute_output --partial "queries"
	assert_output --partial "HTTP/1.1 502 Bad Gateway"
	assert_output --partial "cannot resolve allowed host 'slow.example.com:80': too many name lookups pending"
	assert_line "hello from A"
}

@test "fs+api resolver: every address of a name is tried in turn, so an unreachable IPv6 one does not end the request" {
	resolver_prereqs
	# as on a Debian machine, the name has an IPv6 address first; the
	# server listens on 127.0.0.1 only, so ::1 refuses the connection
	printf '::1\tdual.example.com\n127.0.0.1\tdual.example.com\n' >"$T/hosts"
	run in_netns 'getent ahosts dual.example.com | head -1
curl -sS -x http://127.0.0.1:3128 "http://dual.example.com:$PORT/dual"; echo
curl -sS -p -x http://127.0.0.1:3128 "http://dual.example.com:$PORT/dual-tunnel"; echo'
	# the resolver's first answer is the IPv6 one (else this proves nothing)
	assert_line --index 0 --regexp '^::1 '
	assert_line "hello from A"
	refute_output --partial "cannot connect"
	run grep -c "^http GET /dual" "$T/A.log"
	assert_output 2
}
