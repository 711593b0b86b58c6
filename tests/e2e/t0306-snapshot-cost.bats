#!/usr/bin/env bats
# Issue 3, acceptance 5 (the snapshot's speed budget), without timing: the
# snapshot runs only the git processes it needs (docs/snapshots.md, "Cost"),
# and what the shortcuts skip is still captured exactly: a racy same-size
# edit, and the staged tree read from git's cache for index versions 2, 3
# and 4. The timing itself is bench/snapshot-bench.sh.
load lib
load snapshot-lib

setup() {
	ag_setup
	ag_bind ag1 feat/one
	export AGENTIC_GIT_SNAPSHOTS=1
	cd "$WT"
	# real git behind a wrapper that logs each subcommand (and the malloc
	# tunables it got); every call still runs the real git
	LOG=$T/git.log
	cat >"$T/git-logged" <<-EOF
		#!/bin/sh
		# the subcommand, after -C <dir> (the routed op) and -c k=v
		i=1
		while :; do
			eval "a=\\\${\$i}"
			case \$a in -C|-c) i=\$((i + 2)) ;; *) break ;; esac
		done
		echo "\$a \${GLIBC_TUNABLES:-}" >>"$LOG"
		exec "$REAL_GIT" "\$@"
	EOF
	chmod +x "$T/git-logged"
	export LOG
}

teardown() {
	# an immutable git dir would outlive the test
	[ -z "${GD:-}" ] || allow_links "$GD"
}

# logged ARGS…: run git through the shim with the logging real git; the
# log then holds the snapshot's git calls and, last, the operation itself.
logged() {
	: >"$LOG"
	AGENTIC_GIT_REAL_GIT=$T/git-logged agit "$@"
}

calls() {
	cut -d' ' -f1 "$LOG" | paste -sd' '
}

# snap_calls: the snapshot's git calls (all but the last, the operation),
# sorted: rev-parse, `add -A` and the staged tree's write-tree overlap, so
# their order is not fixed (what must come first is forced by the data).
snap_calls() {
	sed '$d' "$LOG" | cut -d' ' -f1 | sort | paste -sd' '
}

# op_call: the last git call, the operation itself.
op_call() {
	tail -n1 "$LOG" | cut -d' ' -f1
}

# age FILE…: date files 100 s back. An index entry whose file is as new as
# the index is "racy" and `add -A` rewrites it whatever its content: the
# tests that count on `add -A` leaving the index alone need old files.
age() {
	touch -d "@$(($(date +%s) - 100))" "$@"
}

# age_tree: every tracked file old, and git's cached root tree valid.
age_tree() {
	"$REAL_GIT" ls-files -z | xargs -0 touch -d "@$(($(date +%s) - 100))"
	"$REAL_GIT" add -u
	"$REAL_GIT" write-tree >/dev/null
}

@test "nothing to lose costs one scan: rev-parse and add -A, then the op" {
	age_tree
	run logged reset -q --hard
	assert_success
	assert_equal "$(snap_calls)" "add rev-parse"
	assert_equal "$(op_call)" reset
	[ -z "$(newest_ref)" ]
}

@test "work to save: rev-parse and add -A only; trees, commit and ref are written directly" {
	echo "edit" >>README.md
	echo "new" >untracked.txt
	run logged reset -q --hard
	assert_success
	assert_equal "$(snap_calls)" "add rev-parse"
	assert_equal "$(op_call)" reset
	ref=$(newest_ref reset)
	[ "$("$REAL_GIT" show "$ref:README.md")" = "$(printf 'hello\nedit')" ]
	[ "$("$REAL_GIT" show "$ref:untracked.txt")" = "new" ]
}

@test "rev-parse and add -A overlap: the scan does not wait for rev-parse" {
	echo "edit" >>README.md
	echo "new" >untracked.txt
	# rev-parse held back a second: add -A must start meanwhile
	cat >"$T/git-slow" <<-EOF
		#!/bin/sh
		for a; do
			case \$a in
			rev-parse) : >"$T/rev-parse-running"; sleep 1
				"$REAL_GIT" "\$@"; st=\$?; rm -f "$T/rev-parse-running"; exit \$st ;;
			add) # both start at once: give rev-parse's wrapper time
				# to mark itself (a sequential add never sees it)
				for i in 1 2 3 4 5 6 7 8 9 10; do
					[ -e "$T/rev-parse-running" ] && { : >"$T/overlapped"; break; }
					sleep 0.05
				done
				break ;;
			-*|*=*) ;;
			*) break ;;
			esac
		done
		exec "$REAL_GIT" "\$@"
	EOF
	chmod +x "$T/git-slow"
	AGENTIC_GIT_REAL_GIT=$T/git-slow run agit reset -q --hard
	assert_success
	[ -e "$T/overlapped" ] || fail "add -A waited for rev-parse"
	ref=$(newest_ref reset)
	[ "$("$REAL_GIT" show "$ref:README.md")" = "$(printf 'hello\nedit')" ]
	[ "$("$REAL_GIT" show "$ref:untracked.txt")" = "new" ]
	[ -z "$("$REAL_GIT" status --porcelain --untracked-files=no)" ]
}

@test "when the .git files and git disagree on the work tree, the capture starts over in order" {
	# core.worktree: the .git directory is r/.git, git's work tree r/w
	mkdir -p "$T/sep/r/w"
	"$REAL_GIT" init -q "$T/sep/r"
	"$REAL_GIT" -C "$T/sep/r" config core.worktree "$T/sep/r/w"
	cd "$T/sep/r/w"
	echo one >f.txt
	"$REAL_GIT" add f.txt
	"$REAL_GIT" commit -qm one
	echo two >>f.txt
	echo new >n.txt
	: >"$LOG"
	AGENTIC_GIT_REAL_GIT=$T/git-logged run "$TEST_TOOL" snapshot "$T/sep/r/w" reset
	assert_success
	# the overlapped try, then the plain one: rev-parse runs twice
	[ "$(grep -c '^rev-parse' "$LOG")" -eq 2 ]
	ref=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ | tail -n1)
	[ -n "$ref" ]
	[ "$("$REAL_GIT" show "$ref:f.txt")" = "$(printf 'one\ntwo')" ]
	[ "$("$REAL_GIT" show "$ref:n.txt")" = "new" ]
	# nothing of the overlapped try is left beside the index
	run ls "$T/sep/r/.git"
	refute_output --partial agentic-git-snapshot-index-
}

@test "a work tree outside the directory that holds .git (core.worktree) is snapshotted whole and restored" {
	# r/.git is the repository, w (beside r, not inside it) its work tree
	mkdir -p "$T/out/r" "$T/out/w"
	"$REAL_GIT" init -q "$T/out/r"
	"$REAL_GIT" -C "$T/out/r" config core.worktree "$T/out/w"
	cd "$T/out/r"
	echo one >"$T/out/w/f.txt"
	"$REAL_GIT" add f.txt
	"$REAL_GIT" commit -qm one
	echo two >>"$T/out/w/f.txt"
	echo new >"$T/out/w/n.txt"
	# a snapshot past the TTL, which this one prunes (in this layout too)
	old=refs/agentic-git/snapshots/$AGENTIC_GIT_AGENT/20200101T000000Z-0-reset
	"$REAL_GIT" update-ref "$old" HEAD
	run "$TEST_TOOL" snapshot "$T/out/r" reset
	assert_success
	refute_output --partial "snapshot failed"
	run "$REAL_GIT" rev-parse --verify -q "$old"
	assert_failure
	ref=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ | tail -n1)
	[ -n "$ref" ]
	[ "$("$REAL_GIT" show "$ref:f.txt")" = "$(printf 'one\ntwo')" ]
	[ "$("$REAL_GIT" show "$ref:n.txt")" = "new" ]
	# the user's index is untouched
	[ "$("$REAL_GIT" diff --cached --name-only)" = "" ]
	# and the work comes back from where the user stands, beside .git
	"$REAL_GIT" reset -q --hard
	rm "$T/out/w/n.txt"
	run "$AG_BIN" snapshots restore "$ref" --yes
	assert_success
	[ "$(cat "$T/out/w/f.txt")" = "$(printf 'one\ntwo')" ]
	[ "$(cat "$T/out/w/n.txt")" = "new" ]
}

@test "the snapshot ref: a loose file git reads back; git update-ref when the layout is not plain files" {
	echo "edit" >>README.md
	run logged reset -q --hard
	assert_success
	ref=$(newest_ref reset)
	common=$("$REAL_GIT" rev-parse --path-format=absolute --git-common-dir)
	[ -f "$common/$ref" ]
	[ ! -e "$common/$ref.lock" ]
	assert_equal "$("$REAL_GIT" rev-parse "$ref")" "$(cat "$common/$ref")"
	# the hook does not see this ref; snapshot_taken journals it
	events | jq -e --arg r "$ref" --arg n "$(cat "$common/$ref")" \
		'select(.event == "snapshot_taken" and .ref == $r) | .new == $n'
	run "$REAL_GIT" fsck --no-dangling --connectivity-only
	assert_success
	# a reftable directory: we cannot know the layout, git writes the ref
	mkdir "$common/reftable"
	echo "edit2" >>README.md
	run logged reset -q --hard
	assert_success
	assert_equal "$(snap_calls)" "add rev-parse update-ref"
	assert_equal "$(op_call)" reset
	rmdir "$common/reftable"
	[ "$("$REAL_GIT" show "$(newest_ref reset):README.md")" = "$(printf 'hello\nedit2')" ]
}

@test "staged-only work: the index copy is left as it was, no second write-tree" {
	age_tree
	echo "staged" >>README.md
	echo "staged" >>src/main.c
	age README.md src/main.c
	"$REAL_GIT" add README.md src/main.c
	expected=$("$REAL_GIT" write-tree)
	run logged reset -q --hard
	assert_success
	# git's cached root tree is valid again after write-tree: read, not
	# run. The staged tree is not HEAD's: diff-index asks whether HEAD
	# has paths the index lacks (an ignored file reset would overwrite)
	assert_equal "$(snap_calls)" "add diff-index rev-parse"
	assert_equal "$(op_call)" reset
	ref=$(newest_ref reset)
	assert_equal "$("$REAL_GIT" rev-parse "$ref^{tree}")" "$expected"
}

@test "staged and unstaged work with an invalid cached tree: both trees built without git" {
	echo "staged" >>README.md
	"$REAL_GIT" add README.md
	staged=$("$REAL_GIT" write-tree)
	echo "staged too" >>src/main.c
	"$REAL_GIT" add src/main.c # invalidates git's cached root tree
	cp "$("$REAL_GIT" rev-parse --git-path index)" "$T/idx"
	staged=$(GIT_INDEX_FILE=$T/idx "$REAL_GIT" write-tree)
	echo "unstaged" >>README.md
	run logged reset -q --hard
	assert_success
	assert_equal "$(snap_calls)" "add diff-index rev-parse"
	assert_equal "$(op_call)" reset
	ref=$(newest_ref reset)
	assert_equal "$("$REAL_GIT" rev-parse "$ref^2^{tree}")" "$staged"
	"$REAL_GIT" fsck --strict --no-dangling
}

@test "the staged tree read from index versions 2, 3 and 4 is git's own" {
	for v in 2 3 4; do
		echo "staged $v" >>README.md
		"$REAL_GIT" add README.md
		# a skip-worktree entry needs the extended flags: version 3
		[ "$v" = 3 ] && "$REAL_GIT" update-index --skip-worktree src/main.c
		[ "$v" = 4 ] && "$REAL_GIT" update-index --index-version 4
		staged=$("$REAL_GIT" write-tree) # makes the cached root valid
		idx=$("$REAL_GIT" rev-parse --git-path index)
		[ "$(od -An -tu1 -j7 -N1 "$idx" | tr -d ' ')" = "$v" ] ||
			fail "the index is not version $v"
		echo "unstaged $v" >>README.md
		echo "index version $v"
		run logged reset -q --hard
		assert_success
		# a skip-worktree file in the work tree may hide work: its bit
		# is cleared in the private index first (t0314)
		calls="add diff-index rev-parse"
		[ "$v" = 3 ] && calls="add diff-index ls-files rev-parse update-index"
		assert_equal "$(snap_calls)" "$calls"
		assert_equal "$(op_call)" reset
		ref=$(newest_ref reset)
		assert_equal "$("$REAL_GIT" rev-parse "$ref^2^{tree}")" "$staged"
		"$REAL_GIT" update-index --no-skip-worktree src/main.c
	done
}

@test "an intent-to-add entry: git's cached tree is not valid, write-tree runs" {
	echo "staged" >>README.md
	echo "later" >ita.txt
	"$REAL_GIT" add README.md
	"$REAL_GIT" add -N ita.txt
	staged=$("$REAL_GIT" write-tree)
	echo "unstaged" >>README.md
	run logged reset -q --hard
	assert_success
	# the staged tree is git's to build; the work tree's (after add -A,
	# no intent-to-add left) is ours

}

# make_racy: racy.txt staged as "aaaa", then edited to "bbbb" (same size)
# in the very second its entry and the index were written, and that second
# over: only git's racy check, which compares an entry with the index
# file's mtime, can tell the edit. Sets $i to that second.
make_racy() {
	local idx entry f try
	idx=$("$REAL_GIT" rev-parse --git-path index)
	for try in 1 2 3 4 5 6 7 8 9 10; do
		echo "aaaa" >racy.txt
		"$REAL_GIT" add racy.txt
		echo "bbbb" >racy.txt
		entry=$("$REAL_GIT" ls-files --debug racy.txt |
			awk '$1 == "ctime:" || $1 == "mtime:" { split($2, a, ":"); print a[1] }' | sort -u)
		f=$(stat -c %Z racy.txt)
		i=$(stat -c %Y "$idx")
		# git compares seconds: the stat data matches the file's
		[ "$entry" = "$f" ] && [ "$(stat -c %Y racy.txt)" = "$f" ] &&
			[ "$i" = "$f" ] && break
	done
	[ "$i" = "$f" ] || skip "could not make the three writes in one second"
	# the snapshot runs in a later second than the index was written
	while [ "$(date +%s)" -le "$i" ]; do sleep 0.1; done
}

@test "a same-size edit in the second the index was written is captured (racy git)" {
	make_racy
	run agit reset -q --hard
	assert_success
	ref=$(newest_ref reset)
	[ -n "$ref" ] || fail "no snapshot"
	assert_equal "$("$REAL_GIT" show "$ref:racy.txt")" "bbbb"
	# the second name of the index is gone
	run ls "$("$REAL_GIT" rev-parse --git-dir)"
	refute_output --partial agentic-git-snapshot-index
}

@test "no hard link next to the index: a copy in TMPDIR, racy edits still caught" {
	make_racy
	GD=$("$REAL_GIT" rev-parse --absolute-git-dir)
	prereq "a directory that takes no new names" no_links "$GD"
	mkdir "$T/tmp"
	TMPDIR=$T/tmp run agit reset -q --hard
	allow_links "$GD"
	# the op itself cannot lock the index; the snapshot was taken before
	assert_failure
	refute_output --partial "snapshot FAILED"
	ref=$(newest_ref reset)
	[ -n "$ref" ] || fail "no snapshot"
	assert_equal "$("$REAL_GIT" show "$ref:racy.txt")" "bbbb"
	assert_equal "$(ls -A "$T/tmp")" ""
}

@test "the snapshot's git calls keep the heap; the caller's tunables come last" {
	echo "edit" >>README.md
	# an intent-to-add entry: the staged tree is left to git write-tree
	echo "later" >ita.txt
	"$REAL_GIT" add -N ita.txt
	GLIBC_TUNABLES=glibc.malloc.tcache_count=7 run logged reset -q --hard
	assert_success
	grep -qx "add glibc.malloc.trim_threshold=268435456:glibc.malloc.tcache_count=7" "$LOG"
	grep -qx "write-tree glibc.malloc.trim_threshold=268435456:glibc.malloc.tcache_count=7" "$LOG"
	# the operation itself runs with the caller's environment, untouched
	grep -qx "reset glibc.malloc.tcache_count=7" "$LOG"
}

@test "new blobs go into one pack, not a loose file each; converted files keep git's content" {
	common=$("$REAL_GIT" rev-parse --path-format=absolute --git-common-dir)
	# a conversion applies to crlf.txt only (text=auto on every file
	# would send them all down git's normal, loose path)
	printf 'crlf.txt text\n' >.gitattributes
	printf 'one\r\ntwo\r\n' >crlf.txt
	for i in 1 2 3; do echo "blob $i" >"new-$i.txt"; done
	echo "edit" >>README.md
	packs=$(ls "$common/objects/pack" | grep -c '\.pack$' || true)
	run logged reset -q --hard
	assert_success
	ref=$(newest_ref reset)
	# add's pack of blobs, and the snapshot's own of trees and commits
	[ "$(ls "$common/objects/pack" | grep -c '\.pack$')" -eq $((packs + 2)) ]
	for f in new-1.txt new-2.txt new-3.txt README.md; do
		blob=$("$REAL_GIT" rev-parse "$ref:$f")
		[ ! -e "$common/objects/${blob:0:2}/${blob:2}" ]
	done
	for obj in "$ref" "$ref^{tree}"; do
		id=$("$REAL_GIT" rev-parse "$obj")
		[ ! -e "$common/objects/${id:0:2}/${id:2}" ]
	done
	# the eol conversion applied, as `git add` would
	assert_equal "$("$REAL_GIT" rev-parse "$ref:crlf.txt")" \
		"$(printf 'one\ntwo\n' | "$REAL_GIT" hash-object --stdin)"
	[ "$("$REAL_GIT" show "$ref:new-2.txt")" = "blob 2" ]
	run "$REAL_GIT" fsck --no-dangling
	assert_success
}
