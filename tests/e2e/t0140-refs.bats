#!/usr/bin/env bats
# Protected refs (main, master, policy.toml globs) and the refs/agentic-git/
# namespace hold for every ref-moving command (PRODUCT.md §4, §5).
load lib
load shimlib

setup() {
	ag_setup
	(
		cd "$REPO"
		"$REAL_GIT" branch master
		"$REAL_GIT" branch other
		"$REAL_GIT" branch release/1.0
		"$REAL_GIT" branch prod
	)
	ag_bind ag1 feat/a
	commit_file "$WT" work.txt
	WT_HEAD=$(head_of "$WT")
	MAIN=$("$REAL_GIT" -C "$REPO" rev-parse main)
	REFS_BEFORE=$("$REAL_GIT" -C "$REPO" for-each-ref)
	cd "$WT"
}

refs_unchanged() {
	assert_equal "$("$REAL_GIT" -C "$REPO" for-each-ref)" "$REFS_BEFORE"
}

write_policy() {
	printf '%s\n' "$@" >"$AGENTIC_GIT_HOME/policy.toml"
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$AGENTIC_GIT_HOME/policy.toml"
}

assert_protected() {
	assert_denied bound
	assert_output --partial "protected ref"
	assert_last_event deny_protected_ref "$1"
	refs_unchanged
}

@test "branch -f / -D / -d / -m / -M / -c of main and master are denied" {
	run agit branch -f main HEAD
	assert_protected branch
	run agit branch -D main
	assert_protected branch
	run agit branch -d master
	assert_protected branch
	run agit branch -m main x
	assert_protected branch
	run agit branch -M other master
	assert_protected branch
	run agit branch -c other main
	assert_protected branch
	run agit branch -C other Master
	assert_protected branch
	run agit branch --force master HEAD
	assert_protected branch
}

@test "renaming the assigned branch is denied" {
	run agit branch -m feat/a renamed
	assert_denied bound
	assert_output --partial "break your session's binding"
	run agit branch -m renamed
	assert_denied bound
	assert_equal "$(branch_of "$WT")" feat/a
}

@test "ordinary branch work is allowed" {
	run agit branch topic
	assert_success
	run agit branch -f topic HEAD~1
	assert_success
	run agit branch -m topic topic2
	assert_success
	run agit branch -D topic2
	assert_success
	run agit branch -u origin/main
	assert_success
	run agit branch --unset-upstream
	assert_success
	assert_no_deny_events
}

@test "checkout and switch to a protected branch are denied" {
	run agit checkout main
	assert_denied bound
	assert_output --partial "'main'"
	assert_output --partial "protected"
	run agit switch master
	assert_denied bound
	assert_equal "$(branch_of "$WT")" feat/a
}

@test "update-ref of a protected ref is denied" {
	run agit update-ref refs/heads/main HEAD
	assert_protected update-ref
	run agit update-ref -d refs/heads/master
	assert_protected update-ref
	assert_equal "$("$REAL_GIT" rev-parse main)" "$MAIN"
}

@test "update-ref: other branches, --stdin, HEAD detach/delete, short names are denied" {
	run agit update-ref refs/heads/other HEAD
	assert_denied bound
	assert_output --partial "cross-branch"
	printf 'update refs/heads/main %s\n' "$WT_HEAD" >"$T/in"
	run agit update-ref --stdin <"$T/in"
	assert_denied bound
	assert_output --partial -- "--stdin"
	run agit update-ref --no-deref HEAD "$MAIN"
	assert_denied bound
	run agit update-ref -d HEAD
	assert_denied bound
	run agit update-ref main HEAD
	assert_denied bound
	refs_unchanged
	assert_equal "$(branch_of "$WT")" feat/a
}

@test "update-ref of the assigned branch, HEAD and tags is allowed" {
	run agit update-ref refs/heads/feat/a HEAD~1
	assert_success
	assert_equal "$(head_of "$WT")" "$MAIN"
	run agit update-ref HEAD "$WT_HEAD"
	assert_success
	assert_equal "$("$REAL_GIT" rev-parse feat/a)" "$WT_HEAD"
	run agit update-ref refs/tags/agent-tag HEAD
	assert_success
	assert_no_deny_events
}

@test "symbolic-ref cannot point HEAD at another branch, delete it or make a branch a symref" {
	run agit symbolic-ref HEAD refs/heads/main
	assert_denied bound
	run agit symbolic-ref HEAD refs/heads/other
	assert_denied bound
	run agit symbolic-ref -d HEAD
	assert_denied bound
	run agit symbolic-ref refs/heads/other refs/heads/main
	assert_denied bound
	# git writes a symref past the ref lock: no other name may become one
	# (invariant fuzzer, seed 32: a tag moved; docs/fuzzing.md I24)
	"$REAL_GIT" -C "$REPO" tag v-sym
	for f in "symbolic-ref -- refs/tags/v-sym HEAD" "symbolic-ref refs/tags/v-sym HEAD" \
		"symbolic-ref refs/remotes/origin/main refs/heads/feat/a" "symbolic-ref -m x refs/stash HEAD"; do
		# shellcheck disable=SC2086
		run agit $f
		assert_denied bound
		assert_output --partial "a symbolic ref is not allowed"
	done
	assert_equal "$("$REAL_GIT" -C "$REPO" rev-parse v-sym)" "$("$REAL_GIT" -C "$REPO" rev-parse main)"
	run "$REAL_GIT" -C "$REPO" symbolic-ref -q refs/tags/v-sym
	assert_failure
	"$REAL_GIT" -C "$REPO" tag -d v-sym >/dev/null
	assert_equal "$(branch_of "$WT")" feat/a
	refs_unchanged
	run agit symbolic-ref HEAD
	assert_success
	assert_output refs/heads/feat/a
	run agit symbolic-ref HEAD refs/heads/feat/a
	assert_success
}

@test "fetch into a protected local branch or a wildcard into refs/heads is denied" {
	run agit fetch origin main:main
	assert_protected fetch
	run agit fetch origin +main:refs/heads/master
	assert_protected fetch
	run agit fetch origin '+refs/heads/*:refs/heads/*'
	assert_protected fetch
	run agit pull origin main:main
	assert_protected pull
	run agit fetch origin
	assert_success
	run agit fetch origin main
	assert_success
	run agit fetch origin main:refs/remotes/origin/main
	assert_success
}

@test "policy.toml globs protect more branches, case-insensitively" {
	write_policy '# operator policy' '' 'protected_refs = [ "release/*", "PROD" ]'
	run agit branch -f release/1.0 HEAD
	assert_protected branch
	run agit branch -D prod
	assert_protected branch
	run agit branch release/2.0
	assert_protected branch
	run agit update-ref refs/heads/prod HEAD
	assert_protected update-ref
	run agit fetch origin main:release/x
	assert_protected fetch
	run agit push origin HEAD:release/9
	assert_protected push
	run agit checkout release/1.0
	assert_denied bound
	assert_output --partial "protected"
	# a branch outside the patterns is still fine
	run agit branch releases
	assert_success
}

@test "a forged policy.toml makes every branch protected (fail-closed)" {
	write_policy 'protected_refs = [ "prod" ]'
	echo '# edited' >>"$AGENTIC_GIT_HOME/policy.toml"
	run agit branch topic
	assert_protected branch
	assert_output --partial "policy.toml was refused"
	assert_output --partial "every branch counts as protected"
	run agit push origin feat/a
	assert_protected push
	[ -z "$(origin_sha feat/a)" ]
}

@test "an unsigned policy.toml makes every branch protected" {
	printf 'protected_refs = [ "prod" ]\n' >"$AGENTIC_GIT_HOME/policy.toml"
	run agit branch topic
	assert_protected branch
}

@test "an unparsable (but signed) policy.toml makes every branch protected" {
	write_policy 'protected_refs = release'
	run agit branch topic
	assert_protected branch
	assert_output --partial "policy.toml was refused"
	write_policy '[section]' 'protected_refs = [ "x" ]'
	run agit branch topic
	assert_protected branch
}

@test "refs/agentic-git/ cannot be touched by update-ref, symbolic-ref, fetch or push" {
	local snap
	snap=$("$REAL_GIT" commit-tree "HEAD^{tree}" -p HEAD -m snapshot)
	"$REAL_GIT" update-ref refs/agentic-git/snapshots/ag1/s1 "$snap"
	REFS_BEFORE=$("$REAL_GIT" -C "$REPO" for-each-ref)
	run agit update-ref -d refs/agentic-git/snapshots/ag1/s1
	assert_denied bound
	assert_output --partial "refs/agentic-git/"
	run agit update-ref refs/agentic-git/snapshots/ag1/s1 HEAD
	assert_denied bound
	run agit update-ref refs/agentic-git/snapshots/ag2/new HEAD
	assert_denied bound
	run agit symbolic-ref refs/agentic-git/x refs/heads/feat/a
	assert_denied bound
	run agit fetch origin main:refs/agentic-git/snapshots/ag1/s1
	assert_denied bound
	run agit push origin refs/agentic-git/snapshots/ag1/s1:refs/heads/feat/a
	assert_denied bound
	assert_output --partial "SNAPSHOT_REF_PUSH"
	refs_unchanged
	[ -z "$(origin_sha feat/a)" ]
	# reading its own part of the namespace is fine (the rest is other
	# agents' snapshots: t0302)
	run agit for-each-ref refs/agentic-git/snapshots/ag1/
	assert_success
	assert_output --partial "$snap"
}
