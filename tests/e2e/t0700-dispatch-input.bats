#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch: bad input is refused before anything is created; dry runs create
# nothing; --shard partitions exactly.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
}

# nothing_created: no run directory, no workspace, no binding.
nothing_created() {
	[ ! -e "$AGENTIC_GIT_HOME/runs" ]
	[ -z "$(ls -A "$AGENTIC_GIT_HOME/runtime")" ]
}

@test "t0700.1 a targets file with an unknown key names file:line:column" {
	printf 'targets:\n  - repo: %s\n    head: feat/a\n    base: main\n    colour: red\n' "$REPO" >$T/t.yaml
	must_fail dispatch --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/noop.sh"
	[ "$status" -eq 1 ]
	assert_output --partial "t.yaml:5:5: unknown key 'colour'"
	nothing_created
}

@test "t0700.2 wrong types, missing keys and bad branch names are all reported" {
	printf 'targets:\n  - repo: [a]\n    head: "feat..x"\n  - head: x\n    base: main\n    verify_command: make\n' >$T/t.yaml
	must_fail dispatch --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "'repo' must be a string"
	assert_output --partial "'head' is not a valid branch name 'feat..x'"
	assert_output --partial "target is missing 'base'"
	assert_output --partial "target is missing 'repo'"
	assert_output --partial "'verify_command' must be a non-empty list"
	nothing_created
}

@test "t0700.3 JSON targets share the shape and the strictness" {
	printf '{"targets": [{"repo": "%s", "head": "feat/a", "base": "main", "key": 7}]}' "$REPO" >$T/t.json
	must_fail dispatch --targets $T/t.json --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "t.json:1:"
	assert_output --partial "'key' must be a string"
	printf '{"targets": [{"repo": "%s", "head": "feat/a", "base": "main"}]}' "$REPO" >$T/t.json
	run dispatch --dry-run --targets $T/t.json --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_success
	assert_output --partial "would dispatch repo-feat-a"
	printf '{"targets": [' >$T/bad.json
	must_fail dispatch --targets $T/bad.json --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "bad.json:"
}

@test "t0700.4 a repo that is not a clone, or has no origin, is refused" {
	mkdir $T/plain
	must_fail dispatch --repo $T/plain --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "not a git clone"
	"$REAL_GIT" init -q $T/noorigin
	must_fail dispatch --repo $T/noorigin --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "no 'origin' remote"
	must_fail dispatch --repo $T/missing --head feat/a --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "is not a directory"
	nothing_created
}

@test "t0700.5 duplicate keys, bad keys, bad flags" {
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: k}\n  - {repo: %s, head: feat/a, base: main, key: k}\n' "$REPO" "$REPO" >$T/t.yaml
	must_fail dispatch --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "duplicate target key 'k'"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --key ../x --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "--key: must be"
	must_fail dispatch --repo "$REPO" --head -x --base main --task resolve-conflicts -- "$AGENTS/noop.sh"
	assert_output --partial "not a valid branch name"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts --prompt-file /etc/hostname -- "$AGENTS/noop.sh"
	assert_output --partial "exactly one of --task"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --task fix-everything -- "$AGENTS/noop.sh"
	assert_output --partial "unknown task 'fix-everything'"
	PATH=/usr/bin:/bin must_fail dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	assert_output --partial "profile 'claude'"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -j 0 -- "$AGENTS/noop.sh"
	assert_output --partial "--concurrency: '0'"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts --shard 3/2 -- "$AGENTS/noop.sh"
	assert_output --partial "--shard: '3/2'"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts --bogus -- "$AGENTS/noop.sh"
	assert_output --partial "unknown option '--bogus'"
	: >$T/empty.md
	must_fail dispatch --repo "$REPO" --head feat/a --base main --prompt-file $T/empty.md -- "$AGENTS/noop.sh"
	assert_output --partial "is empty"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- $T/nope.sh
	assert_output --partial "not found or not executable"
	must_fail dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts --profile codex -- "$AGENTS/noop.sh"
	assert_output --partial "either --profile/--model or an agent command"
	nothing_created
}

@test "t0700.6 a dry run creates nothing, not even the home" {
	export AGENTIC_GIT_HOME=$T/fresh-home
	refs_before=$("$REAL_GIT" -C "$REPO" for-each-ref)
	origin_before=$("$REAL_GIT" --git-dir="$ORIGIN" for-each-ref)
	run dispatch --dry-run --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/resolve.sh"
	assert_success
	assert_output --partial "would dispatch repo-feat-a: $REPO feat/a onto main"
	assert_output --partial "nothing was created"
	[ ! -e "$AGENTIC_GIT_HOME" ]
	[ "$refs_before" = "$("$REAL_GIT" -C "$REPO" for-each-ref)" ]
	[ "$origin_before" = "$("$REAL_GIT" --git-dir="$ORIGIN" for-each-ref)" ]
	[ "$("$REAL_GIT" -C "$REPO" worktree list | wc -l)" -eq 1 ]
}

@test "t0700.7 --shard K/N partitions the targets exactly and deterministically" {
	{
		echo "targets:"
		for i in $(seq 1 20); do
			printf '  - {repo: %s, head: feat/a, base: main, key: k%02d}\n' "$REPO" "$i"
		done
	} >$T/t.yaml
	all=$(dispatch --dry-run --json --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/noop.sh" |
		grep -o '"key":"k[0-9]*"' | sort)
	[ "$(echo "$all" | wc -l)" -eq 20 ]
	: >$T/union
	for k in 1 2 3; do
		dispatch --dry-run --json --shard $k/3 --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/noop.sh" |
			grep -o '"key":"k[0-9]*"' >$T/shard$k
		again=$(dispatch --dry-run --json --shard $k/3 --targets $T/t.yaml --task resolve-conflicts -- "$AGENTS/noop.sh" |
			grep -o '"key":"k[0-9]*"')
		[ "$again" = "$(cat $T/shard$k)" ]	# deterministic
		[ -s $T/shard$k ]
		cat $T/shard$k >>$T/union
	done
	# union = all, and no key twice (pairwise disjoint)
	[ "$(sort $T/union)" = "$all" ]
	[ -z "$(sort $T/union | uniq -d)" ]
}

@test "t0700.8 --help starts with the usage line" {
	run "$AG_BIN" dispatch --help
	assert_success
	assert_line --index 0 --partial "usage: agentic-git dispatch"
}
