#!/usr/bin/env bats
# One gate for our own git-format code (issue 21, point 3;
# docs/architecture.md, "The format gate"): in a repository of every odd
# shape real git makes — SHA-256, a split index, a sparse index, a shared
# repository, a reftable config, an index with an extension we do not know
# — the commands that take our fast paths give git's result: snapshots
# restore byte for byte, refs and files get the modes git gives them, and
# what git refuses is not done behind its back.
load lib
load snapshot-lib
load dispatch

setup() {
	ag_setup
	export AGENTIC_GIT_SNAPSHOTS=1
}

# sha256_repo: $REPO again, as a SHA-256 repository
sha256_repo() {
	rm -rf "$REPO"
	"$REAL_GIT" init -q --object-format=sha256 "$REPO"
	(
		cd "$REPO"
		echo hello >README.md
		mkdir -p src docs
		echo "int main(void) { return 0; }" >src/main.c
		echo guide >docs/guide.md
		"$REAL_GIT" add -A
		"$REAL_GIT" commit -q -m "initial import"
	)
}

# work: unsaved work of every kind in the current work tree
work() {
	echo "unstaged change" >>README.md
	echo "/* staged */" >>src/main.c
	"$REAL_GIT" add src/main.c
	echo "untracked" >src/notes.txt
	echo "SECRET=1" >.env
	echo .env >.gitignore
}

# undone OP ARGS…: OP through the shim takes a snapshot holding the staged
# tree git would write, and restoring it brings the work tree back
undone() {
	local before staged ref
	before=$(tree_state .)
	staged=$("$REAL_GIT" write-tree)
	run agit "$@"
	echo "op: $status $output"
	assert_success
	refute_output --partial "snapshot FAILED"
	[ "$(tree_state .)" != "$before" ] || fail "'$*' destroyed nothing"
	ref=$(newest_ref "$1")
	[ -n "$ref" ] || fail "no $1 snapshot"
	assert_equal "$("$REAL_GIT" rev-parse "$ref^2^{tree}")" "$staged"
	"$REAL_GIT" fsck --no-dangling
	run "$AG_BIN" snapshots restore --yes "$ref"
	assert_success
	assert_equal "$(tree_state .)" "$before"
}

@test "a SHA-256 repository: reset --hard, checkout and clean are undone" {
	sha256_repo
	ag_bind ag1 feat/one
	cd "$WT"
	for op in "reset --hard" "checkout -- ." "clean -fdx"; do
		work
		# shellcheck disable=SC2086
		undone $op
		"$REAL_GIT" reset -q --hard
	done
	# the snapshot refs are 64-digit loose refs git reads
	"$REAL_GIT" for-each-ref --format='%(objectname)' refs/agentic-git/ >"$T/ids"
	[ "$(wc -l <"$T/ids")" -ge 3 ]
	! grep -qv '^[0-9a-f]\{64\}$' "$T/ids"
}

@test "a split index, with and without core.splitIndex: snapshots are git's" {
	ag_bind ag1 feat/one
	cd "$WT"
	"$REAL_GIT" update-index --split-index
	ls "$("$REAL_GIT" rev-parse --git-dir)"/sharedindex.* >/dev/null
	work
	undone reset --hard
	"$REAL_GIT" config core.splitIndex true
	work
	undone checkout -- .
}

@test "a sparse index (cone mode, index.sparse): snapshots are git's" {
	ag_bind ag1 feat/one
	cd "$WT"
	mkdir -p docs/deep
	echo guide >docs/deep/guide.md
	"$REAL_GIT" add docs
	"$REAL_GIT" commit -qm docs
	"$REAL_GIT" sparse-checkout init --cone
	"$REAL_GIT" config index.sparse true
	"$REAL_GIT" sparse-checkout set src
	# the index holds a sparse directory entry: the `sdir` extension
	"$REAL_GIT" ls-files --sparse | grep -qx 'docs/'
	work
	undone reset --hard
}

# modes_like_git: the newest snapshot ref and its directory have the
# modes git gives a ref it creates at the same depth, under the same umask
modes_like_git() {
	local ref common
	ref=$(newest_ref reset)
	common=$("$REAL_GIT" rev-parse --path-format=absolute --git-common-dir)
	"$REAL_GIT" update-ref "refs/agentic-git/snapshots/git/$(basename "$ref")" HEAD
	assert_equal "$(stat -c %a "$common/$ref")" \
		"$(stat -c %a "$common/refs/agentic-git/snapshots/git/$(basename "$ref")")"
	assert_equal "$(stat -c %a "$(dirname "$common/$ref")")" \
		"$(stat -c %a "$common/refs/agentic-git/snapshots/git")"
	find "$common/refs/agentic-git" "$common/objects" -newer "$WT/README.md" \
		! -perm -g+r >"$T/unreadable"
	assert_equal "$(cat "$T/unreadable")" ""
}

@test "a shared repository: the snapshot ref gets the modes git gives refs" {
	"$REAL_GIT" -C "$REPO" config core.sharedRepository group
	ag_bind ag1 feat/one
	cd "$WT"
	work
	umask 077
	undone reset --hard
	modes_like_git
}

# reftable_by_hand: $REPO's config says reftable (git 2.39 cannot make one)
reftable_by_hand() {
	"$REAL_GIT" -C "$REPO" config core.repositoryformatversion 1
	"$REAL_GIT" -C "$REPO" config extensions.refStorage reftable
}

@test "a reftable repository is git's: nothing is written behind git's back" {
	ag_bind ag1 feat/one
	cd "$WT"
	work
	before=$(tree_state .)
	refs_before=$(find "$REPO/.git/refs" "$REPO/.git/packed-refs" 2>/dev/null | sort)
	reftable_by_hand
	# the git here refuses the repository; with the shim, just the same
	run "$REAL_GIT" status
	git_status=$status
	[ "$git_status" -ne 0 ] || skip "this git reads reftable repositories"
	run agit reset --hard
	assert_equal "$status" "$git_status"
	assert_equal "$(tree_state .)" "$before"
	assert_equal "$(find "$REPO/.git/refs" "$REPO/.git/packed-refs" 2>/dev/null | sort)" \
		"$refs_before"
}

@test "a reftable repository: a ref the hook cannot see as a file counts as existing" {
	cd "$REPO"
	"$AG_BIN" run --agent ag1 --branch feat/a -- true 2>/dev/null
	WT=$AGENTIC_GIT_HOME/worktrees/ag1/feat/a
	cd "$WT"
	z=0000000000000000000000000000000000000000
	new=$("$REAL_GIT" rev-parse HEAD)
	# files backend: no refs/tags/v9 file, the ref is new, its creation fine
	echo "$z $new refs/tags/v9" |
		env -u AGENTIC_GIT_AGENT "$AG_BIN" hook reference-transaction prepared
	reftable_by_hand
	# reftable: the tag may be in the table; moving a tag is refused
	run env -u AGENTIC_GIT_AGENT "$AG_BIN" hook reference-transaction prepared \
		<<<"$z $new refs/tags/v9"
	assert_failure
	assert_output --partial "tags are shared"
}

# index_with_extension SIG: the index with one more extension SIG (4 bytes)
# before its trailing SHA-1, the checksum made again
index_with_extension() {
	local idx
	idx=$("$REAL_GIT" rev-parse --git-path index)
	python3 - "$idx" "$1" <<'EOF'
import hashlib, struct, sys
path, sig = sys.argv[1], sys.argv[2].encode()
data = open(path, "rb").read()[:-20]
data += sig + struct.pack(">I", 4) + b"data"
open(path, "wb").write(data + hashlib.sha1(data).digest())
EOF
}

@test "an index with a required extension we do not know: git's answer" {
	prereq python3 python3 -c 'import hashlib'
	ag_bind ag1 feat/one
	cd "$WT"
	work
	index_with_extension zzzz
	before=$(tree_state .)
	run "$REAL_GIT" write-tree
	assert_failure
	assert_output --partial "zzzz"
	# the snapshot fails (loudly), and reset --hard fails as git's does
	run agit reset --hard
	assert_failure
	assert_output --partial "zzzz"
	assert_equal "$(tree_state .)" "$before"
}

@test "an index with an optional extension we do not know: snapshots as usual" {
	prereq python3 python3 -c 'import hashlib'
	ag_bind ag1 feat/one
	cd "$WT"
	work
	index_with_extension Zzzz
	undone reset --hard
}

@test "sessions and their workspaces in SHA-256, split-index and shared repositories" {
	"$REAL_GIT" -C "$REPO" config core.sharedRepository group
	"$REAL_GIT" -C "$REPO" update-index --split-index
	cd "$REPO"
	run "$AG_BIN" run --agent ag1 --branch feat/a -- true
	assert_success
	wt=$AGENTIC_GIT_HOME/worktrees/ag1/feat/a
	assert_equal "$(head_of "$wt")" "$(head_of "$REPO")"
	sha256_repo
	cd "$REPO"
	run "$AG_BIN" run --agent ag2 --branch feat/b -- true
	assert_success
	wt=$AGENTIC_GIT_HOME/worktrees/ag2/feat/b
	assert_equal "$(head_of "$wt")" "$(head_of "$REPO")"
	assert_equal "$(branch_of "$wt")" feat/b
}

@test "an extension we do not know (git ignores it at version 0): git writes the snapshot" {
	# git 2.39 ignores unknown extensions of a version 0 repository, so
	# every road to git is taken here with a git that answers
	"$REAL_GIT" -C "$REPO" config extensions.laterFeature true
	ag_bind ag1 feat/one
	cd "$WT"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/git.log" "$REAL_GIT" >"$T/git-logged"
	chmod +x "$T/git-logged"
	work
	: >"$T/git.log"
	AGENTIC_GIT_REAL_GIT=$T/git-logged undone reset --hard
	# trees, commits and the ref by git, not by our own writers
	grep -q "write-tree" "$T/git.log"
	grep -q "commit-tree" "$T/git.log"
	grep -q "update-ref" "$T/git.log"
	# and a session's provisioning reads its refs through git too
	cd "$REPO"
	run "$AG_BIN" run --agent ag2 --branch feat/b -- true
	assert_success
	assert_equal "$(head_of "$AGENTIC_GIT_HOME/worktrees/ag2/feat/b")" "$(head_of "$REPO")"
}

@test "core.logAllRefUpdates=always: the snapshot ref has the reflog git gives every ref" {
	"$REAL_GIT" -C "$REPO" config core.logAllRefUpdates always
	ag_bind ag1 feat/one
	cd "$WT"
	work
	undone reset --hard
	ref=$(newest_ref reset)
	run "$REAL_GIT" reflog show --format=%H "$ref"
	assert_success
	assert_output "$("$REAL_GIT" rev-parse "$ref")"
}

@test "refs git must tell (an extension we do not know): the hook asks git, exists or not" {
	cd "$REPO"
	"$REAL_GIT" tag v1
	"$AG_BIN" run --agent ag1 --branch feat/a -- true 2>/dev/null
	"$REAL_GIT" config extensions.laterFeature true
	cd "$AGENTIC_GIT_HOME/worktrees/ag1/feat/a"
	new=$("$REAL_GIT" rev-parse HEAD)
	old=$("$REAL_GIT" rev-parse v1)
	z=0000000000000000000000000000000000000000
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/git.log" "$REAL_GIT" >"$T/git-logged"
	chmod +x "$T/git-logged"
	# git says v1 exists: moving it is refused
	run env -u AGENTIC_GIT_AGENT AGENTIC_GIT_REAL_GIT="$T/git-logged" \
		"$AG_BIN" hook reference-transaction prepared <<<"$old $new refs/tags/v1"
	assert_failure
	assert_output --partial "tags are shared"
	grep -q "show-ref --verify --quiet --end-of-options refs/tags/v1" "$T/git.log"
	# git says v9 does not: creating it is fine
	run env -u AGENTIC_GIT_AGENT "$AG_BIN" hook reference-transaction prepared \
		<<<"$z $new refs/tags/v9"
	assert_success
}

@test "dispatch from a shared, split-index clone with an extension we do not know" {
	dsp_setup
	"$REAL_GIT" -C "$REPO" config core.sharedRepository group
	"$REAL_GIT" -C "$REPO" config extensions.laterFeature true
	"$REAL_GIT" -C "$REPO" update-index --split-index
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	"$REAL_GIT" -C "$REPO" fetch -q origin
	printf '#!/bin/sh\ncat >/dev/null\n"$REAL_GIT" commit -q --allow-empty -m "noop $AGENTIC_GIT_TARGET_KEY" && echo "RESOLVED: noop"\n' >"$T/commit.sh"
	chmod +x "$T/commit.sh"
	echo "do nothing" >"$T/prompt.md"
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_success
	assert_equal "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b1)" "noop repo-b1"
	assert_equal "$("$REAL_GIT" --git-dir="$ORIGIN" rev-parse b1^)" "$("$REAL_GIT" -C "$REPO" rev-parse main)"
}

@test "a shared repository: a session's config.worktree gets the modes git gives it" {
	"$REAL_GIT" -C "$REPO" config core.sharedRepository group
	cd "$REPO"
	umask 077
	run "$AG_BIN" run --agent ag1 --branch feat/a -- true
	assert_success
	wt=$AGENTIC_GIT_HOME/worktrees/ag1/feat/a
	cfg=$("$REAL_GIT" -C "$wt" rev-parse --git-path config.worktree)
	case $cfg in /*) ;; *) cfg=$wt/$cfg ;; esac
	[ -n "$("$REAL_GIT" -C "$wt" config --worktree core.hooksPath)" ]
	# what git writes there: group-readable and -writable, as git makes it
	assert_equal "$(stat -c %a "$cfg")" 660
}

@test "a shared repository: the marker's exclude line keeps info/exclude's group modes" {
	"$REAL_GIT" -C "$REPO" config core.sharedRepository group
	chmod 0664 "$REPO/.git/info/exclude"
	ino=$(stat -c %i "$REPO/.git/info/exclude")
	cd "$REPO"
	umask 077
	run "$AG_BIN" run --agent ag1 --branch feat/a -- true
	assert_success
	grep -qx '/.agend-managed' "$REPO/.git/info/exclude"
	assert_equal "$(stat -c %a "$REPO/.git/info/exclude")" 664
	assert_equal "$(stat -c %i "$REPO/.git/info/exclude")" "$ino"
	# an empty one, and one without a final newline, get the line too
	: >"$REPO/.git/info/exclude"
	run "$AG_BIN" run --agent ag2 --branch feat/b -- true
	assert_success
	assert_equal "$(cat "$REPO/.git/info/exclude")" "/.agend-managed"
	assert_equal "$(stat -c %a "$REPO/.git/info/exclude")" 664
	printf '*.o' >"$REPO/.git/info/exclude"
	run "$AG_BIN" run --agent ag3 --branch feat/c -- true
	assert_success
	assert_equal "$(cat "$REPO/.git/info/exclude")" "$(printf '*.o\n/.agend-managed')"
}

@test "core.sharedRepository in the global config, or in an included file: git's modes" {
	ag_bind ag1 feat/one
	cd "$WT"
	umask 077
	"$REAL_GIT" config --global core.sharedRepository group
	work
	undone reset --hard
	modes_like_git
	"$REAL_GIT" config --global --unset core.sharedRepository
	printf '[core]\n\tsharedRepository = group\n' >"$T/shared.inc"
	"$REAL_GIT" -C "$REPO" config include.path "$T/shared.inc"
	work
	undone reset --hard
	modes_like_git
}
