#!/usr/bin/env bats
# Every command's options go through the one table parser (cmd/argtable.c):
# each option's missing value, each unknown option and each stray
# positional is one line naming the command, with exit 2 in every command
# and nothing changed. docs/commands.md "Options".
load lib

setup() { ag_setup; }

# usage_error STATUS LINE CMD...: CMD fails with STATUS and prints LINE.
usage_error() {
	local want=$1 line=$2
	shift 2
	run "$AG_BIN" "$@"
	[ "$status" -eq "$want" ] || fail "$* exited $status, not $want: $output"
	assert_output --partial "$line"
}

# each_value CMD HELP OPT...: every OPT without its value; an unknown one.
each_value() {
	local cmd=$1 help=$2 o
	shift 2
	for o in "$@"; do
		# shellcheck disable=SC2086
		usage_error 2 "agentic-git: $cmd: needs a value: '--$o' (see $help)" $cmd "--$o"
	done
	# shellcheck disable=SC2086
	usage_error 2 "agentic-git: $cmd: unknown option '--nope' (see $help)" $cmd --nope
}

@test "snapshots: every sub-command's options, its ref and nothing more" {
	each_value "snapshots list" "agentic-git snapshots list --help" repo agent
	each_value "snapshots show" "agentic-git snapshots show --help" repo agent
	each_value "snapshots diff" "agentic-git snapshots diff --help" repo agent
	each_value "snapshots restore" "agentic-git snapshots restore --help" repo agent since
	each_value "snapshots prune" "agentic-git snapshots prune --help" repo agent older-than
	# an option of another sub-command is unknown here
	usage_error 2 "snapshots prune: unknown option '--json'" snapshots prune --json
	usage_error 2 "snapshots list: unknown option '-y'" snapshots list -y
	# flags take no value
	usage_error 2 "snapshots list: takes no value: '--all=1'" snapshots list --all=1
	usage_error 2 "snapshots restore: takes no value: '-yes'" snapshots restore -yes
	# positionals: none for list and prune, one ref for the rest
	usage_error 2 "snapshots list: unexpected argument 'x' (see agentic-git snapshots list --help)" snapshots list x
	usage_error 2 "snapshots prune: unexpected argument 'x'" snapshots prune -- x
	usage_error 2 "snapshots show: unexpected argument 'b' (at most one snapshot ref)" snapshots show a b
	usage_error 2 "snapshots diff: unexpected argument 'b' (at most one snapshot ref)" snapshots diff a --repo . b
	# a prefix is not the option
	usage_error 2 "snapshots list: unknown option '--rep'" snapshots list --rep .
}

@test "snapshots: the ref may stand before or after the options, or after --" {
	cd "$REPO"
	usage_error 2 "\`nope\` is not an agentic-git snapshot ref" snapshots show nope --repo .
	usage_error 2 "\`nope\` is not an agentic-git snapshot ref" snapshots show --repo . nope
	usage_error 2 "\`-nope\` is not an agentic-git snapshot ref" snapshots show --repo . -- -nope
}

@test "sandbox: every sub-command's options and positionals" {
	each_value "sandbox probe" "agentic-git sandbox probe --help"
	usage_error 2 "sandbox probe: takes no value: '--json=1'" sandbox probe --json=1
	usage_error 2 "sandbox probe: unexpected argument 'x' (see agentic-git sandbox probe --help)" sandbox probe x
	each_value "sandbox run" "agentic-git sandbox run --help" policy backend \
		fallback workspace from head base cache agent ro env allow
	usage_error 2 "sandbox run: unexpected argument 'x' (the command goes after '--')" sandbox run x -- /bin/true
	usage_error 2 "sandbox run: give the command after '--'" sandbox run --policy none --
	each_value "sandbox workspace" "agentic-git sandbox workspace --help" from head base hooks-path
	usage_error 2 "sandbox workspace: missing option '--from'" sandbox workspace --head h "$T/ws"
	usage_error 2 "sandbox workspace: missing option '--head'" sandbox workspace --from "$REPO" "$T/ws"
	usage_error 2 "sandbox workspace: unexpected argument 'b' (only one DIR)" sandbox workspace --from "$REPO" --head main a b
	[ ! -e "$T/ws" ]
	[ ! -e a ]
}

@test "sandbox: the internal helpers' options point to docs/sandbox.md" {
	each_value "sandbox exec" "docs/sandbox.md" policy ro rw dev
	usage_error 2 "sandbox exec: takes no value: '--net=1'" sandbox exec --net=1
	usage_error 2 "sandbox exec: missing option '--policy' (see docs/sandbox.md)" sandbox exec --net -- /bin/true
	usage_error 2 "sandbox exec: unexpected argument 'x' (the command goes after '--')" sandbox exec x
	each_value "sandbox proxy" "docs/sandbox.md" socket allow home agent hint stats
	usage_error 2 "sandbox proxy: missing option '--socket' (see docs/sandbox.md)" sandbox proxy -- /bin/true
	usage_error 2 "sandbox proxy: unexpected argument 'x'" sandbox proxy x
	each_value "sandbox relay" "docs/sandbox.md" port socket
	usage_error 2 "sandbox relay: missing option '--port' (see docs/sandbox.md)" sandbox relay --socket /s -- /bin/true
	usage_error 2 "sandbox relay: unexpected argument 'x'" sandbox relay x
}

@test "agents: every verb's options; NAME where the verb takes one" {
	each_value "agents list" "agentic-git agents list --help" config
	each_value "agents show" "agentic-git agents show --help" config model
	each_value "agents check" "agentic-git agents check --help" config
	each_value "agents exec" "agentic-git agents exec --help" config model \
		prompt prompt-file input-file cwd timeout
	usage_error 2 "agents list: takes no value: '--json=1'" agents list --json=1
	usage_error 2 "agents check: unknown option '--json'" agents check --json
	# list names no profile: a NAME there was silently ignored before
	usage_error 2 "agents list: unexpected argument 'claude' (see agentic-git agents list --help)" agents list claude
	usage_error 2 "agents show: unexpected argument 'b'" agents show a b
	usage_error 2 "agents check: unexpected argument 'b'" agents check a -- b
	usage_error 2 "agents exec: unexpected argument 'b'" agents exec a b
	# --help anywhere among the options; a value that reads --help is a value
	run "$AG_BIN" agents show claude --help
	assert_success
	assert_output --partial "usage: agentic-git agents"
	run "$AG_BIN" agents exec claude --dry-run --prompt --help --cwd "$T/nowhere"
	assert_failure
	refute_output --partial "usage:"
	assert_output --partial "--cwd '$T/nowhere' is not a directory"
}

@test "check: only --json before '--'; the git command after it" {
	usage_error 2 "check: unknown option '--nope' (see agentic-git check --help)" check --nope -- status
	usage_error 2 "check: takes no value: '--json=1'" check --json=1 -- status
	usage_error 2 "check: unexpected argument 'status' (the git command goes after '--')" check status
	usage_error 2 "check: missing '--' before the git command" check --json
}

@test "dispatch and summarize: named errors, exit 2 like every command (one ladder)" {
	local o
	for o in targets repo head base key task prompt-file profile model config \
		concurrency timeout grace shard; do
		usage_error 2 "agentic-git: dispatch: needs a value: '--$o' (see agentic-git dispatch --help)" dispatch "--$o"
	done
	usage_error 2 "dispatch: needs a value: '-j'" dispatch -j
	usage_error 2 "dispatch: unknown option '--nope' (see agentic-git dispatch --help)" dispatch --nope
	usage_error 2 "dispatch: unexpected argument 'x' (the agent command goes after '--')" dispatch x
	for o in profile model config run input prompt-file timeout; do
		usage_error 2 "agentic-git: summarize: needs a value: '--$o' (see agentic-git summarize --help)" summarize "--$o"
	done
	usage_error 2 "summarize: unknown option '--nope' (see agentic-git summarize --help)" summarize --nope
	usage_error 2 "summarize: unexpected argument 'x' (the agent command goes after '--')" summarize x
}

@test "run, end, sessions, events: each value option's missing value; strays" {
	local o
	for o in agent branch base profile prompt prompt-file model config timeout grace; do
		usage_error 2 "run: needs a value: '--$o'" run "--$o"
	done
	usage_error 2 "end: needs a value: '--agent'" end --agent
	usage_error 2 "end: unexpected argument 'x' (see agentic-git end --help)" end --agent a x
	usage_error 2 "sessions: unexpected argument 'x' (see agentic-git sessions --help)" sessions -- x
	for o in agent event disposition since until; do
		usage_error 2 "events: needs a value: '--$o'" events "--$o"
		usage_error 2 "events: needs a non-empty value: '--$o='" events "--$o="
	done
	usage_error 2 "events: unexpected argument 'x' (see agentic-git events --help)" events x
}

@test "version takes nothing; help takes one command" {
	usage_error 2 "version: unknown option '--short' (see agentic-git version --help)" version --short
	usage_error 2 "version: unexpected argument 'x' (see agentic-git version --help)" version x
	usage_error 2 "help: unexpected argument 'end' (help takes one command)" help run end
	usage_error 2 "help: unknown option '--bogus' (see agentic-git help --help)" help --bogus
	usage_error 2 "help: unknown command 'frob'" help frob
	run "$AG_BIN" help -- run
	assert_success
	assert_output --partial "usage: agentic-git run"
}
