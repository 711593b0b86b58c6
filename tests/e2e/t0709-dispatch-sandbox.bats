#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch runs a profile's agent in the sandbox the profile asks for, in
# the target's private workspace (fleet/dispatch.h invariant 5,
# fleet/agent-sandbox.h): real bwrap and real Landlock, a real rebase
# conflict resolved and pushed, verify_command in the same sandbox, the
# meta.yaml sandbox field, a refusal per target, warn-run. Escapes: t0710;
# the supervisor's kill: t0711.
load lib
load dispatch
load sandbox_cases
load dispatch_sandbox

setup() {
	dsb_setup
}

# resolve_case BACKEND POLICY
resolve_case() {
	local b=$1 p=$2 m
	sbx_prereq "$b"
	# no GIT_AUTHOR_*/GIT_COMMITTER_* for the agent, and $HOME is empty in
	# the cage: the workspace carries the operator's identity (fleet/workspace.h)
	"$REAL_GIT" config --global user.name "Operator Name"
	"$REAL_GIT" config --global user.email operator@example.com
	DSB_ENV="[REAL_GIT, SBX_TOKEN]" boxed_config "$b" "$p" "$AGENTS/resolve.sh" \
		"dispatch: {verify_command: [$AGENTS/caged-verify.sh, $HOME/.ssh/id_rsa]}"
	SBX_TOKEN=tok-s3cr3t-value run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(meta repo-feat-a sandbox)" = "$p ($b)" ]
	# the real conflict was resolved inside the cage and pushed
	"$REAL_GIT" --git-dir="$ORIGIN" merge-base --is-ancestor main feat/a
	"$REAL_GIT" --git-dir="$ORIGIN" show feat/a:CHANGELOG | grep -q "main entry"
	"$REAL_GIT" --git-dir="$ORIGIN" show feat/a:CHANGELOG | grep -q "feature feat/a"
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%cn feat/a)" = "Operator Name" ]
	# verify_command ran in the same sandbox: it could not read the key
	m=$(run_dir)/repo-feat-a.meta.yaml
	grep -A1 'name: verify_command$' "$m" | grep -q 'result: pass$'
	# the recorded argv is the wrapper's; no environment value in it
	! grep -q tok-s3cr3t-value "$m"
	grep -q '^  - "SBX_TOKEN"$' "$m"
	if [ "$b" = bwrap ]; then
		grep -q '"--unshare-all"' "$m"
		grep -q '"<redacted>"' "$m"
	else
		grep -q '^  - "--no-net"$\|^  - "--net"$' "$m"
	fi
	# nothing left behind: workspace, binding, scratch dirs
	[ ! -e "$(run_dir)/work/repo-feat-a" ]
	[ -z "$(ls "$(run_dir)/scratch" 2>/dev/null)" ]
}

@test "t0709.1 bwrap fs+no-net: a real rebase conflict resolved in the sandbox is pushed" {
	resolve_case bwrap fs+no-net
}

@test "t0709.2 landlock fs-only: a real rebase conflict resolved in the sandbox is pushed" {
	resolve_case landlock fs-only
}

@test "t0709.3 control: without a sandbox the same verify_command reads the key and blocks" {
	boxed_config auto none "$AGENTS/resolve.sh" "dispatch: {verify_command: [$AGENTS/caged-verify.sh, $HOME/.ssh/id_rsa]}"
	before=$(origin_sha feat/a)
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	[ "$status" -eq 4 ]
	[ "$(meta repo-feat-a status)" = blocked ]
	[ "$(meta repo-feat-a sandbox)" = none ]
	grep -A1 'name: verify_command$' "$(run_dir)/repo-feat-a.meta.yaml" | grep -q 'result: fail$'
	[ "$(origin_sha feat/a)" = "$before" ]
}

@test "t0709.4 a sandbox the host cannot give refuses that target: recorded, nothing pushed" {
	for b in bwrap landlock; do
		# feat/b-$b conflicts with main like feat/a
		"$REAL_GIT" -C "$REPO" push -q origin "origin/feat/a:refs/heads/feat/b-$b"
		printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: boxed}\n  - {repo: %s, head: feat/b-%s, base: main, key: plain, profile: plain}\n' \
			"$REPO" "$REPO" "$b" >"$T/t.yaml"
		boxed_config "$b" fs+no-net "$AGENTS/resolve.sh"
		before=$(origin_sha feat/a)
		AGENTIC_GIT_SANDBOX_UNAVAILABLE=$b run dispatch --targets "$T/t.yaml" --task resolve-conflicts
		[ "$status" -eq 4 ]
		assert_output --partial "target 'boxed': profile 'boxed' requires sandbox 'fs+no-net': sandbox 'fs+no-net' cannot be provided on this host (backend $b)"
		[ "$(meta boxed status)" = sandbox-refused ]
		[ "$(meta boxed exit_code)" = null ]
		grep -q 'requires sandbox' "$(run_dir)/boxed.meta.yaml"
		grep -q 'sandbox-refused.*boxed\|boxed.*sandbox-refused' "$(run_dir)/summary.md"
		[ "$(origin_sha feat/a)" = "$before" ]
		[ ! -e "$(run_dir)/work/boxed" ]
		[ ! -e "$(run_dir)/boxed.stdout.log" ]
		# the other target, unsandboxed by its profile, ran and pushed
		[ "$(meta plain status)" = pushed ]
		[ "$(meta plain sandbox)" = none ]
	done
	# no session left; the probe's cache may be there (the cage of our
	# own git probed bubblewrap, docs/sandbox.md "The boundary rule")
	[ -z "$(ls "$AGENTIC_GIT_HOME/runtime" | grep -vx 'sandbox-probe.*')" ]
}

@test "t0709.5 warn-run: runs unsandboxed, warning in events and on stderr, exit 4 (attention)" {
	boxed_config auto fs+no-net "$AGENTS/resolve.sh" "sandbox_fallback: warn-run"
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	[ "$status" -eq 4 ]
	assert_output --partial "ran UNSANDBOXED"
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(meta repo-feat-a sandbox)" = "none (warn-run)" ]
	events | grep '"event":"sandbox_downgraded"' | grep '"subcommand":"dispatch"' |
		grep -q '"requested_policy":"fs+no-net"'
}

@test "t0709.6 --dry-run names the sandbox each target asks for and creates nothing" {
	boxed_config auto fs+no-net "$AGENTS/resolve.sh"
	run dispatch --dry-run --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	assert_success
	assert_output --partial "would dispatch repo-feat-a: $REPO feat/a onto main (prompt"
	assert_output --partial "sandbox fs+no-net)"
	run dispatch --dry-run --json --profile plain --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	assert_success
	[ "$(jq -r '.targets[0].sandbox' <<<"$output")" = none ]
	[ ! -e "$AGENTIC_GIT_HOME/runs" ]
}

# summary_agent: an agent that reports what it could reach, then answers
summary_agent() {
	cat >"$T/answer.sh" <<-'SH'
		#!/bin/sh
		cat >/dev/null
		cat "$ESC_KEY" 2>/dev/null && echo "LEAK: read the key"
		touch "$ESC_OUT/summarize-was-here" 2>/dev/null && echo "LEAK: wrote outside"
		[ -n "${SBX_TOKEN:-}" ] && echo "LEAK: inherited a secret"
		[ -z "$(ls -A .)" ] && echo "cwd: empty"
		echo summary-answer
	SH
	chmod +x "$T/answer.sh"
	echo "some input" >"$T/in.txt"
	export ESC_KEY=$HOME/.ssh/id_rsa ESC_OUT=$T/outside
}

@test "t0709.7 summarize runs a sandboxed profile in its sandbox, with no repository and no secret" {
	summary_agent
	for b in bwrap landlock; do
		sbx_prereq "$b"
		for p in fs-only fs+no-net; do
			DSB_ENV="[ESC_KEY, ESC_OUT]" boxed_config "$b" "$p" "$T/answer.sh"
			SBX_TOKEN=tok-s3cr3t-value run "$AG_BIN" summarize --input "$T/in.txt"
			assert_success
			assert_output --partial summary-answer
			assert_output --partial "cwd: empty"
			refute_output --partial LEAK
			[ ! -e "$T/outside/summarize-was-here" ]
			# the scratch directory is gone
			[ -z "$(ls -A "$AGENTIC_GIT_HOME/summarize")" ]
		done
	done
	# the same agent unsandboxed (profile `plain`) does reach the key: the
	# probes can fail
	DSB_ENV="[ESC_KEY, ESC_OUT]" boxed_config auto fs+no-net "$T/answer.sh"
	run "$AG_BIN" summarize --profile plain --input "$T/in.txt"
	assert_success
	assert_output --partial "LEAK: read the key"
}

@test "t0709.8 summarize: a sandbox the host cannot give is refused with nothing run; warn-run downgrades it" {
	summary_agent
	DSB_ENV="[ESC_KEY, ESC_OUT]" boxed_config auto fs+no-net "$T/answer.sh"
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock must_fail "$AG_BIN" summarize --input "$T/in.txt"
	assert_output --partial "profile 'boxed' requires sandbox 'fs+no-net'"
	refute_output --partial summary-answer
	[ ! -e "$AGENTIC_GIT_HOME/summarize" ] || [ -z "$(ls -A "$AGENTIC_GIT_HOME/summarize")" ]
	DSB_ENV="[ESC_KEY, ESC_OUT]" boxed_config auto fs+no-net "$T/answer.sh" "sandbox_fallback: warn-run"
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run "$AG_BIN" summarize --input "$T/in.txt"
	assert_success
	assert_output --partial "UNSANDBOXED"
	assert_output --partial summary-answer
	events | grep '"event":"sandbox_downgraded"' | grep -q '"subcommand":"summarize"'
}

@test "t0709.9 bwrap fs+api: resolved and pushed; meta and summary count the proxy's connections and name the refused host" {
	sbx_prereq bwrap
	prereq node command -v node
	prereq curl command -v curl
	net_server A
	net_server B
	DSB_ENV="[REAL_GIT, PORT_A, PORT_B]" boxed_config bwrap fs+api "$AGENTS/fetch-resolve.sh"
	sed -i "s|^    sandbox: fs+api|&\n    allow_hosts: [\"127.0.0.1:$PORT_A\"]|" "$AGENTIC_GIT_HOME/config.yaml"
	"$REAL_GIT" config --global user.name "Operator Name"
	"$REAL_GIT" config --global user.email operator@example.com
	export PORT_A PORT_B
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	net_server_stop
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(meta repo-feat-a sandbox)" = "fs+api (bwrap)" ]
	[ "$(meta repo-feat-a net_allow)" = 1 ]
	[ "$(meta repo-feat-a net_deny)" = 1 ]
	grep -A1 '^net_denied_hosts:$' "$(run_dir)/repo-feat-a.meta.yaml" | grep -qx "  - \"127.0.0.1:$PORT_B\""
	grep -q "network: 1 allowed, 1 refused (\`127.0.0.1:$PORT_B\`)" "$(run_dir)/summary.md"
	grep -q "A:hello from A" "$(run_dir)/repo-feat-a.stdout.log"
	grep -q "B:agentic-git: host '127.0.0.1:$PORT_B' is not in this agent's allow_hosts" "$(run_dir)/repo-feat-a.stdout.log"
	[ ! -s "$T/B.log" ]
}
