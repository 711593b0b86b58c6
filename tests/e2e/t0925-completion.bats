#!/usr/bin/env bats
# agentic-git completion: bash, zsh and fish completion generated from the
# commands' own option tables (src/cmd/optsets.c), so it cannot drift.
load lib

setup() {
	ag_setup
	C=$T/completion
	mkdir -p "$C"
	"$AG_BIN" completion --list >"$C/list"
}

# each_set: "<command> [<verb>]|<option> <option>…" per line of --list,
# the options without their '='.
each_set() {
	sed -e 's/=//g' -e 's/: */|/' "$C/list"
}

@test "completion: usage errors name the shells and change nothing" {
	run "$AG_BIN" completion --help
	assert_success
	assert_output --partial "usage: agentic-git completion bash|zsh|fish"
	run "$AG_BIN" completion
	assert_equal "$status" 2
	assert_output --partial "which shell? bash, zsh or fish"
	run "$AG_BIN" completion tcsh
	assert_equal "$status" 2
	assert_output "agentic-git: completion: unknown shell 'tcsh' (bash, zsh or fish)"
	run "$AG_BIN" completion bash zsh
	assert_equal "$status" 2
	run "$AG_BIN" completion --bogus
	assert_equal "$status" 2
}

@test "completion: every command of help has its option table" {
	run "$AG_BIN" help
	assert_success
	cmds=$(sed -n '/^Commands:/,/^$/p' <<<"$output" | awk 'NF>1 {print $1}')
	[ "$(wc -l <<<"$cmds")" -ge 15 ]
	for c in $cmds; do
		grep -qE "^$c( [a-z-]+)?:" "$C/list" || fail "no option table for '$c'"
	done
	# and nothing else
	for c in $(cut -d: -f1 "$C/list" | cut -d' ' -f1 | sort -u); do
		grep -qxF "$c" <<<"$cmds" || fail "'$c' is not a command"
	done
}

@test "completion: every option of the tables is one the command's parser takes" {
	while IFS='|' read -r key opts; do
		for o in $opts; do
			# a known option passes (or fails on its value); the
			# unknown one after it is the one refused
			val=$(grep -oE -- "--${o#--}=" <<<"$(grep -E "^$key:" "$C/list")" || true)
			if [ -n "$val" ]; then arg="$o=1"; else arg=$o; fi
			# shellcheck disable=SC2086
			run "$AG_BIN" $key "$arg" --zz-unknown </dev/null
			if grep -qF -- "unknown option '$o" <<<"$output"; then
				fail "'$key' does not take '$o': $output"
			fi
		done
	done < <(each_set | grep -v '^hook ')
}

@test "completion: --help of every command names exactly its options" {
	for c in $(cut -d: -f1 "$C/list" | cut -d' ' -f1 | sort -u); do
		opts=$(grep -E "^$c( [a-z-]+)?:" "$C/list" | cut -d: -f2 |
			tr ' ' '\n' | sed 's/=$//' | grep . | sort -u)
		help=$("$AG_BIN" "$c" --help 2>&1)
		for o in $opts; do
			[ "$o" = --help ] && continue
			grep -qF -- "$o" <<<"$help" || fail "'$c --help' does not name $o"
		done
		for o in $(grep -oE -- '--[a-z][a-z0-9-]+' <<<"$help" | sort -u); do
			case "$c $o" in
			# another command's option, git's own, the hook stubs' own
			"run --force" | "merge --no-ff" | "hook --home" | *" --help") continue ;;
			esac
			grep -qxF -- "$o" <<<"$opts" || fail "'$c --help' names $o, which it does not take"
		done
	done
}

@test "completion: bash loads and completes every command, verb and option" {
	"$AG_BIN" completion bash >"$C/agentic-git.bash"
	bash -n "$C/agentic-git.bash"
	cat >"$C/drive.bash" <<'EOS'
source "$1"
complete -p agentic-git >/dev/null || { echo "not registered"; exit 1; }
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _agentic_git; echo "${COMPREPLY[*]}"; }
echo "cmds: $(comp agentic-git '')"
while IFS='|' read -r key opts; do
	# shellcheck disable=SC2086
	echo "@$key| $(comp agentic-git $key -)"
done < "$2"
echo "verbs: $(comp agentic-git snapshots '')"
echo "value: [$(comp agentic-git report -o '')]"
echo "after: [$(comp agentic-git run -- --a)]"
EOS
	each_set >"$C/sets"
	run bash "$C/drive.bash" "$C/agentic-git.bash" "$C/sets"
	assert_success
	for c in $("$AG_BIN" help | sed -n '/^Commands:/,/^$/p' | awk 'NF>1 {print $1}'); do
		grep -E "^cmds: .*\b$c\b" <<<"$output" >/dev/null || fail "bash: no command $c"
	done
	while IFS='|' read -r key opts; do
		got=$(grep -F "@$key| " <<<"$output" | head -1)
		for o in $opts --help; do
			grep -qE -- "(^| )$o( |$)" <<<"${got#*|}" || fail "bash: '$key' lacks $o"
		done
	done <"$C/sets"
	assert_line "verbs: list show diff restore prune"
	assert_line "value: []"
	assert_line "after: []"
}

@test "completion: zsh loads and completes every command, verb and option" {
	prereq zsh command -v zsh
	"$AG_BIN" completion zsh >"$C/_agentic-git"
	zsh -n "$C/_agentic-git"
	head -1 "$C/_agentic-git" | grep -qx '#compdef agentic-git'
	# the completion system's functions stubbed: each prints what it got
	cat >"$C/drive.zsh" <<'EOS'
compadd() { if [[ $1 == -a ]]; then print -r -- ${(P)2}; else print -r -- "$@"; fi }
_files() { print -r -- FILES; }
_describe() { print -r -- ${(P)4}; }
compdef() { print -r -- "compdef $*"; }
source $1
comp() { words=("$@"); CURRENT=$#; PREFIX=${@[-1]}; _agentic_git; }
print -r -- "cmds: $(comp agentic-git '')"
while IFS='|' read -r key opts; do
	print -r -- "@$key| $(comp agentic-git ${(z)key} -)"
done < $2
print -r -- "verbs: $(comp agentic-git snapshots '')"
print -r -- "value: $(comp agentic-git report -o '')"
EOS
	each_set >"$C/sets"
	run zsh -f "$C/drive.zsh" "$C/_agentic-git" "$C/sets"
	assert_success
	assert_line "compdef _agentic_git agentic-git"
	grep -q "^cmds: .*report:write the fleet page" <<<"$output"
	while IFS='|' read -r key opts; do
		got=$(grep -F "@$key| " <<<"$output" | head -1)
		for o in $opts --help; do
			grep -qE -- "(^| )$o( |$)" <<<"${got#*|}" || fail "zsh: '$key' lacks $o"
		done
	done <"$C/sets"
	assert_line "verbs: list show diff restore prune"
	assert_line "value: FILES"
}

@test "completion: fish loads and completes every command, verb and option" {
	prereq fish command -v fish
	"$AG_BIN" completion fish >"$C/agentic-git.fish"
	fish -n "$C/agentic-git.fish"
	each_set >"$C/sets"
	cat >"$C/drive.fish" <<'EOS'
source $argv[1]
echo "cmds: "(complete -C 'agentic-git ' | string replace -r '\t.*' '' | string join ' ')
while read -l line
	set -l key (string split '|' -- $line)[1]
	echo "@$key| "(complete -C "agentic-git $key -" | string replace -r '\t.*' '' | string join ' ')
end < $argv[2]
echo "verbs: "(complete -C 'agentic-git snapshots ' | string join ' ')
echo "top-run: "(complete -C 'agentic-git sandbox run --b' | string join ' ')
EOS
	run fish "$C/drive.fish" "$C/agentic-git.fish" "$C/sets"
	assert_success
	grep -qE "^cmds: .*\breport\b" <<<"$output"
	grep -qE "^cmds: .*\bcompletion\b" <<<"$output"
	while IFS='|' read -r key opts; do
		got=$(grep -F "@$key| " <<<"$output" | head -1)
		for o in $opts --help; do
			grep -qE -- "(^| )$o( |$)" <<<"${got#*|}" || fail "fish: '$key' lacks $o"
		done
	done <"$C/sets"
	assert_line "verbs: diff list prune restore show" # fish sorts them
	# `sandbox run` has its own options, not `run`'s
	assert_line "top-run: --backend --base"
}
