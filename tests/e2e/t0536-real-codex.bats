#!/usr/bin/env bats
# The real Codex CLI (installed by ci/install-agent-clis.sh) doing work
# through agentic-git with the codex preset, under fs-only on bwrap and on
# Landlock (issue 16). Only OpenAI's API is replaced, by
# tests/helper/model-server.mjs on 127.0.0.1 (the Responses API), whose
# scripted model runs shell commands through Codex's exec_command tool.
# Codex ignores OPENAI_BASE_URL: the preset passes it as `-c
# openai_base_url=…`. Its tool shell would be a login shell whose
# /etc/profile resets PATH past the shim: the preset says
# `allow_login_shell=false`. Without our sandbox codex's own
# workspace-write sandbox would keep the clone's git dir read-only: the
# preset names the session's git dirs as its writable roots
# (fleet/agent-roots.h).
# Each test skips, saying why, when codex or node is absent;
# AG_MUST_WORK=1 makes that a failure.
load lib
load sandbox_cases
load real_cli
load dispatch
load secrets

setup() {
	real_cli_setup codex
}

teardown() {
	real_cli_teardown
}

start_codex_model() {
	start_model
	export OPENAI_BASE_URL=http://127.0.0.1:$MODEL_PORT/v1
	export OPENAI_API_KEY=sk-scripted-test
}

# codex_in BACKEND AGENT: the preset under fs-only; a model with a shell
# tool (its default model offers only a JavaScript one)
codex_in() {
	sbx_prereq "$1"
	write_config codex fs-only "$1" '    model: gpt-4.1'
	start_codex_model
	run_agent codex "$2"
	assert_guarded_work "$2" "$AGENTIC_GIT_HOME/worktrees/$2/feat/$2"
	launch=$(launch_event)
	echo "$launch" | jq -e --arg b "$1" '.sandbox_backend == $b'
	echo "$launch" | jq -e --arg u "openai_base_url=\"$OPENAI_BASE_URL\"" '.agent_argv | index($u) != null'
	echo "$launch" | jq -e '.agent_argv | index("danger-full-access") != null'
	echo "$launch" | jq -e '.agent_env_keys | index("CODEX_HOME")'
	# the shell tool's git was the shim, found through the session's PATH
	run tool_result 1
	refute_output --partial "command not found"
	# Codex's state persists in the agent's cache
	[ -d "$AGENTIC_GIT_HOME/cache/$2/.codex" ]
}

@test "codex under fs-only on bwrap: checkout denied to its model, commit attributed, reset --hard restorable" {
	codex_in bwrap x1
	# the platform package beside it loads: the whole npm prefix is bound
	prefix=$(readlink -f "$CLIS/codex")
	prefix=${prefix%%/node_modules/*}/node_modules
	echo "$launch" | jq -e --arg p "$prefix" '.agent_argv | tostring | contains("\"--ro-bind\",\"" + $p + "\"")'
}

@test "codex under fs+api on bwrap: its API only through the proxy" {
	sbx_prereq bwrap
	start_codex_model
	write_config codex fs+api bwrap "    model: gpt-4.1
    allow_hosts: [\"127.0.0.1:$MODEL_PORT\"]"
	run_agent codex x3
	assert_guarded_work x3 "$AGENTIC_GIT_HOME/worktrees/x3/feat/x3"
	launch=$(launch_event)
	echo "$launch" | jq -e '.sandbox_backend == "bwrap"'
	echo "$launch" | jq -e '.agent_argv | index("HTTPS_PROXY")'
	events | jq -e -s --argjson p "$MODEL_PORT" 'map(select(.agent == "x3" and .event == "net_allow")) |
		length >= 1 and all(.host == "127.0.0.1" and .port == $p and .bytes > 0)'
}

# PRODUCT.md §7: the key only through `secrets`, the API over HTTPS; codex
# (rustls) trusts the session CA through CODEX_CA_CERTIFICATE
@test "codex under fs+api with its key only in secrets: the API over HTTPS sees it, the cage never does" {
	sbx_prereq bwrap
	start_model_tls
	unset OPENAI_API_KEY CODEX_API_KEY
	export OPENAI_BASE_URL=https://127.0.0.1:$MODEL_PORT/v1
	secret_config codex CODEX_API_KEY env "    model: gpt-4.1"
	export CODEX_API_KEY=$KEY
	run_agent codex x7
	assert_guarded_work x7 "$AGENTIC_GIT_HOME/worktrees/x7/feat/x7"
	assert_key_outside authorization "Bearer $KEY"
}

@test "codex dispatch under fs+api with its key only in secrets: resolved, verified and pushed" {
	sbx_prereq bwrap
	real_cli_conflict
	start_model_tls
	unset OPENAI_API_KEY CODEX_API_KEY
	export OPENAI_BASE_URL=https://127.0.0.1:$MODEL_PORT/v1
	printf '%s\n' "$KEY" >"$T/openai.key"
	secret_config codex CODEX_API_KEY "file:$T/openai.key" "    model: gpt-4.1"
	run_dispatch codex
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	assert_key_outside authorization "Bearer $KEY"
}

@test "codex under fs-only on Landlock" {
	codex_in landlock x2
}

@test "codex dispatch under fs+api on bwrap: resolved, verified and pushed; its refused hosts in the summary" {
	sbx_prereq bwrap
	real_cli_conflict
	start_codex_model
	write_config codex fs+api bwrap "    model: gpt-4.1
    allow_hosts: [\"127.0.0.1:$MODEL_PORT\"]"
	run_dispatch codex
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	[ "$(meta repo-feat-a sandbox)" = "fs+api (bwrap)" ]
	[ "$(meta repo-feat-a net_allow)" -ge 1 ]
	"$REAL_GIT" --git-dir="$ORIGIN" merge-base --is-ancestor main feat/a
	# whatever else it tried is counted and named beside the target
	n=$(meta repo-feat-a net_deny)
	if [ "$n" -gt 0 ]; then
		grep -q "refused (\`[a-z.]*:443\`" "$(run_dir)/summary.md"
	fi
}

# codex_plain: the preset without our sandbox, codex's own around it
codex_plain() {
	local extra='    model: gpt-4.1'
	if grep -q __asan_init "$AG_BIN"; then
		# LeakSanitizer stops the world with ptrace, which codex's
		# seccomp filter denies: the ASan shim would abort at exit
		export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
		extra+=$'\n    env: [OPENAI_API_KEY, OPENAI_BASE_URL, ASAN_OPTIONS]'
	fi
	write_config codex none auto "$extra"
	# codex sets up its sandbox helper only when CODEX_HOME is not under
	# the temp dir, and the tests' HOME is under /tmp
	mkdir -p "$T/tmp" "$HOME/.codex"
	export TMPDIR=$T/tmp
	# the operator's own codex config: /tmp and $TMPDIR are not writable,
	# so everything git and the shim write comes from the preset's roots
	printf '[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n' \
		>"$HOME/.codex/config.toml"
}

@test "codex without a sandbox: its own sandbox lets git commit, and git is the shim in its tool shell" {
	codex_plain
	echo 'command -v git' >>"$T/model.script"
	start_codex_model
	run_agent codex x3
	wt=$AGENTIC_GIT_HOME/worktrees/x3/feat/x3
	assert_guarded_work x3 "$wt"
	# 4: the tool shell's git is the shim (allow_login_shell=false keeps
	# the session's PATH)
	run tool_result 4
	assert_output --partial "$AGENTIC_GIT_HOME/bin/git"
	launch=$(launch_event)
	echo "$launch" | jq -e '.sandbox_backend == "none"'
	echo "$launch" | jq -e '.agent_argv | index("workspace-write") != null'
	gitdir=$("$REAL_GIT" -C "$wt" rev-parse --path-format=absolute --git-dir)
	common=$("$REAL_GIT" -C "$wt" rev-parse --path-format=absolute --git-common-dir)
	roots=$(echo "$launch" | jq -r '.agent_argv[] | select(startswith("sandbox_workspace_write.writable_roots="))')
	[[ $roots == *"\"$gitdir\""* ]]
	[[ $roots == *"\"$common/objects\""* ]]
	[[ $roots == *"\"$common/refs\""* ]]
	# never the common dir itself: its config and hooks stay read-only
	[[ $roots != *"\"$common\""* ]]
	# the shim's events came through the spool, as the agent's
	events | jq -e -s 'map(select(.agent == "x3" and .event == "snapshot_taken" and .via == "sandbox")) | length == 1'
}

@test "codex dispatched without a sandbox: its own sandbox lets it commit, and the commit is pushed" {
	dsp_setup
	dsp_branch feat/a
	codex_plain
	start_codex_model
	echo "do the scripted task" >"$T/task.md"
	PATH="$CLIS:$PATH" run timeout -k 5 100 "$AG_BIN" dispatch --grace 1 --repo "$REPO" \
		--head feat/a --base main --profile codex --prompt-file "$T/task.md"
	assert_success
	[ "$(meta repo-feat-a status)" = pushed ]
	# the shim denied leaving the branch, and the model read why
	run tool_result 1
	assert_output --partial "agentic-git: ERROR git checkout denied"
	run tool_result 2
	assert_output --partial "COMMITTED"
	run "$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%B feat/a
	assert_output --partial "agent: add agent.txt"
	assert_output --partial "Agentic-Agent: "
	grep -q 'sandbox_workspace_write.writable_roots=' "$(run_dir)/repo-feat-a.meta.yaml"
}
