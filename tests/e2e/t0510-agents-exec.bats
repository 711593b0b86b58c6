#!/usr/bin/env bats
# Launching a planned invocation (agents exec; src/agents/plan.h): no shell
# ever runs (invariant 1), argv is exact, the environment is scoped
# (invariant 3), stdin bytes, cwd, model args, timeout, exit status, and
# the refusals.
load lib
bats_require_minimum_version 1.5.0

setup() {
	T=$BATS_TEST_TMPDIR
	export HOME=$T/home AGENTIC_GIT_HOME=$T/aghome
	mkdir -p "$HOME" "$AGENTIC_GIT_HOME" "$T/bin"
	# argv-printer: one "[arg]" per argument, then the cwd and stdin.
	cat >"$T/bin/argv-printer" <<'EOF'
#!/bin/sh
for a in "$@"; do printf '[%s]\n' "$a"; done
EOF
	cat >"$T/bin/stdin-printer" <<'EOF'
#!/bin/sh
for a in "$@"; do printf '[%s]\n' "$a"; done
printf 'cwd=%s\n' "$PWD"
printf 'stdin=<'; cat; printf '>\n'
EOF
	cat >"$T/bin/env-printer" <<'EOF'
#!/bin/sh
env
EOF
	chmod 755 "$T/bin/"*
	CFG=$T/config.yaml
}

cfg() {
	cat >"$CFG"
	chmod 600 "$CFG"
}

@test "no shell runs: a hostile prompt is one exact argv element (plan invariant 1)" {
	cfg <<EOF
agents:
  printer:
    command: ["$T/bin/argv-printer", --flag, "x={prompt}!"]
    env: []
  whole:
    command: ["$T/bin/argv-printer", "{prompt}", --flag]
EOF
	p='$(touch '"$T"'/pwned1); touch '"$T"'/pwned2 `touch '"$T"'/pwned3` | touch '"$T"'/pwned4
; rm -rf ~ && touch '"$T"'/pwned5 {prompt} {model} "quoted" '"'single'"
	run "$AG_BIN" agents exec printer --config "$CFG" --prompt "$p"
	assert_success
	assert_equal "$output" "$(printf '[--flag]\n[x=%s!]' "$p")"
	run "$AG_BIN" agents exec whole --config "$CFG" --prompt "$p"
	assert_success
	assert_equal "$output" "$(printf '[%s]\n[--flag]' "$p")"
	for i in 1 2 3 4 5; do
		[ ! -e "$T/pwned$i" ] || fail "a shell ran: $T/pwned$i exists"
	done
	[ -d "$HOME" ]
}

@test "a prompt with leading dashes stays a single element" {
	cfg <<EOF
agents:
  printer:
    command: ["$T/bin/argv-printer", "{prompt}"]
    env: []
EOF
	for p in -- --help -h "-rf /" "--model=evil"; do
		run "$AG_BIN" agents exec printer --config "$CFG" --prompt "$p"
		assert_success
		assert_equal "$output" "[$p]"
	done
}

@test "model_args appear only with a model; a hostile model is one element" {
	cfg <<EOF
agents:
  printer:
    command: ["$T/bin/argv-printer", run, --, "{prompt}"]
    model_args: [--model, "{model}"]
    env: []
EOF
	run "$AG_BIN" agents exec printer --config "$CFG" --prompt hi
	assert_success
	assert_equal "$output" "$(printf '[run]\n[--]\n[hi]')"
	run "$AG_BIN" agents exec printer --config "$CFG" --prompt hi --model '$(touch x); y'
	assert_success
	assert_equal "$output" "$(printf '[run]\n[--model]\n[$(touch x); y]\n[--]\n[hi]')"
}

@test "secrets in the parent environment do not reach a preset agent (invariant 3)" {
	cfg <<EOF
agents:
  claude:
    command: ["$T/bin/env-printer", "{prompt}"]
EOF
	GH_TOKEN=ghp_secret AWS_SECRET_ACCESS_KEY=aws_secret SSH_AUTH_SOCK=/tmp/agent.sock \
		NPM_TOKEN=npm_secret ANTHROPIC_API_KEY=sk-ant-test LANG=C.UTF-8 \
		run "$AG_BIN" agents exec claude --config "$CFG" --prompt "print env"
	assert_success
	refute_output --partial ghp_secret
	refute_output --partial aws_secret
	refute_output --partial agent.sock
	refute_output --partial npm_secret
	assert_line "ANTHROPIC_API_KEY=sk-ant-test"
	assert_line "HOME=$HOME"
	assert_line "PATH=$PATH"
	# Exactly the safe base plus the allowlist, nothing else (sh adds PWD).
	names=$(printf '%s\n' "$output" | sed 's/=.*//' | grep -v '^PWD$' | sort | tr '\n' ' ')
	allowed=" PATH HOME USER LOGNAME SHELL TERM TMPDIR LANG LANGUAGE LC_ALL LC_CTYPE TZ ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN CLAUDE_CODE_OAUTH_TOKEN ANTHROPIC_BASE_URL ANTHROPIC_CUSTOM_HEADERS ANTHROPIC_MODEL ANTHROPIC_SMALL_FAST_MODEL CLAUDE_CONFIG_DIR CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC "
	for n in $names; do
		[[ "$allowed" == *" $n "* ]] || fail "unexpected variable $n reached the agent"
	done
}

@test "an empty allowlist gives the safe base only; no env inherits everything" {
	cfg <<EOF
agents:
  scoped:
    command: ["$T/bin/env-printer", "{prompt}"]
    env: []
  open:
    command: ["$T/bin/env-printer", "{prompt}"]
EOF
	GH_TOKEN=ghp_secret run "$AG_BIN" agents exec scoped --config "$CFG" --prompt x
	assert_success
	refute_output --partial ghp_secret
	assert_line "HOME=$HOME"
	GH_TOKEN=ghp_secret run "$AG_BIN" agents exec open --config "$CFG" --prompt x
	assert_success
	assert_line "GH_TOKEN=ghp_secret"
	run "$AG_BIN" agents show open --config "$CFG"
	assert_success
	assert_line "WARNING: agent 'open' has no env allowlist: it inherits your whole environment (tokens, SSH agent, cloud credentials); add 'env: [...]' to its profile"
	run "$AG_BIN" agents show scoped --config "$CFG"
	refute_output --partial WARNING
}

@test "an allowlist that matches nothing gives an empty environment" {
	cfg <<EOF
agents:
  scoped:
    command: ["$T/bin/env-printer", "{prompt}"]
    env: [NOT_SET_ANYWHERE]
EOF
	run env -i GH_TOKEN=ghp_secret "$AG_BIN" agents exec scoped --config "$CFG" --prompt x
	assert_success
	refute_output --partial ghp_secret
	[ -z "$(printf '%s\n' "$output" | grep -v '^PWD=')" ]
}

@test "stdin carries prompt, blank line, input; {agent_sandbox} follows our sandbox" {
	cfg <<EOF
agents:
  codex:
    command: ["$T/bin/stdin-printer", exec, --sandbox, "{agent_sandbox}"]
EOF
	printf 'line 1\nline 2' >"$T/input.txt"
	mkdir -p "$T/work dir"
	run "$AG_BIN" agents exec codex --config "$CFG" --prompt 'do $(it)' \
		--input-file "$T/input.txt" --cwd "$T/work dir" --model m1
	assert_success
	assert_equal "$output" "$(printf '[exec]\n[--sandbox]\n[workspace-write]\n[--model]\n[m1]\ncwd=%s\nstdin=<do $(it)\n\nline 1\nline 2>' "$T/work dir")"
}

@test "arg mode with input: the prompt in argv, the input alone on stdin" {
	cfg <<EOF
agents:
  p:
    command: ["$T/bin/stdin-printer", "{prompt}"]
    env: []
EOF
	printf 'INPUT' >"$T/input.txt"
	run "$AG_BIN" agents exec p --config "$CFG" --prompt P --input-file "$T/input.txt"
	assert_success
	assert_equal "$output" "$(printf '[P]\ncwd=%s\nstdin=<INPUT>' "$PWD")"
	run "$AG_BIN" agents exec p --config "$CFG" --prompt P
	assert_success
	assert_line "stdin=<>"
}

@test "the dry run shows the redacted argv and the env key names, never values" {
	cfg <<EOF
agents:
  p:
    command: ["$T/bin/argv-printer", "--prompt={prompt}"]
    env: [MY_KEY]
    timeout: 42
EOF
	MY_KEY=hunter2 run "$AG_BIN" agents exec p --config "$CFG" --prompt "secret words" --dry-run
	assert_success
	refute_output --partial "secret words"
	refute_output --partial hunter2
	run jq -r '"\(.argv|join("|")) \(.env_keys|index("MY_KEY") != null) \(.timeout) \(.stdin)"' <<<"$output"
	assert_output "$T/bin/argv-printer|--prompt=<prompt:12 chars> true 42 false"
}

@test "the agent's exit status passes through; a timeout stops it" {
	cat >"$T/bin/exit7" <<'EOF'
#!/bin/sh
exit 7
EOF
	cat >"$T/bin/sleeper" <<'EOF'
#!/bin/sh
sleep 30
EOF
	chmod 755 "$T/bin/exit7" "$T/bin/sleeper"
	cfg <<EOF
agents:
  e7:
    command: ["$T/bin/exit7", "{prompt}"]
    env: []
  slow:
    command: ["$T/bin/sleeper", "{prompt}"]
    env: []
    timeout: 1
EOF
	run "$AG_BIN" agents exec e7 --config "$CFG" --prompt x
	assert_equal "$status" 7
	run "$AG_BIN" agents exec slow --config "$CFG" --prompt x
	assert_equal "$status" 143
	assert_output "agentic-git: agents exec: agent 'slow' timed out after 1s and was stopped"
}

@test "a profile that asks for a sandbox is refused, and nothing runs" {
	cat >"$T/bin/marker" <<EOF
#!/bin/sh
touch "$T/ran"
EOF
	chmod 755 "$T/bin/marker"
	cfg <<EOF
agents:
  boxed:
    command: ["$T/bin/marker", "{prompt}"]
    env: []
    sandbox: fs+no-net
EOF
	must_fail "$AG_BIN" agents exec boxed --config "$CFG" --prompt x
	assert_output "agentic-git: agents exec: agent 'boxed' asks for sandbox 'fs+no-net', but sandboxing is not wired into 'agents exec' yet; refusing to run it unsandboxed (set 'sandbox: none' for this profile to run it anyway)"
	[ ! -e "$T/ran" ]
}

@test "an agent that is not installed, or not executable, is refused" {
	must_fail env PATH=/usr/bin:/bin "$AG_BIN" agents exec cursor --prompt x
	assert_output "agentic-git: agents exec: agent 'cursor': binary 'cursor-agent' not found in PATH (install it, or set agents.cursor.command to an absolute path)"
	printf 'not a program\n' >"$T/bin/noexec"
	chmod 644 "$T/bin/noexec"
	cfg <<EOF
agents:
  ne:
    command: ["$T/bin/noexec", "{prompt}"]
    env: []
EOF
	run -127 "$AG_BIN" agents exec ne --config "$CFG" --prompt x
	assert_output "agentic-git: agents exec: cannot run '$T/bin/noexec': Permission denied"
}

@test "bad exec usage is refused with a clear message" {
	must_fail "$AG_BIN" agents exec claude
	assert_output "agentic-git: agents exec: give exactly one of --prompt and --prompt-file"
	must_fail "$AG_BIN" agents exec claude --prompt a --prompt-file /dev/null
	assert_output --partial "exactly one of --prompt and --prompt-file"
	must_fail "$AG_BIN" agents exec claude --prompt a --timeout 0
	assert_output --partial "--timeout '0' is not a number of seconds"
	must_fail "$AG_BIN" agents exec claude --prompt a --cwd "$T/nowhere"
	assert_output "agentic-git: agents exec: --cwd '$T/nowhere' is not a directory"
	must_fail "$AG_BIN" agents exec nosuch --prompt a
	assert_output "agentic-git: unknown agent 'nosuch': not defined under 'agents:' and not a built-in preset (claude, codex, copilot, cursor, gemini)"
	must_fail "$AG_BIN" agents exec claude --prompt a --bogus
	assert_output "agentic-git: agents exec: unknown option '--bogus' (see agentic-git agents exec --help)"
	must_fail "$AG_BIN" agents exec
	assert_output --partial "missing NAME"
	must_fail "$AG_BIN" agents frob
	assert_output "agentic-git: agents: unknown verb 'frob' (list, show, check, exec)"
}

@test "a prompt file is read bounded, and its content is one element" {
	cfg <<EOF
agents:
  printer:
    command: ["$T/bin/argv-printer", "{prompt}"]
    env: []
EOF
	printf 'multi\nline; $(x)\n' >"$T/prompt.md"
	run "$AG_BIN" agents exec printer --config "$CFG" --prompt-file "$T/prompt.md"
	assert_success
	assert_equal "$output" "$(printf '[multi\nline; $(x)\n]')"
	must_fail "$AG_BIN" agents exec printer --config "$CFG" --prompt-file "$T/nope.md"
	assert_output "agentic-git: agents exec: cannot read prompt file '$T/nope.md': No such file or directory"
}
