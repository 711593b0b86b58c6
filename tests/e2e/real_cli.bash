# SPDX-License-Identifier: Apache-2.0
# Shared by the tests that drive the real agent CLIs (t0535 claude, t0536
# codex): the CLIs ci/install-agent-clis.sh installed, the scripted model
# server (tests/helper/model-server.mjs) standing in for the vendor's API
# on 127.0.0.1, and the checks of what the agent did through the shim.

MODEL_SERVER=$BATS_TEST_DIRNAME/../helper/model-server.mjs
# resolved before ag_setup replaces HOME
CLIS=${AG_CLIS_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/agentic-git/agent-clis}/node_modules/.bin

# real_cli_setup BIN: the scratch world and the model's script, or a skip
# naming what is missing. The model leaves the branch, commits, loses an
# edit, then finishes.
real_cli_setup() {
	ag_setup
	"$REAL_GIT" config --global user.name Tester
	"$REAL_GIT" config --global user.email tester@example.com
	prereq "agent-cli-$1 (run ci/install-agent-clis.sh; looked in $CLIS)" test -x "$CLIS/$1"
	prereq node command -v node
	printf '%s\n' 'git checkout main' \
		'echo agent-work >agent.txt && git add -A && git commit -q -m "agent: add agent.txt" && echo COMMITTED' \
		'echo precious-edit >>README.md && git reset -q --hard && echo RESET' \
		>"$T/model.script"
	cd "$REPO"
}

real_cli_teardown() {
	# closing the pipe stops the model server
	[ -z "${MODEL_FD:-}" ] || exec {MODEL_FD}>&-
}

# start_model [--cert PEM --key PEM]: the scripted model server on a
# loopback port of its own choosing (over HTTPS with a certificate);
# sets MODEL_PORT.
start_model() {
	exec {MODEL_FD}> >(exec node "$MODEL_SERVER" --script "$T/model.script" \
		--log "$T/model.log" --port-file "$T/model.port" --lifetime 150 \
		"$@" >"$T/model.out" 2>&1 3>&-)
	for _ in $(seq 200); do
		[ -s "$T/model.port" ] && break
		sleep 0.05
	done
	[ -s "$T/model.port" ] || fail "model server did not start: $(cat "$T/model.out")"
	MODEL_PORT=$(cat "$T/model.port")
}

# start_model_tls: the model server over HTTPS, with a test CA standing in
# for the vendor's public one (secrets.bash test_ca; the config names it
# in tls_ca_file); a fresh key in $KEY that only agentic-git is given.
start_model_tls() {
	prereq openssl command -v openssl
	test_ca
	start_model --cert "$T/srv.pem" --key "$T/srv.key"
	KEY=sk-agtest-$(openssl rand -hex 20)
}

# secret_config PROFILE NAME FROM: fs+api on bwrap, the model's host the
# one allowed, the secret NAME from FROM for it only; tls_ca_file trusts
# the test CA.
secret_config() {
	write_config "$1" fs+api bwrap "    allow_hosts: [\"127.0.0.1:$MODEL_PORT\"]
    secrets:
      - name: $2
        from: \"$3\"
        hosts: [\"127.0.0.1:$MODEL_PORT\"]
${4:-}"
	sed -i "1i tls_ca_file: $T/ca.pem" "$AGENTIC_GIT_HOME/config.yaml"
}

# assert_key_outside HEADER VALUE: every request reached the model with
# VALUE in HEADER, and VALUE is nowhere agentic-git writes (byte for byte)
assert_key_outside() {
	jq -c "{method, path, auth}" "$T/model.log" | sed "s/$KEY/KEY/g" | sort | uniq -c >&2
	jq -e -s --arg h "$1" --arg v "$2" 'map(select(.path | startswith("/v1"))) |
		length >= 1 and all(.auth[$h] == $v)' "$T/model.log"
	run grep -rlF "$KEY" "$AGENTIC_GIT_HOME" "$REPO"
	assert_output ""
}

# write_config PROFILE SANDBOX BACKEND [extra profile lines]
write_config() {
	{
		printf 'sandbox_backend: %s\nagents:\n  %s:\n    sandbox: %s\n' "$3" "$1" "$2"
		[ -z "${4:-}" ] || printf '%s\n' "$4"
	} >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

# run_agent PROFILE AGENT: the preset in a session for AGENT, bounded (the
# CLIs retry an unreachable API for minutes).
run_agent() {
	PATH="$CLIS:$PATH" run timeout -k 5 100 "$AG_BIN" run --agent "$2" \
		--branch "feat/$2" --profile "$1" --prompt "do the scripted task"
}

# tool_result N: what the CLI sent its model as the result of step N (an
# Anthropic tool_result block, an OpenAI function_call_output item or a
# Gemini functionResponse part).
tool_result() {
	jq -rs --arg n "$1" '[.[] | .body | objects |
		((.messages // [])[] | select(.role == "user" and (.content | type) == "array") |
		 .content[] | select(.type == "tool_result" and .tool_use_id == "toolu_step" + $n) |
		 if (.content | type) == "string" then .content else ([.content[].text] | join("")) end),
		((.input // [])[] | objects | select(.type == "function_call_output" and .call_id == "call_step" + $n) |
		 .output | if type == "string" then . else tostring end),
		((.contents // [])[] | objects | (.parts // [])[] |
		 select(.functionResponse.id? == "call_step" + $n) |
		 .functionResponse.response | (.output // tostring))] |
		first // ""' "$T/model.log"
}

# assert_guarded_work AGENT WORKTREE: after `run_agent`, the three steps as
# the model saw them and as the repository shows them.
assert_guarded_work() {
	local agent=$1 wt=$2
	assert_success
	assert_output --partial "RESOLVED: done"
	# 1: the shim denied leaving the branch, and the model read why
	run tool_result 1
	assert_output --partial "agentic-git: ERROR git checkout denied"
	assert_output --partial "cannot switch to 'main'"
	assert_equal "$(branch_of "$wt")" "feat/$agent"
	# the CLI's own start-up git probes (`git -c core.hooksPath=… …`) are
	# no denies: the checkout is the only one (fs+api's refused hosts are
	# the proxy's, counted by the tests that use it)
	events | jq -e -s --arg a "$agent" 'map(select(.agent == $a and .disposition == "deny" and .event != "net_deny")) |
		length == 1 and .[0].subcommand == "checkout"'
	# 2: the commit is on the session's branch, attributed
	run tool_result 2
	assert_output --partial "COMMITTED"
	run "$REAL_GIT" -C "$REPO" log -1 --format=%B "feat/$agent"
	assert_output --partial "agent: add agent.txt"
	assert_output --partial "Agentic-Agent: $agent"
	assert_output --partial "Agentic-Task: "
	"$REAL_GIT" -C "$REPO" show "feat/$agent:agent.txt" | grep -qx agent-work
	# 3: reset --hard was snapshotted, and the edit comes back
	run tool_result 3
	assert_output --partial "RESET"
	refute_output --partial "denied"
	! grep -q precious-edit "$wt/README.md"
	run "$AG_BIN" snapshots restore --repo "$wt" --since 1h
	assert_success
	grep -qx precious-edit "$wt/README.md"
}

# launch_event: the session's agent_launch event.
launch_event() {
	events | jq -c 'select(.event == "agent_launch")'
}

# real_cli_conflict: origin's feat/a conflicts with main (dispatch.bash),
# and the model resolves it as a careful agent would.
real_cli_conflict() {
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
	printf '%s\n' \
		'git rebase -q origin/main >/dev/null 2>&1; printf "line 1\nmain entry\nfeature feat/a\nline 2\n" >CHANGELOG && git add CHANGELOG && GIT_EDITOR=true git rebase --continue >/dev/null 2>&1; git log --format=%s -3' \
		>"$T/model.script"
}

# run_dispatch PROFILE: the built-in task over feat/a with PROFILE as the
# default agent, bounded (the CLIs retry an unreachable API for minutes).
run_dispatch() {
	printf 'default_agent: %s\n' "$1" >>"$AGENTIC_GIT_HOME/config.yaml"
	PATH="$CLIS:$PATH" run timeout -k 5 150 "$AG_BIN" dispatch --grace 1 --timeout 120 \
		--repo "$REPO" --head feat/a --base main --task resolve-conflicts
}
