#!/usr/bin/env bats
# agents check: the binary exists, is executable, and its --help mentions
# every flag the profile uses, against
# fake CLIs (t0531 runs the real ones).
load lib

setup() {
	T=$BATS_TEST_TMPDIR
	export HOME=$T/home AGENTIC_GIT_HOME=$T/aghome
	mkdir -p "$HOME" "$AGENTIC_GIT_HOME" "$T/bin"
}

# fake NAME HELP-TEXT: a CLI whose --help prints HELP-TEXT.
fake() {
	printf '#!/bin/sh\ncat <<"EOF"\n%s\nEOF\n' "$2" >"$T/bin/$1"
	chmod 755 "$T/bin/$1"
}

@test "a help text missing a flag the preset uses fails, naming the flag" {
	fake claude "Usage: claude [options] [prompt]
  -p, --print   print
  --model <m>   model"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check claude
	assert_failure
	assert_line --index 0 "claude: FAIL: flag '--dangerously-skip-permissions' is not in the output of 'claude --help'"
	fake claude "  -p, --print
  --dangerously-skip-permissions-later  (a longer flag is not the flag)
  --model <m>"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check claude
	assert_failure
	assert_output --partial "flag '--dangerously-skip-permissions' is not in the output"
	fake claude "  -p, --print
  --dangerously-skip-permissions   bypass
  --model <m>"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check claude
	assert_success
	assert_output --regexp "^claude: ok: $T/bin/claude accepts 4 flags"
}

@test "codex is checked with 'exec --help' and its sandbox values" {
	cat >"$T/bin/codex" <<'EOF'
#!/bin/sh
[ "$1 $2" = "exec --help" ] || { echo "top-level help"; exit 0; }
echo "  -s, --sandbox <SANDBOX_MODE>  [possible values: read-only, workspace-write]"
echo "  -m, --model <MODEL>"
echo "  -c, --config <key=value>"
EOF
	chmod 755 "$T/bin/codex"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check codex
	assert_failure
	assert_line --index 0 "codex: FAIL: flag 'danger-full-access' is not in the output of 'codex exec --help'"
}

# fake_codex: a codex whose `exec --help` lists every flag of the preset.
fake_codex() {
	fake codex "  -s, --sandbox <SANDBOX_MODE>  [possible values: read-only, workspace-write, danger-full-access]
  -m, --model <MODEL>
  -c, --config <key=value>"
}

@test "git in the agent's tool shell, run as the agent runs it, is the shim" {
	fake_codex
	fake claude "-p --print --dangerously-skip-permissions --model"
	# the preset's `-c allow_login_shell=false`: codex runs `bash -c`
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check codex
	assert_success
	assert_line --index 1 "codex: ok: git in its tool shell ('/bin/bash -c') is the shim"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check claude
	assert_success
	assert_line --index 1 "claude: ok: git in its tool shell ('/bin/bash -c') is the shim"
	# ~/.bashrc and ~/.profile are no start-up files of `bash -c`, and a
	# BASH_ENV of the caller's is not passed on
	printf 'PATH=/usr/bin:/bin\n' | tee "$HOME/.bashrc" >"$HOME/.profile"
	PATH="$T/bin:/usr/bin:/bin" BASH_ENV=$HOME/.bashrc run "$AG_BIN" agents check claude
	assert_success
	assert_line --index 1 "claude: ok: git in its tool shell ('/bin/bash -c') is the shim"
}

@test "a codex command without allow_login_shell=false fails the shell check: its login shell resets PATH" {
	# Debian's /etc/profile sets PATH whatever the caller's was
	prereq "a login shell that resets PATH" sh -c \
		'PATH=/nonexistent:$PATH /bin/bash -lc "echo \$PATH" | grep -vq nonexistent'
	fake_codex
	printf 'agents:\n  codex:\n    command: [codex, exec, --sandbox, "{agent_sandbox}"]\n' >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check codex
	assert_failure
	assert_line --index 0 --regexp "^codex: ok: $T/bin/codex accepts"
	assert_line --index 1 --regexp "^codex: FAIL: in its tool shell \('/bin/bash -lc'\) git there is '[^']*', not the shim: its start-up files reset PATH; keep '-c allow_login_shell=false' in its command$"
	refute_output --partial "$T/bin/git"
}

@test "a custom profile is checked for the options of its own template" {
	fake mytool "usage: mytool [--fast] [--prompt TEXT]"
	printf 'agents:\n  mine:\n    command: [mytool, --fast, --slow, "--prompt={prompt}"]\n    model_args: [-m, "{model}"]\n' >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check mine
	assert_failure
	assert_output "mine: FAIL: flag '--slow' is not in the output of 'mytool --help'
mine: FAIL: flag '-m' is not in the output of 'mytool --help'"
}

@test "a missing or non-executable binary fails; absent unused presets are only reported" {
	PATH="/usr/bin:/bin" run "$AG_BIN" agents check gemini
	assert_failure
	assert_output "gemini: FAIL: binary 'gemini' not found in PATH"
	fake claude "-p --print --dangerously-skip-permissions --model"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check
	assert_success
	assert_line --regexp "^claude: ok: "
	assert_line "codex: not installed: binary 'codex' not found in PATH"
	assert_line "cursor: not installed: binary 'cursor-agent' not found in PATH"
	# ... but the default agent must be there.
	printf 'default_agent: gemini\n' >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check
	assert_failure
	assert_line "gemini: FAIL: binary 'gemini' not found in PATH"
	printf 'agents:\n  x:\n    command: ["%s", "{prompt}"]\n' "$T/notexec" >"$AGENTIC_GIT_HOME/config.yaml"
	printf 'data\n' >"$T/notexec"
	chmod 644 "$T/notexec"
	run "$AG_BIN" agents check x
	assert_failure
	assert_output "x: FAIL: '$T/notexec' is not executable"
}

@test "check names the credentials the environment gives, and a login a sandboxed agent cannot use" {
	fake claude "  -p, --print
  --dangerously-skip-permissions   bypass
  --model <m>"
	# a `claude login` file of the real shape, and no key in the environment
	mkdir -p "$HOME/.claude"
	printf '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-x","refreshToken":"sk-ant-ort01-y","expiresAt":1,"scopes":["user:inference"],"subscriptionType":"pro"}}\n' \
		>"$HOME/.claude/.credentials.json"
	unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN CLAUDE_CODE_OAUTH_TOKEN CLAUDE_CONFIG_DIR
	PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check claude
	assert_success
	assert_line "claude: warning: logged in through '$HOME/.claude/.credentials.json', which a sandboxed claude cannot use; run \`claude setup-token\` once and export the token it prints as CLAUDE_CODE_OAUTH_TOKEN (sandbox fs+api keeps it outside the cage)"
	refute_output --partial "sk-ant-oat01-x"
	# the token in the environment: named, with where it goes
	CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-env PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check claude
	assert_line "claude: ok: credentials: CLAUDE_CODE_OAUTH_TOKEN from the environment (EXPOSED to the agent: sandbox fs+api keeps it outside)"
	refute_output --partial "warning"
	refute_output --partial "sk-ant-oat01-env"
	printf 'agents:\n  claude:\n    sandbox: fs+api\n' >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-env PATH="$T/bin:/usr/bin:/bin" run "$AG_BIN" agents check claude
	assert_line "claude: ok: credentials: CLAUDE_CODE_OAUTH_TOKEN from the environment (a placeholder in the cage, sandbox fs+api)"
}
