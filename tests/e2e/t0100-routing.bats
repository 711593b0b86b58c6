#!/usr/bin/env bats
# Routing (PRODUCT.md §4 "Target overrides"): a bound agent's mutations of
# the bound repository land in its worktree, whatever directory, -C,
# --git-dir, --work-tree or GIT_DIR-style variable names the canonical
# checkout; reads work; relative positions map into the worktree.
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	CANON_HEAD=$(head_of "$REPO")
	WT_HEAD=$(head_of "$WT")
}

# the commit happened in the worktree, the canonical checkout is untouched
assert_landed_in_wt() {
	[ "$(head_of "$WT")" != "$WT_HEAD" ] || fail "worktree HEAD did not move"
	assert_equal "$(head_of "$REPO")" "$CANON_HEAD"
	assert_equal "$(branch_of "$REPO")" main
	assert_equal "$(branch_of "$WT")" feat/a
	assert_equal "$("$REAL_GIT" -C "$REPO" rev-parse main)" "$CANON_HEAD"
}

@test "commit from the canonical checkout lands in the worktree" {
	cd "$REPO"
	run agit commit --allow-empty -q -m routed
	assert_success
	assert_landed_in_wt
	assert_equal "$("$REAL_GIT" -C "$WT" log -1 --format=%s)" routed
}

@test "add from a subdirectory maps the relative pathspec into the worktree" {
	echo "new" >"$WT/src/new.c"
	echo "decoy" >"$REPO/src/new.c"
	cd "$REPO/src"
	run agit add new.c
	assert_success
	run "$REAL_GIT" -C "$WT" diff --cached --name-only
	assert_output "src/new.c"
	run "$REAL_GIT" -C "$REPO" diff --cached --name-only
	assert_output ""
	cd "$REPO/src"
	run agit commit -q -m "from subdir"
	assert_success
	assert_landed_in_wt
}

@test "a subdirectory missing from the worktree routes to its top" {
	mkdir -p "$REPO/only-in-canon"
	cd "$REPO/only-in-canon"
	run agit commit --allow-empty -q -m top
	assert_success
	assert_landed_in_wt
}

@test "-C <canonical> from outside still lands in the worktree" {
	cd "$T"
	run agit -C "$REPO" commit --allow-empty -q -m via-C
	assert_success
	assert_landed_in_wt
}

@test "-C <canonical>/src keeps the relative position" {
	echo "x" >"$WT/src/c.c"
	cd "$T"
	run agit -C "$REPO/src" add c.c
	assert_success
	run "$REAL_GIT" -C "$WT" diff --cached --name-only
	assert_output "src/c.c"
}

@test "stacked relative -C is resolved like git does" {
	cd "$T"
	run agit -C repo -C src commit --allow-empty -q -m stacked
	assert_success
	assert_landed_in_wt
}

@test "--git-dir=<canonical>/.git cannot move a commit out of the worktree" {
	cd "$T"
	run agit --git-dir="$REPO/.git" --work-tree="$REPO" commit --allow-empty -q -m gd
	assert_success
	assert_landed_in_wt
}

@test "--git-dir <canonical>/.git (separate value) cannot either" {
	cd "$T"
	run agit --git-dir "$REPO/.git" commit --allow-empty -q -m gd2
	assert_success
	assert_landed_in_wt
}

@test "--work-tree <canonical> alone cannot either" {
	cd "$WT"
	echo "w" >"$REPO/wt-only.txt"
	run agit --work-tree "$REPO" add -A
	assert_success
	run "$REAL_GIT" -C "$REPO" status --porcelain
	assert_output "?? wt-only.txt"
}

@test "GIT_DIR and GIT_WORK_TREE pointing at the canonical checkout are ignored" {
	cd "$T"
	GIT_DIR="$REPO/.git" GIT_WORK_TREE="$REPO" run agit commit --allow-empty -q -m env
	assert_success
	assert_landed_in_wt
}

@test "GIT_DIR alone pointing at the canonical checkout is ignored" {
	cd "$REPO"
	GIT_DIR="$REPO/.git" run agit commit --allow-empty -q -m env2
	assert_success
	assert_landed_in_wt
}

@test "GIT_COMMON_DIR pointing at the canonical checkout is ignored" {
	cd "$REPO"
	GIT_COMMON_DIR="$REPO/.git" run agit commit --allow-empty -q -m env3
	assert_success
	assert_landed_in_wt
}

@test "GIT_INDEX_FILE naming the canonical index does not stage into it" {
	echo "idx" >"$WT/idx.txt"
	echo "idx" >"$REPO/idx.txt"
	cd "$REPO"
	GIT_INDEX_FILE="$REPO/.git/index" run agit add idx.txt
	assert_success
	run "$REAL_GIT" -C "$REPO" diff --cached --name-only
	assert_output ""
	run "$REAL_GIT" -C "$WT" diff --cached --name-only
	assert_output "idx.txt"
}

@test "a private temporary GIT_INDEX_FILE is kept" {
	cd "$WT"
	"$REAL_GIT" read-tree --index-output="$T/tmp.index" HEAD
	echo "tmp" >"$WT/tmp.txt"
	GIT_INDEX_FILE="$T/tmp.index" run agit add tmp.txt
	assert_success
	run env GIT_INDEX_FILE="$T/tmp.index" "$REAL_GIT" -C "$WT" diff --cached --name-only
	assert_output "tmp.txt"
	run "$REAL_GIT" -C "$WT" diff --cached --name-only
	assert_output ""
}

@test "reset --hard from the canonical checkout leaves the canonical files alone" {
	echo "operator's edit" >>"$REPO/README.md"
	echo "agent's edit" >>"$WT/README.md"
	cd "$REPO"
	run agit reset -q --hard
	assert_success
	run "$REAL_GIT" -C "$REPO" diff --name-only
	assert_output "README.md"
	run "$REAL_GIT" -C "$WT" diff --name-only
	assert_output ""
}

@test "a sibling worktree of the same repository routes too" {
	"$REAL_GIT" -C "$REPO" worktree add -q -b side "$T/side" main
	SIDE_HEAD=$(head_of "$T/side")
	cd "$T/side"
	run agit commit --allow-empty -q -m from-side
	assert_success
	assert_equal "$(head_of "$T/side")" "$SIDE_HEAD"
	assert_equal "$("$REAL_GIT" -C "$WT" log -1 --format=%s)" from-side
}

@test "-C inside the worktree still works" {
	cd "$T"
	run agit -C "$WT" commit --allow-empty -q -m in-wt
	assert_success
	assert_landed_in_wt
	echo "s" >"$WT/src/s.c"
	cd "$WT"
	run agit -C src add s.c
	assert_success
	run "$REAL_GIT" -C "$WT" diff --cached --name-only
	assert_output "src/s.c"
}

@test "reads from the canonical checkout show the worktree" {
	cd "$REPO"
	run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
	run agit status --short --branch
	assert_success
	assert_line --index 0 --partial "## feat/a"
	run agit log --oneline -1
	assert_success
	assert_output --partial "initial import"
	cd "$REPO/src"
	run agit rev-parse --show-prefix
	assert_output "src/"
	run agit rev-parse --show-toplevel
	assert_output "$WT"
}

@test "routing records no event" {
	cd "$REPO"
	run agit commit --allow-empty -q -m quiet
	assert_success
	run agit status
	assert_success
	assert_events 0
}

@test "outside any repository commands pass through; a new repository goes into the worktree" {
	mkdir "$T/plain"
	cd "$T/plain"
	run agit --version
	assert_success
	assert_output --partial "git version"
	run agit init -q "$WT/newrepo"
	assert_success
	[ -d "$WT/newrepo/.git" ]
	run agit clone -q "$ORIGIN" "$WT/copy"
	assert_success
	[ -f "$WT/copy/README.md" ]
}

# A new repository is an output path (docs/fuzzing.md I15): `init <the bare
# remote>` made <remote>/.git, which every later fetch and push by path
# found first. Inside the worktree or nowhere, in every spelling.
@test "a bound agent's init or clone into a directory outside its worktree is denied and creates nothing" {
	local heads
	mkdir "$T/plain"
	heads=$("$REAL_GIT" -C "$ORIGIN" for-each-ref)
	cd "$WT"
	for form in "init $ORIGIN" "init --no-separate-git-dir --bare --no-bare $ORIGIN" 		"init -qb main $ORIGIN" "init-db --template $T/plain $REPO/sub" 		"-C $ORIGIN init" "clone -q $ORIGIN $T/plain/copy" "-C $T/plain clone $ORIGIN" 		"init $HOME" "init ../outside"; do
		echo "form: $form"
		# shellcheck disable=SC2086
		run agit $form
		assert_failure
		assert_output --partial "outside your worktree"
	done
	[ ! -e "$ORIGIN/.git" ]
	[ ! -e "$REPO/sub" ]
	[ ! -e "$HOME/.git" ]
	[ -z "$(ls -A "$T/plain")" ]
	assert_equal "$("$REAL_GIT" -C "$ORIGIN" for-each-ref)" "$heads"
	# outside any repository, too
	cd "$T/plain"
	run agit init -q newrepo
	assert_failure
	assert_output --partial "outside your worktree"
	[ ! -e "$T/plain/newrepo" ]
	# the operator is not judged
	AGENTIC_GIT_AGENT= run agit init -q newrepo
	assert_success
	[ -d "$T/plain/newrepo/.git" ]
}

@test "another repository's mutations pass through in place" {
	"$REAL_GIT" init -q "$T/scratch"
	cd "$T/scratch"
	run agit commit --allow-empty -q -m scratch
	assert_success
	assert_equal "$("$REAL_GIT" -C "$T/scratch" log -1 --format=%s)" scratch
	assert_equal "$(head_of "$WT")" "$WT_HEAD"
}

# Output paths (docs/fuzzing.md I5): a file a bound agent's command writes
# where it is told lands inside its worktree or nowhere.
@test "a bound agent's output path outside its worktree is denied, in every spelling, and nothing is written" {
	local before
	echo "operator work" >>"$REPO/README.md"
	before=$(cat "$REPO/README.md")
	cd "$WT"
	ln -s "$REPO" outlink
	for form in "archive -o$REPO/README.md HEAD" "archive --output $REPO/README.md HEAD" \
		"archive --outp=$REPO/README.md HEAD" "diff --output=$REPO/README.md" \
		"log -1 --output $HOME/.gitconfig" "format-patch -o $REPO -1" \
		"mailinfo - $HOME/.gitconfig" "bundle create $REPO/README.md HEAD" \
		"fast-export --export-marks=$REPO/README.md HEAD" \
		"diff --output=outlink/README.md" "diff --output=.git"; do
		# shellcheck disable=SC2086
		echo "form: $form"
		run agit $form </dev/null
		assert_failure
		assert_output --partial "outside your worktree"
		assert_output --partial "$WT"
		assert_equal "$(cat "$REPO/README.md")" "$before"
		[ ! -e "$HOME/.gitconfig" ] || ! grep -q "^From " "$HOME/.gitconfig"
	done
}

@test "an output path that cannot be judged is denied (a link to nowhere, no value)" {
	cd "$WT"
	ln -s "$T/nowhere" dangling
	run agit diff --output=dangling
	assert_failure
	assert_output --partial "cannot be judged"
	[ ! -e "$T/nowhere" ]
	run agit archive HEAD -o
	assert_failure
	assert_output --partial "cannot be judged"
}

@test "a bound agent's output path inside its worktree works, from the canonical checkout too" {
	cd "$WT"
	run agit archive -o out.tar HEAD
	assert_success
	[ -s "$WT/out.tar" ]
	mkdir -p "$REPO/sub" "$WT/sub"
	cd "$REPO/sub"
	run agit diff --output=../routed.diff
	assert_success
	[ -e "$WT/routed.diff" ]
	[ ! -e "$REPO/routed.diff" ]
}

# docs/fuzzing.md I22: `init-db --shared .` at the worktree's top found the
# worktree's .git (a file naming the bound repository) and re-initialised
# the bound repository: its config gained core.sharedRepository.
@test "init of a directory that holds a repository the agent did not make there is denied and changes no config" {
	local cfg
	cfg=$(cat "$REPO/.git/config")
	cd "$WT"
	# a gitfile planted elsewhere in the worktree, naming the shared repository
	mkdir linked admin weird
	cp "$WT/.git" linked/.git
	printf '%s\n' "$REPO/.git" >admin/commondir
	ln -s "$WT/.git" weird/.git
	for form in "init-db --shared ." "init ." "init -q $WT" "init-db --shared=all ./" \
		"-C src init .." "init linked" "init --bare admin" "init weird"; do
		echo "form: $form"
		# shellcheck disable=SC2086
		run agit $form
		assert_failure
		assert_output --partial "would re-initialise the repository that is there"
		assert_output --partial "git init <dir>"
	done
	assert_equal "$(cat "$REPO/.git/config")" "$cfg"
	# the agent's own nested repository may be re-initialised, and a new
	# one made in a new directory
	run agit init -q mine
	assert_success
	run agit init -q --shared mine
	assert_success
	[ "$("$REAL_GIT" -C mine config core.sharedRepository)" = 1 ]
	run agit -C src init -q fresh
	assert_success
	[ -d src/fresh/.git ]
	assert_equal "$(cat "$REPO/.git/config")" "$cfg"
}

# Review of d5ccd4a: init resolves GIT_DIR from inside its <directory>, and
# writes through links inside the agent's own nested .git; and the check
# holds whatever the target, outside any repository too.
@test "init with a git dir named, through links in a nested .git, or from outside any repository cannot re-initialise the shared repository" {
	local cfg
	cfg=$(cat "$REPO/.git/config")
	cd "$WT"
	"$REAL_GIT" init -q --bare r
	mkdir d
	ln -s "$REPO/.git" d/r
	GIT_DIR=r run agit init --shared=all d
	assert_failure
	assert_output --partial "with GIT_DIR, GIT_WORK_TREE, --git-dir or --work-tree"
	run agit --git-dir=r init --shared=all d
	assert_failure
	assert_output --partial "with GIT_DIR, GIT_WORK_TREE, --git-dir or --work-tree"
	agit init -q mine
	rm mine/.git/config
	ln -s "$REPO/.git/config" mine/.git/config
	rm -rf mine/.git/hooks
	ln -s "$REPO/.git/hooks" mine/.git/hooks
	mkdir -p tpl/hooks
	printf '#!/bin/sh\necho agent code\n' >tpl/hooks/pre-commit
	chmod +x tpl/hooks/pre-commit
	run agit init --shared=all --template=tpl mine
	assert_failure
	assert_output --partial "would re-initialise the repository that is there"
	# from outside any repository, naming the worktree's top
	mkdir "$T/plain"
	cd "$T/plain"
	run agit init-db --shared "$WT"
	assert_failure
	assert_output --partial "would re-initialise the repository that is there"
	assert_equal "$(cat "$REPO/.git/config")" "$cfg"
	[ ! -e "$REPO/.git/hooks/pre-commit" ]
	"$REAL_GIT" -C "$REPO" status >/dev/null
}
