#!/usr/bin/env bats
# A pass-through destructive command that names its repository itself
# (--git-dir/--work-tree, GIT_DIR/GIT_WORK_TREE) is snapshotted in that
# repository, not in the one around the working directory
# (docs/snapshots.md, "Which repository").
load lib
load snapshot-lib

setup() {
	ag_setup
	export AGENTIC_GIT_SNAPSHOTS=1
	# an operator's shell: no agent; and a second repository with its own
	# work, where the commands are typed
	unset AGENTIC_GIT_AGENT
	OTHER=$T/other
	"$REAL_GIT" init -q "$OTHER"
	(cd "$OTHER" && echo o >o.txt && "$REAL_GIT" add o.txt &&
		"$REAL_GIT" commit -qm o && echo "other work" >>o.txt)
	cd "$REPO"
	echo "precious" >>README.md
	echo "new" >untracked.txt
	cd "$OTHER"
}

# the snapshot refs of a repository, one a line
refs_of() {
	"$REAL_GIT" -C "$1" for-each-ref --format='%(refname)' refs/agentic-git/
}

# saved_in_repo: REPO has one snapshot holding the work; OTHER none
saved_in_repo() {
	run refs_of "$REPO"
	[ "${#lines[@]}" -eq 1 ] || fail "expected one snapshot in REPO: $output"
	ref=${lines[0]}
	assert_equal "$("$REAL_GIT" -C "$REPO" show "$ref:README.md")" "$(printf 'hello\nprecious')"
	assert_equal "$("$REAL_GIT" -C "$REPO" show "$ref:untracked.txt")" new
	run refs_of "$OTHER"
	assert_output ""
	# the other repository's work is untouched
	grep -q "other work" "$OTHER/o.txt"
}

@test "--git-dir and --work-tree: the named repository is snapshotted, and restores" {
	run agit --git-dir="$REPO/.git" --work-tree="$REPO" reset -q --hard
	assert_success
	run cat "$REPO/README.md"
	assert_output hello # the reset ran
	saved_in_repo
	cd "$REPO"
	run "$AG_BIN" snapshots restore --yes
	assert_success
	assert_equal "$(cat README.md)" "$(printf 'hello\nprecious')"
}

@test "GIT_DIR and GIT_WORK_TREE, relative ones too: the named repository is snapshotted" {
	cd "$T"
	GIT_DIR=repo/.git GIT_WORK_TREE=repo run agit reset -q --hard
	assert_success
	run cat "$REPO/README.md"
	assert_output hello
	saved_in_repo
}

@test "GIT_DIR alone: the working directory is the work tree, as git takes it" {
	cd "$REPO"
	GIT_DIR=$REPO/.git run agit reset -q --hard
	assert_success
	run refs_of "$REPO"
	[ "${#lines[@]}" -eq 1 ]
	assert_equal "$("$REAL_GIT" -C "$REPO" show "${lines[0]}:README.md")" "$(printf 'hello\nprecious')"
}

@test "clean -fdx with --git-dir: the named repository's ignored files are quarantined and come back" {
	echo "*.env" >"$REPO/.gitignore"
	echo "SECRET=1" >"$REPO/local.env"
	run agit --git-dir="$REPO/.git" --work-tree="$REPO" clean -fdxq
	assert_success
	[ ! -e "$REPO/local.env" ]
	[ ! -e "$REPO/untracked.txt" ]
	[ -f "$OTHER/o.txt" ]
	cd "$REPO"
	run "$AG_BIN" snapshots restore --yes
	assert_success
	assert_equal "$(cat local.env)" "SECRET=1"
	assert_equal "$(cat untracked.txt)" new
}

@test "a named git dir that is no repository: the snapshot fails loudly, nothing elsewhere" {
	mkdir "$T/not-a-repo"
	run agit --git-dir="$T/not-a-repo" --work-tree="$REPO" reset -q --hard
	assert_failure # git itself refuses
	assert_output --partial "pre-op snapshot FAILED"
	run refs_of "$OTHER"
	assert_output ""
	run refs_of "$REPO"
	assert_output ""
}
