#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch's process-saving fast paths (docs/dispatch-speed.md) give the
# same answer as the git commands they replace, and fall back to git
# whenever the layout is not the plain one they understand.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	cat >"$T/commit.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	"$REAL_GIT" commit -q --allow-empty -m "noop $AGENTIC_GIT_TARGET_KEY" && echo "RESOLVED: noop"
	SH
	chmod +x "$T/commit.sh"
	echo "do nothing" >"$T/prompt.md"
}

# second_clone DIR ORIGIN: a clone of its own origin with branch b1.
second_clone() {
	"$REAL_GIT" init -q --bare "$2"
	"$REAL_GIT" clone -q "$2" "$1" 2>/dev/null
	(
		cd "$1"
		"$REAL_GIT" commit -q --allow-empty -m "other start"
		"$REAL_GIT" push -q origin HEAD:main HEAD:b1
	)
}

@test "t0712.1 one probe per repository: each target still pushes to its own origin" {
	second_clone "$T/other" "$T/other-origin.git"
	for b in b1 b2; do "$REAL_GIT" -C "$REPO" push -q origin "main:$b"; done
	ln -s "$REPO" "$T/repo-link"
	cat >"$T/t.yaml" <<-EOF2
	targets:
	  - {repo: $REPO, head: b1, base: main, key: a1}
	  - {repo: $T/other, head: b1, base: main, key: o1}
	  - {repo: $T/repo-link, head: b2, base: main, key: a2}
	EOF2
	run dispatch -j 1 --targets "$T/t.yaml" --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_success
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b1)" = "noop a1" ]
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b2)" = "noop a2" ]
	[ "$("$REAL_GIT" --git-dir="$T/other-origin.git" log -1 --format=%s b1)" = "noop o1" ]
	[ "$(meta a2 status)" = pushed ]
	[ "$(meta o1 status)" = pushed ]
}

@test "t0712.2 a clone whose .git is a symlink is probed by git (fallback)" {
	mv "$REPO/.git" "$T/repo-gitdir"
	ln -s "$T/repo-gitdir" "$REPO/.git"
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_success
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b1)" = "noop repo-b1" ]
}

@test "t0712.3 a directory that is not a clone is refused for every target" {
	mkdir "$T/plain"
	cat >"$T/t.yaml" <<-EOF2
	targets:
	  - {repo: $T/plain, head: b1, base: main, key: p1}
	  - {repo: $T/plain, head: b2, base: main, key: p2}
	EOF2
	must_fail dispatch --targets "$T/t.yaml" --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_output --partial "target 'p1': not a git clone"
	assert_output --partial "target 'p2': not a git clone"
}

# sha256_clone DIR ORIGIN: a sha256 clone and origin with branch b1.
sha256_clone() {
	"$REAL_GIT" init -q --bare --object-format=sha256 "$2"
	"$REAL_GIT" init -q --object-format=sha256 "$1"
	(
		cd "$1"
		echo x >f
		"$REAL_GIT" add f
		"$REAL_GIT" commit -q -m "sha256 start"
		"$REAL_GIT" remote add origin "$2"
		"$REAL_GIT" push -q origin HEAD:main HEAD:b1
	)
}

@test "t0712.4 workspace and push repository written in the clone's object format (sha256 next to sha1)" {
	sha256_clone "$T/r256" "$T/o256.git"
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	cat >"$T/t.yaml" <<-EOF2
	targets:
	  - {repo: $T/r256, head: b1, base: main, key: s256}
	  - {repo: $REPO, head: b1, base: main, key: s1}
	EOF2
	run dispatch -j 1 --targets "$T/t.yaml" --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_success
	new=$("$REAL_GIT" --git-dir="$T/o256.git" rev-parse b1)
	[ ${#new} -eq 64 ]
	[ "$("$REAL_GIT" --git-dir="$T/o256.git" log -1 --format=%s b1)" = "noop s256" ]
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s b1)" = "noop s1" ]
	# each target's push repository (its own object format: a sha1 one
	# borrowing a sha256 store refuses the import) is gone when it is done
	[ ! -e "$(run_dir)/push-s256.git" ]
	[ ! -e "$(run_dir)/push-s1.git" ]
}

@test "t0712.5 the written workspace is what git init would make, and git accepts it" {
	cat >"$T/keep.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	cp -r .git "$KEEP"
	"$REAL_GIT" fsck --no-dangling --no-progress >"$KEEP.fsck" 2>&1 || echo "fsck failed" >>"$KEEP.fsck"
	echo "ESCALATED: kept"
	SH
	chmod +x "$T/keep.sh"
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	KEEP=$T/kept run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/keep.sh"
	cat "$T/kept.fsck"
	[ ! -s "$T/kept.fsck" ]
	"$REAL_GIT" init -q --template= --initial-branch=b1 "$T/ref"
	for f in HEAD objects/pack refs/tags refs/heads; do
		[ -e "$T/kept/$f" ]
	done
	[ "$(cat "$T/kept/HEAD")" = "ref: refs/heads/b1" ]
	for k in core.repositoryformatversion core.bare core.logallrefupdates core.filemode; do
		[ "$("$REAL_GIT" config -f "$T/kept/config" "$k")" = "$("$REAL_GIT" config -f "$T/ref/.git/config" "$k")" ]
	done
	[ "$("$REAL_GIT" config -f "$T/kept/config" user.name)" = Tester ] || [ -z "$("$REAL_GIT" -C "$REPO" config user.name)" ]
	[ "$(cat "$T/kept/objects/info/alternates")" = "$REPO/.git/objects" ]
	# no automatic maintenance in a one-target workspace
	[ "$("$REAL_GIT" config -f "$T/kept/config" gc.auto)" = 0 ]
	[ "$("$REAL_GIT" config -f "$T/kept/config" maintenance.auto)" = false ]
}

@test "t0712.6 an object format the writer does not know is refused at planning; a global one is not the clone's" {
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	# git reads extensions.objectformat from the clone's own config only
	"$REAL_GIT" config --global extensions.objectformat sha999
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	[ "$(meta repo-b1 status)" = pushed ]
	"$REAL_GIT" config --global --unset extensions.objectformat
	"$REAL_GIT" -C "$REPO" config core.repositoryformatversion 1
	"$REAL_GIT" -C "$REPO" config extensions.objectformat sha999
	before=$(ls "$AGENTIC_GIT_HOME/runs")
	run dispatch --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/commit.sh"
	assert_failure
	assert_output --partial "is not one agentic-git writes (sha1, sha256)"
	# refused at planning: no new run, no workspace
	assert_equal "$(ls "$AGENTIC_GIT_HOME/runs")" "$before"
}

# same_as_git GITDIR HEXLEN: the refs reader lists what for-each-ref lists.
same_as_git() {
	"$TEST_TOOL" refs-list "$1" "$2" >"$T/ours"
	"$REAL_GIT" --git-dir="$1" for-each-ref --format='%(objectname) %(refname)' >"$T/git"
	diff -u "$T/git" "$T/ours"
}

@test "t0712.7 the refs reader gives for-each-ref's answer on loose refs (sha1, sha256, nested, sort order)" {
	"$REAL_GIT" init -q "$T/w"
	(
		cd "$T/w"
		"$REAL_GIT" commit -q --allow-empty -m one
		for b in z a/b/c a-b a.b A x/y 'é'; do "$REAL_GIT" branch -q "$b"; done
		"$REAL_GIT" update-ref refs/remotes/origin/main HEAD
		"$REAL_GIT" tag -a -m t v1
		"$REAL_GIT" update-ref refs/agentic-git/snap HEAD
	)
	# non-ASCII names are left to git (fail closed), so without é first
	run "$TEST_TOOL" refs-list "$T/w/.git" 40
	[ "$status" -eq 3 ]
	rm "$T/w/.git/refs/heads/é"
	same_as_git "$T/w/.git" 40
	[ "$(wc -l <"$T/ours")" -eq 10 ]
	"$REAL_GIT" init -q --object-format=sha256 "$T/w256"
	"$REAL_GIT" -C "$T/w256" commit -q --allow-empty -m one
	"$REAL_GIT" -C "$T/w256" branch -q feat/x
	same_as_git "$T/w256/.git" 64
	# a 64-hex reader does not accept 40-hex refs, and the other way round
	run "$TEST_TOOL" refs-list "$T/w/.git" 64
	[ "$status" -eq 3 ]
}

@test "t0712.8 the refs reader leaves packed refs, symrefs, symlinks, locks and junk to git" {
	"$REAL_GIT" init -q "$T/w"
	"$REAL_GIT" -C "$T/w" commit -q --allow-empty -m one
	same_as_git "$T/w/.git" 40
	cp -a "$T/w" "$T/w0"
	reset() { rm -rf "$T/w"; cp -a "$T/w0" "$T/w"; }
	odd() {
		run "$TEST_TOOL" refs-list "$T/w/.git" 40
		[ "$status" -eq 3 ] || { echo "not refused: $1"; return 1; }
		[ -z "$output" ]
		reset
	}
	"$REAL_GIT" -C "$T/w" pack-refs --all; odd packed
	"$REAL_GIT" -C "$T/w" symbolic-ref refs/remotes/origin/HEAD refs/heads/main; odd symref
	ln -s ../../../w0/.git/refs/heads/main "$T/w/.git/refs/heads/link"; odd symlink
	ln -s /tmp "$T/w/.git/refs/heads/dirlink"; odd dir-symlink
	cp "$T/w/.git/refs/heads/main" "$T/w/.git/refs/heads/main.lock"; odd lock
	echo junk >"$T/w/.git/refs/heads/junk"; odd junk
	printf '%s' "$(cat "$T/w/.git/refs/heads/main")" >"$T/w/.git/refs/heads/nonl"; odd no-newline
	tr a-f A-F <"$T/w/.git/refs/heads/main" >"$T/w/.git/refs/heads/upper"; odd upper-hex
	mkfifo "$T/w/.git/refs/heads/fifo"; odd fifo
	cp "$T/w/.git/refs/heads/main" "$T/w/.git/refs/heads/.hidden"; odd dot-name
	chmod 000 "$T/w/.git/refs/tags"
	if [ ! -r "$T/w/.git/refs/tags" ]; then
		run "$TEST_TOOL" refs-list "$T/w/.git" 40
		[ "$status" -eq 3 ]
	fi
	chmod 755 "$T/w/.git/refs/tags"
	rm -rf "$T/w/.git/refs"; odd no-refs-dir
}

@test "t0712.9 the ref lookup reads loose, then packed refs, and leaves odd ones to git" {
	"$REAL_GIT" init -q "$T/w"
	"$REAL_GIT" -C "$T/w" commit -q --allow-empty -m one
	"$REAL_GIT" -C "$T/w" branch -q b
	sha=$("$REAL_GIT" -C "$T/w" rev-parse HEAD)
	run "$TEST_TOOL" refs-lookup "$T/w/.git" 40 refs/heads/b refs/heads/none refs/heads/main
	assert_success
	assert_output "$(printf '%s refs/heads/b\n%s refs/heads/main' "$sha" "$sha")"
	"$REAL_GIT" -C "$T/w" pack-refs --all
	run "$TEST_TOOL" refs-lookup "$T/w/.git" 40 refs/heads/main refs/heads/b
	assert_success
	assert_output "$(printf '%s refs/heads/main\n%s refs/heads/b' "$sha" "$sha")"
	"$REAL_GIT" -C "$T/w" symbolic-ref refs/heads/sym refs/heads/main
	run "$TEST_TOOL" refs-lookup "$T/w/.git" 40 refs/heads/sym
	[ "$status" -eq 3 ]
}

@test "t0712.10 a head branch naming a tag object: the checkout peels it, git resolves (fallback)" {
	"$REAL_GIT" -C "$REPO" tag -a -m t t1 main
	"$REAL_GIT" -C "$REPO" push -q origin t1
	tag=$("$REAL_GIT" --git-dir="$ORIGIN" rev-parse t1)
	echo "$tag" >"$ORIGIN/refs/heads/tagged" # git update-ref refuses this
	cat >"$T/said.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	echo "RESOLVED: nothing to change"
	SH
	chmod +x "$T/said.sh"
	run dispatch --repo "$REPO" --head tagged --base main --prompt-file "$T/prompt.md" -- "$T/said.sh"
	# HEAD is compared with the peeled commit: unmoved, nothing pushed
	[ "$(meta repo-tagged status)" = no-change ]
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" rev-parse refs/heads/tagged)" = "$tag" ]
}
