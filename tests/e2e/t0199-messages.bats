#!/usr/bin/env bats
# Deny prose (reference §4.5): the strings tests and agents rely on, per
# deny, and never the word "security".
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	cd "$WT"
}

@test "the bypass lines name all three variables, epoch and Unix seconds" {
	run agit checkout main
	assert_denied bound
	assert_output --partial "AGENTIC_GIT_BYPASS_UNTIL=<epoch>"
	assert_output --partial "Unix seconds"
	assert_output --partial "(branch 'feat/a', task task-1)"
	# stderr only, stdout untouched
	run --separate-stderr agit checkout main
	assert_equal "$output" ""
	[[ "$stderr" == *"ERROR git checkout denied"* ]]
}

@test "worktree lifecycle (bound)" {
	run agit worktree add "$T/w"
	assert_denied bound
	assert_output --partial "worktree lifecycle is session-managed"
	assert_output --partial "agentic-git run"
	[ ! -e "$T/w" ]
	run agit worktree prune
	assert_denied bound
	run agit worktree list
	assert_success
}

@test "submodule--helper at depth 0 is not allowed" {
	run agit submodule--helper list
	assert_denied bound
	assert_output --partial "submodule--helper"
	assert_output --partial "not allowed"
	assert_output --partial "git submodule"
}

@test "forbidden subcommands are not allowed" {
	local s
	for s in "filter-branch -f HEAD" "replace HEAD HEAD" "credential fill" \
		"credential-store get" "upload-pack ." "daemon" "for-each-repo --config=x gc"; do
		# shellcheck disable=SC2086
		run agit $s </dev/null
		assert_denied bound
		assert_output --partial "not allowed"
	done
}

# docs/fuzzing.md I16: with no tool configured, difftool ran vimdiff, which
# wrote ~/.viminfo. A tool that would leave a trace shows it did not run.
@test "difftool and mergetool are not allowed for agents, and start nothing" {
	local s
	echo change >>README.md
	for s in "difftool --" "difftool -y HEAD" "difftool --tool=vimdiff" \
		"difftool --extcmd=true" "mergetool" "-C $T difftool --no-index a b"; do
		# shellcheck disable=SC2086
		run agit $s </dev/null
		assert_denied bound
		assert_output --partial "git diff"
		assert_output --partial "interactive tool"
	done
	[ ! -e "$HOME/.viminfo" ]
	[ ! -e "$T/ran" ]
	# the operator's difftool runs
	AGENTIC_GIT_AGENT= run agit -c difftool.t.cmd="touch $T/ran" difftool -y -t t README.md </dev/null
	assert_success
	[ -e "$T/ran" ]
}

@test "an unknown global option: unrecognized, fail-closed" {
	run agit --frobnicate status
	assert_denied bound
	assert_output --partial "unrecognized global option '--frobnicate'"
	assert_output --partial "fail-closed"
	run agit -Cx status
	assert_denied bound
	run agit --exec-path=/tmp status
	assert_denied bound
	assert_output --partial "--exec-path"
}

@test "known globals are parsed like git: --no-pager grep, -c x=y cat-file work" {
	run agit --no-pager grep hello
	assert_success
	run agit -c color.ui=never cat-file -t HEAD
	assert_success
	assert_output commit
	run agit -C . rev-list --count HEAD
	assert_success
	run agit --literal-pathspecs -P log -1 --format=%s
	assert_success
}

@test "an unknown subcommand is not expanded as an alias; an installed git-<sub> is refused" {
	"$REAL_GIT" config alias.co checkout
	run agit co main
	assert_denied bound
	assert_output --partial "aliases are not expanded"
	mkdir -p "$T/bin"
	printf '#!/bin/sh\necho hello from git-hello\n' >"$T/bin/git-hello"
	chmod +x "$T/bin/git-hello"
	# an external command's own git calls would never meet the shim
	PATH="$T/bin:$PATH" run agit hello
	assert_denied bound
	assert_output --partial "'git hello' is an external command (git-hello)"
	refute_output --partial "hello from git-hello"
}

@test "another canonical checkout: no checkout, reset or clean there (#852)" {
	"$REAL_GIT" clone -q "$ORIGIN" "$T/other-canon"
	"$REAL_GIT" -C "$T/other-canon" branch side
	cd "$T/other-canon"
	run agit checkout side
	assert_denied bound
	assert_output --partial "DENIED"
	assert_output --partial "#852"
	run agit reset --hard
	assert_denied bound
	run agit clean -fd
	assert_denied bound
	assert_equal "$(branch_of "$T/other-canon")" main
	run agit log -1
	assert_success
	run agit commit --allow-empty -q -m ok-here
	assert_success
}

@test "a push range that cannot be computed denies: fail-closed" {
	run agit push origin no-such-ref:feat/a
	assert_denied bound
	assert_output --partial "fail-closed"
	assert_last_event deny_trust_root push
}

@test "trust-root deny names the file and the way out" {
	commit_file "$WT" conf/policy.toml
	run agit push origin feat/a
	assert_denied bound
	assert_output --partial "trust-root file"
	assert_output --partial "conf/policy.toml"
	assert_output --partial "git rm --cached"
}

@test "no deny text says security" {
	local c
	for c in "checkout main" "push -f origin feat/a" "push --mirror origin" \
		"branch -D main" "config core.hooksPath x" "tag -d x" "reflog expire --all" \
		"update-ref --stdin" "init" "--bogus status"; do
		# shellcheck disable=SC2086
		run agit $c </dev/null
		assert_equal "$status" 1
		refute_security
	done
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	run agit commit -m x
	assert_denied unbound
}
