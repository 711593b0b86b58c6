#!/usr/bin/env bats
# State an earlier command left in the worktree neither blinds nor breaks
# the pre-op snapshot (docs/fuzzing.md I9, I10–I13: the invariant fuzzer's
# losses that happened only after a sequence). Each test leaves the state
# with git as a bound agent could, makes unsaved work, runs a destructive
# command through the shim and checks the snapshot holds the work.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/a
}

# snapshot_has OP PATH CONTENT: the newest OP snapshot holds PATH as CONTENT
snapshot_has() {
	local ref
	ref=$(newest_ref "$1")
	[ -n "$ref" ] || fail "no $1 snapshot was taken"
	run "$REAL_GIT" show "$ref:$2"
	assert_success
	assert_output "$3"
}

@test "an assume-unchanged file's changes are in the snapshot (I10)" {
	agit update-index --assume-unchanged README.md
	echo "unsaved" >>README.md
	want=$(cat README.md)
	run agit checkout -- README.md
	assert_success
	refute_output --partial "snapshot FAILED"
	snapshot_has checkout README.md "$want"
	# the real index keeps the agent's bit: only the private one lost it
	run "$REAL_GIT" ls-files -v README.md
	assert_output "h README.md"
}

@test "a skip-worktree file's changes are in the snapshot (I10)" {
	agit update-index --skip-worktree README.md
	echo "unsaved" >>README.md
	want=$(cat README.md)
	run agit restore --ignore-skip-worktree-bits README.md
	assert_success
	snapshot_has restore README.md "$want"
	run "$REAL_GIT" ls-files -v README.md
	assert_output "S README.md"
}

@test "a sparse checkout's absent files stay in the snapshot, untracked files outside it are captured (I11)" {
	mkdir -p deep/keep deep/out
	echo k >deep/keep/k.txt && echo o >deep/out/o.txt
	"$REAL_GIT" add deep && "$REAL_GIT" commit -qm deep
	agit sparse-checkout set deep/keep
	[ ! -e deep/out/o.txt ]
	mkdir -p work && echo "untracked outside" >work/u.txt
	echo "unsaved" >>deep/keep/k.txt
	run agit clean -f work
	assert_success
	refute_output --partial "snapshot FAILED"
	snapshot_has clean work/u.txt "untracked outside"
	snapshot_has clean deep/keep/k.txt "$(printf 'k\nunsaved')"
	# the file the sparse checkout left out is not recorded as deleted
	snapshot_has clean deep/out/o.txt o
}

@test "core.autocrlf with core.safecrlf does not fail the snapshot (I12)" {
	agit config core.autocrlf true
	agit config core.safecrlf true
	echo "untracked" >notes.txt
	echo "unsaved" >>README.md
	run agit clean -f
	assert_success
	refute_output --partial "snapshot FAILED"
	snapshot_has clean notes.txt untracked
}

@test "a nested repository with no commit does not fail the snapshot (I9)" {
	agit init -q sub
	mkdir -p work && echo "untracked" >work/u.txt
	# a tracked file in work/ makes clean -f (no -d) delete in it
	echo t >work/t.txt && "$REAL_GIT" add work/t.txt
	run agit clean -f
	assert_success
	refute_output --partial "snapshot FAILED"
	assert_output --partial "the pre-op snapshot leaves out what git could not add (error: 'sub/' does not have a commit checked out)"
	[ ! -e work/u.txt ]
	snapshot_has clean work/u.txt untracked
}

# nested_repos: repositories an agent left in its worktree, each with work
# that exists nowhere else: a clone with a commit of its own, a change and
# an untracked file; a repository with no commit holding a file; one deep
# in an untracked directory
nested_repos() {
	"$REAL_GIT" clone -q "$WT" clone
	(cd clone && echo local >l.txt && "$REAL_GIT" add l.txt &&
		"$REAL_GIT" commit -qm "local only" && echo wip >>README.md &&
		echo new >new.txt)
	"$REAL_GIT" init -q fresh && echo x >fresh/a.txt
	mkdir -p deep/dir && "$REAL_GIT" init -q deep/dir/repo &&
		echo d >deep/dir/repo/d.txt && echo u >deep/u.txt
}

@test "clean -ffd moves nested repositories into the quarantine whole, and restore brings them back (I17)" {
	nested_repos
	before=$(tree_state .)
	run agit clean -ffd
	assert_success
	[ ! -e clone ]
	[ ! -e fresh ]
	[ ! -e deep/dir/repo ]
	ref=$(newest_ref clean)
	[ -n "$ref" ] || fail "no clean snapshot"
	run "$AG_BIN" snapshots show "$ref"
	assert_output --partial "clone/.git/"
	assert_output --partial "fresh/a.txt"
	run "$AG_BIN" snapshots restore "$ref"
	assert_success
	assert_equal "$(tree_state .)" "$before"
	run "$REAL_GIT" -C clone log -1 --format=%s
	assert_output "local only"
}

@test "clean -ffdx: a nested repository inside a deleted directory comes back whole (I17)" {
	nested_repos
	before=$(tree_state .)
	run agit clean -ffdx
	assert_success
	[ ! -e deep ]
	run "$AG_BIN" snapshots restore "$(newest_ref clean)"
	assert_success
	assert_equal "$(tree_state .)" "$before"
}

@test "clean -fd with one -f leaves nested repositories where they are (I17)" {
	nested_repos
	before=$(tree_state clone)
	run agit clean -fd
	assert_success
	assert_equal "$(tree_state clone)" "$before"
	[ -f fresh/a.txt ]
	[ -f deep/dir/repo/d.txt ]
	[ ! -e deep/u.txt ]
}

@test "files git cannot add are quarantined before clean deletes them (I17)" {
	# names git refuses in an index (core.protectNTFS): clean deletes them
	echo a >'GIT~1' && echo b >'.git.'
	mkdir -p work && echo t >work/t.txt && "$REAL_GIT" add work/t.txt
	echo c >'work/.git ' && echo u >work/u.txt
	before=$(tree_state .)
	run agit clean -f
	assert_success
	assert_output --partial "the pre-op snapshot leaves out what git could not add"
	[ ! -e 'GIT~1' ]
	[ ! -e 'work/.git ' ]
	[ ! -e work/u.txt ]
	run "$AG_BIN" snapshots restore "$(newest_ref clean)"
	assert_success
	assert_equal "$(tree_state .)" "$before"
}

@test "clean -ff without -d deletes what git's own would: no directory, no nested repository (I17)" {
	nested_repos
	mkdir -p plain && echo p >plain/p.txt && echo top >top.txt
	want=$("$REAL_GIT" clean -n --no-quiet --force -f)
	[ "$want" = "Would remove top.txt" ] || fail "git itself would remove: $want"
	before=$(tree_state clone)
	run agit clean --no-quiet --force -f
	assert_success
	# git's first error, not its warning about the embedded clone; the
	# snapshot lacks the repositories with no commit, so the file clean
	# deletes went into the quarantine (and clean found nothing left)
	assert_output --partial "leaves out what git could not add (error: 'deep/dir/repo/' does not have a commit checked out)"
	run "$AG_BIN" snapshots show "$(newest_ref clean)"
	assert_output --partial "top.txt"
	[ ! -e top.txt ]
	[ -f plain/p.txt ]
	[ -f fresh/a.txt ]
	[ -f deep/u.txt ]
	assert_equal "$(tree_state clone)" "$before"
}

# an ignore file clean deletes, next to files it ignores, with a snapshot
# that leaves something out (every file clean deletes is quarantined)
ignoring_untracked() {
	agit init -q sub
	printf '.env\nbuild/\n' >"$1"
	echo SECRET=1 >.env && mkdir -p build && echo o >build/out.o
	echo u >u.txt
}

@test "an untracked .gitignore is copied into the quarantine, not moved: clean still spares what it ignores (I26)" {
	ignoring_untracked .gitignore
	mkdir -p dir && printf 'keep.txt\n' >dir/.gitignore && echo k >dir/keep.txt
	before=$(tree_state .)
	run agit clean -f -d
	assert_success
	assert_output --partial "the pre-op snapshot leaves out what git could not add"
	# what git's own clean deletes, no more
	[ -f .env ]
	[ -f build/out.o ]
	[ -f dir/keep.txt ]
	[ ! -e .gitignore ]
	[ ! -e u.txt ]
	[ ! -e dir/.gitignore ]
	run "$AG_BIN" snapshots restore "$(newest_ref clean)"
	assert_success
	assert_equal "$(tree_state .)" "$before"
}

@test "when moving files into the quarantine would change what clean deletes, clean is refused and nothing is lost (I26)" {
	# core.excludesFile names a file clean deletes: moving it un-ignores .env
	ignoring_untracked ign
	before=$(tree_state .)
	run agit -c core.excludesFile=ign clean -f -d
	assert_failure
	assert_output --partial "with the quarantined files moved, git clean would also delete '.env'"
	assert_output --partial "git clean refused"
	[ -f .env ]
	[ -f build/out.o ]
	run "$AG_BIN" snapshots restore "$(newest_ref clean)"
	assert_success
	assert_equal "$(tree_state .)" "$before"
}
