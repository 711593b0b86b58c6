#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Secrets stay outside the cage (PRODUCT.md §7, §8): under fs+api the
# agent's variable holds a placeholder and the proxy puts the value into
# requests to the secret's hosts only, terminating TLS with a session CA.
# A fake vendor over HTTPS (a test CA standing in for the public one,
# through tls_ca_file) sees the real key; the agent, searching its
# environment, every process's, its own memory and every file it can
# read, finds nothing; a second allowed host gets the placeholder.
# agents/secrets.h 1-4, agents/httpstream.h 1-3, proxy/nettls.h 1-3,
# agents/netproxy.h 6, fleet/agent-secrets.h 1-3.
load lib
load sandbox_cases
load secrets

setup() {
	sbx_setup
	prereq node command -v node
	prereq curl command -v curl
	prereq openssl command -v openssl
	SCAN_DIR=$AG_BUILD/tests/helper
	VALUE=sk-agtest-$(openssl rand -hex 20)
	export VENDOR_KEY=$VALUE
}

teardown() { vendors_stop; }

# write_config SANDBOX [extra top-level lines]: the scripted agent with
# one secret for the vendor.
write_config() {
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: bwrap
	${2:-}
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "{prompt}"]
	    sandbox: $1
	    ro_binds: ["$SCAN_DIR"]
	    allow_hosts: ["127.0.0.1:$PORT_V", "127.0.0.1:$PORT_O"]
	    secrets:
	      - name: VENDOR_KEY
	        from: env
	        hosts: ["127.0.0.1:$PORT_V"]
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

# the prompt-injected agent: looks for the key everywhere, then sends it
agent_script() {
	mkdir -p "$T/bin"
	cat >"$T/bin/agent.sh" <<-EOS
	#!/bin/bash
	set -- \$1
	V=https://127.0.0.1:\$1 O=http://127.0.0.1:\$2
	echo "PLACEHOLDER:\$VENDOR_KEY"
	"$SCAN_DIR/secret-scan" sk-agtest- 40 / 2>&1 | sed 's/^/SCAN:/'
	# two requests on one kept-alive connection, HTTP/2 asked for
	curl -sS --http2 -H "x-api-key: \$VENDOR_KEY" \\
		-H "Authorization: Bearer \$VENDOR_KEY" -w 'VERSION:%{http_version}\n' \\
		"\$V/v1/first" "\$V/v1/second"
	# a big upload, chunked, and a stream coming back
	head -c 3000000 /dev/urandom >/tmp/upload.bin
	curl -sS -H "api-key: \$VENDOR_KEY" -H "Transfer-Encoding: chunked" \\
		--data-binary @/tmp/upload.bin "\$V/upload" | sed 's/^/UPLOAD:/'
	curl -sS -N "\$V/sse" | grep -c '^data: event' | sed 's/^/SSE:/'
	# the placeholder in the request line and as a header name stays
	curl -sS -H "\$VENDOR_KEY: x" "\$V/echo/\$VENDOR_KEY" >/dev/null
	# a second allowed host, no secret for it
	curl -sS -H "x-api-key: \$VENDOR_KEY" "\$O/other" >/dev/null
	curl -sS -H "x-api-key: \$VENDOR_KEY" -p "\$O/tunnel" >/dev/null
	echo DONE
	EOS
	chmod +x "$T/bin/agent.sh"
}

run_scripted() {
	cd "$REPO"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted \
		--prompt "$PORT_V $PORT_O"
}

# header NAME PATH: what the vendor saw of header NAME on request PATH
header() {
	jq -rs --arg h "$1" --arg p "$2" '[.[] | select(.path == $p) | .headers[$h]] | first // ""' "$T/V.log"
}

# nothing of the value anywhere agentic-git writes, byte for byte
assert_value_nowhere() {
	run grep -rlF "$VALUE" "$AGENTIC_GIT_HOME" "$REPO"
	assert_output ""
	refute_output --partial "$VALUE"
}

@test "secrets: the vendor sees the key, the agent only its placeholder, wherever it looks" {
	sbx_prereq bwrap
	test_ca
	vendor V --cert "$T/srv.pem" --key "$T/srv.key"
	vendor O
	agent_script
	write_config fs+api "tls_ca_file: $T/ca.pem"
	run_scripted
	assert_success
	refute_output --partial "$VALUE"
	ph=$(sed -n 's/^PLACEHOLDER://p' <<<"$output")
	[[ $ph =~ ^agentic-git-secret-VENDOR_KEY-[0-9a-f]{32}$ ]]
	# the search found nothing: environment, processes, memory, files
	assert_line --regexp '^SCAN:scanned: [0-9]+ files, [0-9]+ bytes of memory, [0-9]+ processes$'
	refute_output --partial "SCAN:found"
	# the vendor got the value in every header the client put it in
	[ "$(header x-api-key /v1/first)" = "$VALUE" ]
	[ "$(header authorization /v1/first)" = "Bearer $VALUE" ]
	[ "$(header x-api-key /v1/second)" = "$VALUE" ]
	[ "$(header api-key /upload)" = "$VALUE" ]
	# keep-alive through the terminated connection, HTTP/1.1 only
	run jq -rs '[.[] | select(.path == "/v1/first" or .path == "/v1/second") | .socket] | unique | length' "$T/V.log"
	assert_output 1
	run jq -rs '[.[] | select(.path == "/upload") | .body_bytes] | first' "$T/V.log"
	assert_output 3000000
	# not the request line, not a header name
	run jq -rs '[.[] | select(.path | startswith("/echo/"))] | first | .path' "$T/V.log"
	assert_output "/echo/$ph"
	run jq -rs --arg ph "$ph" '[.[] | select(.path | startswith("/echo/"))] | first | .headers | has($ph | ascii_downcase)' "$T/V.log"
	assert_output true
	# the second host: the placeholder, through plain HTTP and a tunnel
	run jq -rs '[.[] | .headers["x-api-key"]] | unique | join(",")' "$T/O.log"
	assert_output "$ph"
	# events name the secret, never its value
	run jq -rs --argjson p "$PORT_V" '[.[] | select(.event == "net_allow" and .port == $p) | (.secrets // [])[]] | unique | join(",")' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output "VENDOR_KEY"
	run jq -rs --argjson p "$PORT_O" '[.[] | select(.event == "net_allow" and .port == $p and .secrets)] | length' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output 0
	assert_value_nowhere
	# the CA bundle is gone with the proxy
	run find "$AGENTIC_GIT_HOME/runtime/net" -name '*.pem'
	assert_output ""
}

@test "secrets: the stream and the version the agent saw" {
	sbx_prereq bwrap
	test_ca
	vendor V --cert "$T/srv.pem" --key "$T/srv.key"
	vendor O
	agent_script
	write_config fs+api "tls_ca_file: $T/ca.pem"
	run_scripted
	assert_success
	assert_line "VERSION:1.1"
	refute_line --regexp 'VERSION:2'
	assert_line "UPLOAD:{\"ok\":true,\"body_bytes\":3000000}"
	assert_line "SSE:5"
	assert_line DONE
}

@test "secrets: a vendor whose certificate does not verify is refused with a 502, the key not sent" {
	sbx_prereq bwrap
	test_ca
	vendor V --cert "$T/srv.pem" --key "$T/srv.key"
	vendor O
	agent_script
	write_config fs+api # no tls_ca_file: the test CA is not trusted
	run_scripted
	refute_output --partial "$VALUE"
	run jq -rs '[.[] | select(.path == "/v1/first")] | length' "$T/V.log"
	assert_output 0
	run jq -rs --argjson p "$PORT_V" '[.[] | select(.event == "net_deny" and .port == $p) | .reason] | first' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output --partial "cannot speak TLS with allowed host '127.0.0.1:$PORT_V': certificate verify failed"
	assert_value_nowhere
}

@test "secrets: the vendor's session resumes for its own host:port only, and a changed certificate is refused" {
	sbx_prereq bwrap
	test_ca
	# an impostor's certificate for the same address, from no trusted CA
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$T/evil.key" -out "$T/evil.pem" -days 2 -subj "/CN=127.0.0.1" \
		-addext subjectAltName=IP:127.0.0.1,DNS:localhost 2>/dev/null
	vendor V --cert "$T/srv.pem" --key "$T/srv.key" \
		--swap-cert "$T/evil.pem" --swap-key "$T/evil.key"
	vendor O
	mkdir -p "$T/bin"
	# one connection per request; the same vendor by address, then by name
	cat >"$T/bin/agent.sh" <<-EOS
	#!/bin/sh
	set -- \$1
	for p in r1 r2; do curl -sS -H "x-api-key: \$VENDOR_KEY" "https://127.0.0.1:\$1/\$p" >/dev/null; done
	curl -sS -H "x-api-key: \$VENDOR_KEY" "https://localhost:\$1/r3" >/dev/null
	curl -sS "https://127.0.0.1:\$1/swap-cert" >/dev/null
	curl -sS -H "x-api-key: \$VENDOR_KEY" "https://127.0.0.1:\$1/r4" >/dev/null
	echo "R4:\$?"
	EOS
	chmod +x "$T/bin/agent.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: bwrap
	tls_ca_file: $T/ca.pem
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "{prompt}"]
	    sandbox: fs+api
	    allow_hosts: ["127.0.0.1:$PORT_V", "localhost:$PORT_V"]
	    secrets:
	      - name: VENDOR_KEY
	        from: env
	        hosts: ["127.0.0.1:$PORT_V", "localhost:$PORT_V"]
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	run_scripted
	refute_output --partial "$VALUE"
	refute_line "R4:0"
	# resumed: the second connection to 127.0.0.1, never the first to
	# localhost (the same server, another host:port to the proxy)
	run jq -rs '[.[] | select(.path | test("^/r[123]$")) | "\(.path)=\(.resumed)"] | join(" ")' "$T/V.log"
	assert_output "/r1=false /r2=true /r3=false"
	[ "$(header x-api-key /r2)" = "$VALUE" ]
	# the changed server could not resume: full handshake, refused
	run jq -rs '[.[] | select(.path == "/r4")] | length' "$T/V.log"
	assert_output 0
	run jq -rs --argjson p "$PORT_V" '[.[] | select(.event == "net_deny" and .port == $p) | .reason] | first' \
		"$AGENTIC_GIT_HOME/fleet_events.jsonl"
	assert_output --partial "cannot speak TLS with allowed host '127.0.0.1:$PORT_V': certificate verify failed"
	assert_value_nowhere
}

@test "secrets: without fs+api the value is in the agent's environment, and agents show says so" {
	sbx_prereq bwrap
	vendor V
	vendor O
	mkdir -p "$T/bin"
	# the same search as above finds it here (the search's control)
	cat >"$T/bin/agent.sh" <<-EOS
	#!/bin/sh
	echo "KEY:\$VENDOR_KEY"
	echo "\$VENDOR_KEY" >/tmp/key.txt
	"$SCAN_DIR/secret-scan" sk-agtest- 40 /tmp | sed 's/^/SCAN:/'
	EOS
	chmod +x "$T/bin/agent.sh"
	write_config fs-only
	run "$AG_BIN" agents show scripted
	assert_line --partial "secret:     VENDOR_KEY (env) EXPOSED"
	run_scripted
	assert_success
	assert_line "KEY:$VALUE"
	assert_line "SCAN:found: environment"
	assert_line --regexp '^SCAN:found: /proc/[0-9]+/environ$'
	assert_line "SCAN:found: own memory"
	assert_line "SCAN:found: /tmp/key.txt"
	write_config fs+api
	run "$AG_BIN" agents show scripted
	assert_line "secret:     VENDOR_KEY (env) for 127.0.0.1:$PORT_V"
}

# bad_input WHAT: the run fails in one line naming the profile (or the
# config's position), and nothing was created or launched.
bad_input() {
	run_scripted
	assert_failure
	assert_output --partial "$1"
	[ "${#lines[@]}" -le 2 ]
	[ ! -e "$AGENTIC_GIT_HOME/worktrees/a1" ]
	[ ! -e "$T/launched" ]
}

@test "secrets: bad input is one line naming the profile, and nothing is launched" {
	vendor V
	vendor O
	mkdir -p "$T/bin"
	printf '#!/bin/sh\ntouch "%s/launched"\n' "$T" >"$T/bin/agent.sh"
	chmod +x "$T/bin/agent.sh"
	# a host the proxy would never reach: a config error with its place
	write_config fs+api
	sed -i "s|hosts: \[\"127.0.0.1:$PORT_V\"\]|hosts: [\"api.example.com\"]|" "$AGENTIC_GIT_HOME/config.yaml"
	bad_input "agents.scripted.secrets[0].hosts: 'api.example.com' is not in agents.scripted.allow_hosts"
	assert_output --regexp 'config.yaml:[0-9]+:[0-9]+: '
	# the variable is not set
	write_config fs+api
	unset VENDOR_KEY
	bad_input "profile 'scripted': secret 'VENDOR_KEY': 'VENDOR_KEY' is not set in agentic-git's environment (from: env)"
	# an unreadable file
	sed -i "s|from: env|from: file:$T/missing-key|" "$AGENTIC_GIT_HOME/config.yaml"
	bad_input "profile 'scripted': secret 'VENDOR_KEY': cannot read 'file:$T/missing-key': No such file or directory"
	# a command that fails, one that prints nothing
	sed -i "s|from: file:$T/missing-key|command: [/bin/false]|" "$AGENTIC_GIT_HOME/config.yaml"
	bad_input "profile 'scripted': secret 'VENDOR_KEY': its command '/bin/false' exited 1"
	sed -i "s|command: \[/bin/false\]|command: [/bin/true]|" "$AGENTIC_GIT_HOME/config.yaml"
	bad_input "profile 'scripted': secret 'VENDOR_KEY': its command '/bin/true' printed nothing"
	# a value that would break a request's head
	printf 'line1\nline2\n' >"$T/two-lines"
	sed -i "s|command: \[/bin/true\]|from: file:$T/two-lines|" "$AGENTIC_GIT_HOME/config.yaml"
	bad_input "profile 'scripted': secret 'VENDOR_KEY': its value holds a control character"
}
