#!/usr/bin/env bats
# The snapshot formats its trees and commits itself and writes them as one
# pack (docs/snapshots.md, "Cost", step 5): every tree must be the one
# `git write-tree` gives for the same index, byte for byte, the pack must
# be one git reads and verifies, and whatever git must decide is left to
# git. `test-tool write-tree INDEX OBJDIR` is the snapshot's own code.
load lib
load snapshot-lib

setup() {
	ag_setup
	cd "$REPO"
}

# ours: our tree of the repository's index (a copy: git write-tree must
# not see its cache refreshed first), new trees packed into its store.
# Prints "<tree> <objects written>".
ours() {
	cp .git/index "$T/idx"
	"$TEST_TOOL" write-tree "$T/idx" "$PWD/.git/objects"
}

# same_as_git: our tree is git's, and every object under it is readable
# from the store before git has written any of them.
same_as_git() {
	run ours
	assert_success
	tree=${output%% *}
	written=${output##* }
	# reads every tree of ours from the store (git has written none yet)
	"$REAL_GIT" ls-tree -r -t "$tree" >"$T/ours.ls"
	assert_equal "$tree" "$("$REAL_GIT" write-tree)"
	"$REAL_GIT" fsck --strict --no-dangling
}

# loose: the store's loose object ids, sorted
loose() {
	(cd "$REPO/.git/objects" && find ?? -type f 2>/dev/null | tr -d / | sort)
}

# same_as_commit_tree COMMIT: git commit-tree, given COMMIT's tree,
# parents, identity, date and message, writes COMMIT's very id.
same_as_commit_tree() {
	local c=$1 when p args=()
	"$REAL_GIT" cat-file commit "$c" >"$T/c"
	when=$(sed -n 's/^committer .* \([0-9]*\) +0000$/\1/p' "$T/c")
	sed '1,/^$/d' "$T/c" >"$T/msg"
	for p in $(sed -n 's/^parent //p' "$T/c"); do args+=(-p "$p"); done
	run env GIT_AUTHOR_NAME=agentic-git GIT_AUTHOR_EMAIL=agentic-git@localhost \
		GIT_COMMITTER_NAME=agentic-git GIT_COMMITTER_EMAIL=agentic-git@localhost \
		GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$when +0000" \
		"$REAL_GIT" commit-tree --no-gpg-sign "$c^{tree}" "${args[@]}" -F "$T/msg"
	assert_success
	assert_output "$("$REAL_GIT" rev-parse "$c")"
}

odd_tree() {
	mkdir -p "a" "a b" "é/ü" deep/1/2/3/4/5 sub
	echo 1 >a-b; echo 2 >a.b; echo 3 >a/b; echo 4 >a0; echo 5 >"a b/c d"
	echo 6 >"é/ü/ñ.txt"; echo 7 >deep/1/2/3/4/5/leaf; : >empty
	printf 'bin\0\001\002' >binary; echo x >exe; chmod +x exe
	ln -s a/b link
	printf 'tab\there' >"$(printf 'tab\tname')"
}

@test "a fresh index (no cached trees): every tree is git's" {
	odd_tree
	"$REAL_GIT" read-tree --empty # no cached tree left, whatever the setup's timing
	"$REAL_GIT" add -A
	same_as_git
	# nothing cached: every directory's tree was written, and none twice
	assert_equal "$written" "$("$REAL_GIT" ls-tree -r -t -d "$tree" | wc -l | awk '{ print $1 + 1 }')"
}

@test "a partly cached index: only the changed directories are formatted" {
	odd_tree
	"$REAL_GIT" add -A
	"$REAL_GIT" commit -qm odd
	echo more >>deep/1/2/3/4/5/leaf
	"$REAL_GIT" add deep/1/2/3/4/5/leaf
	same_as_git
	# the root and deep, deep/1 … deep/1/2/3/4/5: 7 trees, not all
	assert_equal "$written" 7
}

@test "index versions 3 and 4, skip-worktree, a submodule entry: git's tree" {
	odd_tree
	"$REAL_GIT" add -A
	"$REAL_GIT" update-index --add --cacheinfo "160000,$("$REAL_GIT" rev-parse HEAD),gitlink"
	"$REAL_GIT" update-index --skip-worktree a/b
	for v in 3 4 2; do
		"$REAL_GIT" update-index --index-version "$v"
		echo "$v" >>"é/ü/ñ.txt"
		"$REAL_GIT" add "é/ü/ñ.txt"
		same_as_git
		grep -q "^160000 commit " "$T/ours.ls"
	done
}

@test "an empty index is the empty tree" {
	"$REAL_GIT" rm -rq --cached .
	same_as_git
	assert_equal "$tree" 4b825dc642cb6eb9a060e54bf8d69288fbee4904
}

@test "what git must decide is left to git: intent-to-add, unmerged entries" {
	echo new >new.txt
	"$REAL_GIT" add -N new.txt
	run ours
	assert_failure 3
	"$REAL_GIT" rm -q --cached new.txt
	# an unmerged path
	"$REAL_GIT" checkout -qb other
	echo theirs >README.md
	"$REAL_GIT" commit -qam theirs
	"$REAL_GIT" checkout -q main
	echo ours >README.md
	"$REAL_GIT" commit -qam ours
	run "$REAL_GIT" merge -q other
	assert_failure
	run ours
	assert_failure 3
	# nothing was written for either
	run find .git/objects/pack -name '*.idx' -newer "$T/idx"
	assert_output ""
}

@test "a malformed index is left to git, never read out of bounds" {
	odd_tree
	"$REAL_GIT" add -A
	cp .git/index "$T/good"
	size=$(stat -c %s "$T/good")
	for n in 0 11 12 100 $((size / 2)) $((size - 21)); do
		head -c "$n" "$T/good" >"$T/idx"
		run "$TEST_TOOL" write-tree "$T/idx" "$PWD/.git/objects"
		assert_failure 3
	done
	# entries out of order (the first two swapped): refused
	python3 - "$T/good" "$T/idx" <<-'EOF'
		import sys
		b = bytearray(open(sys.argv[1], 'rb').read())
		# version 2 entries: 62 bytes + name, padded to 8
		def entry_len(off):
		    n = b[off + 61] | (b[off + 60] & 0x0f) << 8
		    return (62 + n + 8) & ~7
		a = 12; l1 = entry_len(a); l2 = entry_len(a + l1)
		e1 = b[a:a + l1]; e2 = b[a + l1:a + l1 + l2]
		b[a:a + l1 + l2] = e2 + e1
		open(sys.argv[2], 'wb').write(b)
	EOF
	run "$TEST_TOOL" write-tree "$T/idx" "$PWD/.git/objects"
	assert_failure 3
}

@test "snapshots write their trees and commits as one pack git verifies" {
	ag_bind ag1 feat/one
	export AGENTIC_GIT_SNAPSHOTS=1
	cd "$WT"
	odd_tree
	echo changed >>README.md
	"$REAL_GIT" add README.md
	echo again >>README.md
	packs_before=$(ls "$REPO/.git/objects/pack" | grep -c '\.idx$' || true)
	loose >"$T/loose.before"
	run agit reset -q --hard
	assert_success
	ref=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/)
	[ -n "$ref" ]
	# no loose tree or commit: ours are in our pack (git leaves the
	# empty file's and the symlink's blobs loose)
	loose | comm -13 "$T/loose.before" - >"$T/loose.new"
	[ -s "$T/loose.new" ]
	"$REAL_GIT" cat-file --batch-check='%(objecttype)' <"$T/loose.new" | sort -u >"$T/types"
	assert_equal "$(cat "$T/types")" blob
	[ "$(ls "$REPO/.git/objects/pack" | grep -c '\.idx$')" -eq $((packs_before + 2)) ]
	for idx in "$REPO"/.git/objects/pack/*.idx; do
		"$REAL_GIT" verify-pack "$idx"
	done
	"$REAL_GIT" fsck --strict --no-dangling
	# the commit git would have written: our identity and date, the
	# staged work as a second parent, the message's metadata
	"$REAL_GIT" cat-file commit "$ref" >"$T/commit"
	grep -qx "author agentic-git <agentic-git@localhost> [0-9]* +0000" "$T/commit"
	grep -qx "committer agentic-git <agentic-git@localhost> [0-9]* +0000" "$T/commit"
	assert_equal "$(grep -c '^parent ' "$T/commit")" 2
	# byte for byte what git commit-tree writes for the same input: the
	# snapshot and its index commit
	same_as_commit_tree "$ref"
	same_as_commit_tree "$ref^2"
	assert_equal "$("$REAL_GIT" cat-file -p "$ref^2:README.md")" "$(printf 'hello\nchanged')"
	# and it restores
	run "$AG_BIN" snapshots restore --yes
	assert_success
	assert_equal "$(cat README.md)" "$(printf 'hello\nchanged\nagain')"
	[ -L link ]
	[ -x exe ]
	[ -f "é/ü/ñ.txt" ]
}

@test "a SHA-256 repository, a shared one: git writes the snapshot's objects" {
	printf '#!/bin/sh\necho "$1" >>"%s"\nexec "%s" "$@"\n' "$T/git.log" "$REAL_GIT" >"$T/git-logged"
	chmod +x "$T/git-logged"
	for kind in sha256 shared; do
		r=$T/$kind
		if [ "$kind" = sha256 ]; then
			"$REAL_GIT" init -q --object-format=sha256 "$r"
		else
			"$REAL_GIT" init -q --shared=group "$r"
		fi
		cd "$r"
		echo one >f
		"$REAL_GIT" add f
		"$REAL_GIT" commit -qm one
		echo two >f
		: >"$T/git.log"
		AGENTIC_GIT_AGENT=solo AGENTIC_GIT_BYPASS=1 AGENTIC_GIT_SNAPSHOTS=1 \
			AGENTIC_GIT_REAL_GIT=$T/git-logged run agit reset -q --hard
		assert_success
		grep -qx "commit-tree" "$T/git.log"
		ref=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/solo/)
		assert_equal "$("$REAL_GIT" cat-file -p "$ref:f")" two
		"$REAL_GIT" fsck --strict --no-dangling
	done
}
