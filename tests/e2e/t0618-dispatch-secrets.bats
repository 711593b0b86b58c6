#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The scoped-token hook (seed §8, PRODUCT.md §7): a secret's value comes
# from a command agentic-git runs outside the cage once per dispatch
# target, with that target's repo, head, base and key and its
# AGENTIC_GIT_TARGET_* variables; its output is used for that target only
# and never stored; its failure stops that target alone.
# fleet/agent-secrets.h 1-3, fleet/dispatch.c read_secrets().
load lib
load dispatch
load sandbox_cases
load dispatch_sandbox
load secrets

setup() {
	dsb_setup
	# b and c start from the advanced main: nothing to rebase
	dsp_branch feat/b
	dsp_branch feat/c
	prereq node command -v node
	prereq curl command -v curl
	prereq openssl command -v openssl
}

teardown() { vendors_stop; }

# mint.sh: a token per target, or a failure for the key "c"; it notes its
# arguments, the target's variables and its mount namespace.
mint_script() {
	cat >"$T/mint.sh" <<-EOS
	#!/bin/bash
	echo "args=\$* key=\$AGENTIC_GIT_TARGET_KEY head=\$AGENTIC_GIT_TARGET_HEAD base=\$AGENTIC_GIT_TARGET_BASE repo=\$AGENTIC_GIT_TARGET_REPO ns=\$(readlink /proc/self/ns/mnt) home=\${HOME:-}" >>"$T/mint.log"
	[ "\$4" = c ] && { echo "no token for c" >&2; exit 1; }
	tok=ghs-agtest-\$(od -An -N20 -tx1 /dev/urandom | tr -d ' \\n')
	echo "\$tok" >>"$T/tokens"
	echo "  \$tok  "
	EOS
	chmod +x "$T/mint.sh"
	# the agent: uses its token through the proxy, then resolves
	cat >"$T/agent.sh" <<-EOS
	#!/bin/bash
	echo "PH:\$GH_TOKEN"
	curl -sS -H "Authorization: token \$GH_TOKEN" "https://127.0.0.1:$PORT_V/repos/\$AGENTIC_GIT_TARGET_KEY" >/dev/null
	exec "$AGENTS/resolve.sh"
	EOS
	chmod +x "$T/agent.sh"
}

@test "scoped token: minted outside once per target with its variables, used once, stored nowhere; a failure stops that target alone" {
	sbx_prereq bwrap
	# $HOME is empty in the cage: the workspace carries this identity
	"$REAL_GIT" config --global user.name "Operator Name"
	"$REAL_GIT" config --global user.email operator@example.com
	test_ca
	vendor V --cert "$T/srv.pem" --key "$T/srv.key"
	mint_script
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	default_agent: boxed
	sandbox_backend: bwrap
	tls_ca_file: $T/ca.pem
	agents:
	  boxed:
	    command: [$T/agent.sh]
	    prompt_via: stdin
	    env: [REAL_GIT]
	    ro_binds: [$AGENTS]
	    sandbox: fs+api
	    allow_hosts: ["127.0.0.1:$PORT_V"]
	    secrets:
	      - name: GH_TOKEN
	        command: ["$T/mint.sh", "{repo}", "{head}", "{base}", "{key}"]
	        hosts: ["127.0.0.1:$PORT_V"]
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	printf 'targets:\n' >"$T/targets.yaml"
	for k in a b c; do
		printf '  - {repo: %s, head: feat/%s, base: main, key: %s}\n' "$REPO" "$k" "$k" >>"$T/targets.yaml"
	done
	run dispatch --targets "$T/targets.yaml" --task resolve-conflicts
	assert_failure 4
	# a and b ran with their own token; c stopped, with the reason
	[ "$(meta a status)" = pushed ]
	[ "$(meta b status)" = no-change ]
	[ "$(meta c status)" = error ]
	grep -q "profile 'boxed': secret 'GH_TOKEN': its command '$T/mint.sh' exited 1" "$(run_dir)/c.meta.yaml"
	[ ! -e "$(run_dir)/c.stdout.log" ] || [ ! -s "$(run_dir)/c.stdout.log" ]
	# once per target, with that target's values, outside the cage
	run wc -l <"$T/mint.log"
	assert_output 3
	ns=$(readlink /proc/self/ns/mnt)
	for k in a b c; do
		grep -Fqx "args=$REPO feat/$k main $k key=$k head=feat/$k base=main repo=$REPO ns=$ns home=$HOME" "$T/mint.log"
	done
	# the vendor saw each target's own token (trimmed), the agents only
	# their placeholders
	run jq -rs '[.[] | .headers.authorization] | sort | join(",")' "$T/V.log"
	assert_output "$(sed 's/^/token /' "$T/tokens" | sort | paste -sd,)"
	grep -q '^PH:agentic-git-secret-GH_TOKEN-[0-9a-f]\{32\}$' "$(run_dir)/a.stdout.log"
	# no token anywhere in the run dir, the journal, the logs, byte for byte
	while read -r tok; do
		run grep -rlF "$tok" "$AGENTIC_GIT_HOME"
		assert_output ""
	done <"$T/tokens"
	[ "$(wc -l <"$T/tokens")" = 2 ]
}

@test "scoped token: summarize runs the command once, outside, with {key} summarize; a failure runs nothing" {
	sbx_prereq bwrap
	test_ca
	vendor V --cert "$T/srv.pem" --key "$T/srv.key"
	mint_script
	printf '#!/bin/sh\ncurl -sS -H "Authorization: token $GH_TOKEN" "https://127.0.0.1:%s/summary" >/dev/null\necho "summary with ${GH_TOKEN%%%%-*}"\n' "$PORT_V" >"$T/sum-agent.sh"
	chmod +x "$T/sum-agent.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: bwrap
	tls_ca_file: $T/ca.pem
	agents:
	  sum:
	    command: [$T/sum-agent.sh]
	    prompt_via: stdin
	    env: []
	    sandbox: fs+api
	    allow_hosts: ["127.0.0.1:$PORT_V"]
	    secrets:
	      - name: GH_TOKEN
	        command: ["$T/mint.sh", "{repo}", "{head}", "{base}", "{key}"]
	        hosts: ["127.0.0.1:$PORT_V"]
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	echo "a run's report" >"$T/in.txt"
	run "$AG_BIN" summarize --profile sum --input "$T/in.txt"
	assert_success
	assert_output "summary with agentic"
	run cat "$T/mint.log"
	assert_output "args=   summarize key= head= base= repo= ns=$(readlink /proc/self/ns/mnt) home=$HOME"
	run jq -r '.headers.authorization' "$T/V.log"
	assert_output "token $(cat "$T/tokens")"
	# the key "c" fails: nothing runs
	sed -i 's/"{key}"\]/"c"]/' "$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" summarize --profile sum --input "$T/in.txt"
	assert_failure
	# the command's own stderr is agentic-git's, then the one line
	assert_line "agentic-git: profile 'sum': secret 'GH_TOKEN': its command '$T/mint.sh' exited 1; nothing was run"
	run jq -s 'length' "$T/V.log"
	assert_output 1
}
