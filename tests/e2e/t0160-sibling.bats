#!/usr/bin/env bats
# The cross-agent sibling boundary (reference §3.7, §4.3): an agent may not
# read or write another agent's managed worktree.
load lib
load shimlib

setup() {
	ag_setup
	ag_bind_two
	WT2_HEAD=$(head_of "$WT2")
}

assert_sibling_denied() {
	assert_equal "$status" 1
	assert_output --partial "DENIED"
	assert_output --partial "agent 'ag1' cannot read from agent 'ag2'"
	assert_output --partial "$WT2"
	refute_security
	assert_last_event deny_cross_agent_sibling "$1"
	assert_equal "$(head_of "$WT2")" "$WT2_HEAD"
}

@test "reads inside another agent's worktree are denied" {
	cd "$WT2"
	run agit status
	assert_sibling_denied status
	run agit log -1
	assert_sibling_denied log
	cd "$WT2/src"
	run agit diff
	assert_sibling_denied diff
	run agit show HEAD:README.md
	assert_sibling_denied show
	assert_events 4
}

@test "writes inside another agent's worktree are denied" {
	cd "$WT2"
	run agit commit --allow-empty -q -m intrude
	assert_sibling_denied commit
	echo x >"$WT2/x.txt"
	run agit add x.txt
	assert_sibling_denied add
	run "$REAL_GIT" -C "$WT2" diff --cached --name-only
	assert_output ""
}

@test "-C into another agent's worktree is denied" {
	cd "$T"
	run agit -C "$WT2" log -1
	assert_sibling_denied log
	run agit -C "$WT2" commit --allow-empty -q -m intrude
	assert_sibling_denied commit
}

@test "a symlink into another agent's worktree is resolved and denied" {
	ln -s "$WT2" "$T/innocent"
	cd "$T/innocent"
	run agit status
	assert_sibling_denied status
}

@test "an unbound agent is kept out too" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	cd "$WT2"
	run agit status
	assert_sibling_denied status
}

@test "an unbound agent cannot reach another agent's worktree through the repository it names" {
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	local admin fh
	admin=$("$REAL_GIT" -C "$WT2" rev-parse --absolute-git-dir)
	fh="$admin/FETCH_HEAD"
	rm -f "$fh"
	cd "$REPO"
	# run 9's finding: the admin directory's FETCH_HEAD was written
	run agit --git-dir="$WT2/.git" fetch
	assert_sibling_denied fetch
	run agit --git-dir="$admin" fetch
	assert_sibling_denied fetch
	GIT_DIR=$admin run agit fetch
	assert_sibling_denied fetch
	run agit --work-tree="$WT2" status
	assert_sibling_denied status
	# git takes an admin directory it runs in for its git dir
	cd "$admin"
	run agit fetch
	assert_sibling_denied fetch
	[ ! -e "$fh" ]
}

@test "the deny has no worktree or bypass block, just one line" {
	cd "$WT2"
	run --separate-stderr agit status
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$(printf '%s\n' "$stderr" | grep -c .)" 1
}

@test "the agent's own worktree and unmanaged directories are fine" {
	cd "$WT"
	run agit status
	assert_success
	run agit commit --allow-empty -q -m own
	assert_success
	"$REAL_GIT" init -q "$T/scratch"
	cd "$T/scratch"
	run agit status
	assert_success
	run agit commit --allow-empty -q -m scratch
	assert_success
	mkdir -p "$T/plain"
	cd "$T/plain"
	run agit --version
	assert_success
	assert_no_deny_events
}

@test "clean -fdx, -fdX and clean with pathspecs keep the session marker; the rest goes" {
	cd "$WT"
	printf 'build/\n*.log\n' >.gitignore
	"$REAL_GIT" add .gitignore
	"$REAL_GIT" -c core.hooksPath=/dev/null commit -qm ignore
	marker=$(cat .agend-managed)
	for form in "-fdx" "-fdX" "-fX" "-fdx -- ." "-fdx -e keep.txt" "-fdx -e -- ." "-f -d -x sub" \
		"-fx -e !/.agend-managed" "-fdx --end-of-options ." "-ffdx"; do
		mkdir -p build sub
		touch build/o.o a.log new.txt sub/n.txt keep.txt
		# shellcheck disable=SC2086
		run agit clean $form
		assert_success
		assert_equal "$(cat .agend-managed)" "$marker"
		case $form in
		-fdX) [ ! -e build ] && [ ! -e a.log ] && [ -e new.txt ] ;;
		-fX) [ -e build/o.o ] && [ ! -e a.log ] && [ -e new.txt ] ;;
		"-fdx -e keep.txt") [ ! -e build ] && [ ! -e new.txt ] && [ -e keep.txt ] ;;
		"-f -d -x sub") [ ! -e sub ] && [ -e new.txt ] ;;
		*) [ ! -e build ] && [ ! -e a.log ] && [ ! -e new.txt ] && [ ! -e sub ] ;;
		esac
		rm -rf build sub a.log new.txt keep.txt
	done
	# an agent's .gitignore that un-ignores the marker does not expose it
	echo '!/.agend-managed' >>.gitignore
	for form in "-f" "-fx" "-fX"; do
		touch new.txt
		run agit clean $form
		assert_success
		assert_equal "$(cat .agend-managed)" "$marker"
	done
	# the boundary still holds for a sibling after the cleans
	AGENTIC_GIT_AGENT=ag2 run agit status
	assert_equal "$status" 1
	assert_output --partial "agent 'ag2' cannot read from agent 'ag1'"
}

@test "discovery finds what git finds: a git dir with no .git, a symlinked .git, an admin directory id 'worktrees'" {
	local admin g
	admin=$("$REAL_GIT" -C "$WT2" rev-parse --absolute-git-dir)
	rm -f "$admin/FETCH_HEAD"
	# a bare-looking git dir sharing the repository: the bound agent is
	# routed into its own worktree, ag2's HEAD stays
	g="$T/g" && mkdir -p "$g"
	echo 'ref: refs/heads/main' >"$g/HEAD"
	"$REAL_GIT" -C "$REPO" rev-parse --absolute-git-dir >"$g/commondir"
	cd "$g"
	run agit update-ref --no-deref worktrees/feat-b/HEAD HEAD~0
	assert_equal "$(head_of "$WT2")" "$WT2_HEAD"
	run agit config core.fsmonitor "$T/evil.sh"
	assert_failure
	run "$REAL_GIT" -C "$REPO" config core.fsmonitor
	assert_output ""
	# a symlinked .git is followed, as git follows it
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	mkdir -p "$T/s1" && ln -s "$admin" "$T/s1/.git"
	cd "$T/s1"
	run agit fetch
	assert_sibling_denied fetch
	run agit status
	assert_sibling_denied status
	[ ! -e "$admin/FETCH_HEAD" ]
	# a worktree whose admin id is "worktrees", run from below it
	"$REAL_GIT" -C "$REPO" worktree add -q -b fix/w "$T/x/worktrees"
	printf 'agent=ag2\n' >"$T/x/worktrees/.agend-managed"
	admin="$("$REAL_GIT" -C "$REPO" rev-parse --absolute-git-dir)/worktrees/worktrees"
	mkdir -p "$admin/logs" && cd "$admin/logs"
	run agit fetch
	assert_equal "$status" 1
	assert_output --partial "agent 'ag1' cannot read from agent 'ag2'"
	[ ! -e "$admin/FETCH_HEAD" ]
}

@test "GIT_INDEX_FILE never reaches another agent's index: through a symlink, relative to the top, unrouted" {
	local admin before rel
	admin=$("$REAL_GIT" -C "$WT2" rev-parse --absolute-git-dir)
	before=$(sha256sum <"$admin/index")
	cd "$WT"
	echo a >a.txt
	ln -s "$admin/index" idx
	GIT_INDEX_FILE=$WT/idx run agit add a.txt
	assert_success
	# git resolves a relative index from the top: so does the shim
	rel=$(realpath --relative-to="$WT" "$admin/index")
	cd "$WT/src"
	GIT_INDEX_FILE=$rel run agit rm -q --cached ../README.md
	assert_equal "$(sha256sum <"$admin/index")" "$before"
	# an agent with no binding, in a scratch repository of its own
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	"$REAL_GIT" init -q "$T/scratch" && cd "$T/scratch"
	GIT_INDEX_FILE=$admin/index run agit status
	assert_sibling_denied status
	assert_equal "$(sha256sum <"$admin/index")" "$before"
	# its own temp index is fine
	GIT_INDEX_FILE=$T/tmp-index run agit status
	assert_success
}

# docs/fuzzing.md I18 (the rest, threat T66): a repository the agent made
# with core.worktree pointing elsewhere acts on that work tree, wherever
# it runs: `clean -fdx` there deleted another agent's worktree, the
# operator's checkout, anything. A work tree set apart from its
# repository must lie inside the agent's own worktree; reads pass.
@test "a work tree set apart from its repository (core.worktree, --work-tree, GIT_WORK_TREE) reaches no other checkout" {
	local rel w
	echo junk >"$WT2/junk.txt"
	echo "operator's" >"$REPO/opjunk.txt"
	mkdir -p "$T/elsewhere"
	echo mine >"$T/elsewhere/keep.txt"
	cd "$WT"
	run agit init -q sub
	assert_success
	# another agent's worktree: the sibling boundary, reads included
	"$REAL_GIT" -C sub config core.worktree "$WT2"
	run agit -C sub clean -fdx
	assert_sibling_denied clean
	run agit -C sub status
	assert_sibling_denied status
	# relative to the git dir, as git reads it
	rel=$(realpath --relative-to="$WT/sub/.git" "$WT2")
	[[ "$rel" == ../* ]]
	"$REAL_GIT" -C sub config core.worktree "$rel"
	run agit -C sub clean -fdx
	assert_sibling_denied clean
	# the operator's checkout and any other directory: mutations denied
	for w in "$REPO" "$T/elsewhere"; do
		"$REAL_GIT" -C sub config core.worktree "$w"
		run agit -C sub clean -fdx
		assert_failure
		assert_output --partial "would act on the work tree '$w'"
		run agit -C sub add -A
		assert_failure
		run agit --git-dir=sub/.git --work-tree="$w" clean -fdx
		assert_failure
		GIT_DIR=sub/.git GIT_WORK_TREE=$w run agit clean -fdx
		assert_failure
		# reading is not changing
		run agit -C sub log --oneline -1
		refute_output --partial "would act on the work tree"
	done
	GIT_WORK_TREE=$REPO run agit -C sub clean -fdx
	assert_output --partial "would act on the work tree"
	[ -f "$WT2/junk.txt" ]
	[ -f "$REPO/opjunk.txt" ]
	[ -f "$T/elsewhere/keep.txt" ]
	[ -f "$WT2/README.md" ]
	[ -f "$REPO/README.md" ]
	# where git cannot say where it would act, a mutation is not judged:
	# denied (a git whose rev-parse answers half)
	"$REAL_GIT" -C sub config --unset core.worktree
	cat >"$T/git-half" <<-SH
		#!/bin/sh
		case " \$* " in *" --path-format=absolute "*) echo "\$PWD/.git"; exit 0 ;; esac
		exec "$REAL_GIT" "\$@"
	SH
	chmod +x "$T/git-half"
	AGENTIC_GIT_REAL_GIT=$T/git-half run agit -C sub clean -fdx
	assert_failure
	assert_output --partial "where it would act cannot be judged"
	AGENTIC_GIT_REAL_GIT=$T/git-half run agit -C sub status
	assert_success
	[ -f "$REPO/opjunk.txt" ]
	# inside its own worktree, a work tree apart is the agent's to change
	rm -rf sub
	run agit init -q sub
	mkdir tree
	echo scratch >tree/scratch.txt
	"$REAL_GIT" -C sub config core.worktree ../../tree
	run agit -C sub clean -fdx
	assert_success
	[ ! -e tree/scratch.txt ]
	# an unbound agent's reads through it are kept out of ag2's too
	rm -rf "$AGENTIC_GIT_HOME/runtime/ag1"
	"$REAL_GIT" -C sub config core.worktree "$WT2"
	run agit -C sub status
	assert_sibling_denied status
}
