#!/usr/bin/env bats
# Where git acts, by git's own answer (src/git/git-where.c; threat T66):
# for a command not routed into the agent's own worktree, the shim asks
# git which git dir and work tree it will use, so that no reading of
# git's setup of its own (core.worktree in config or config.worktree, a
# bare directory's HEAD, the working directory beside a named git dir)
# can differ from git's. A work tree set apart from its repository must
# lie inside the agent's worktree; another agent's is the sibling deny.
load lib
load shimlib

setup() {
	ag_setup
	ag_bind_two
	echo "operator's" >"$REPO/opjunk.txt"
	echo junk >"$WT2/junk.txt"
}

operator_intact() {
	[ -f "$REPO/opjunk.txt" ]
	[ -f "$REPO/README.md" ]
	[ -f "$REPO/src/main.c" ]
}

assert_apart_denied() {
	assert_failure
	assert_output --partial "would act on the work tree '$1'"
}

@test "core.worktree in config.worktree (extensions.worktreeConfig) is git's work tree: denied" {
	cd "$WT"
	agit init -q sub
	"$REAL_GIT" -C sub config core.repositoryformatversion 1
	"$REAL_GIT" -C sub config extensions.worktreeConfig true
	printf '[core]\n\tworktree = %s\n' "$REPO" >sub/.git/config.worktree
	run agit -C sub clean -fdx
	assert_apart_denied "$REPO"
	operator_intact
}

@test "config.worktree of a linked worktree of the agent's repository: denied" {
	cd "$WT"
	agit init -q sub
	"$REAL_GIT" -C sub commit -q --allow-empty -m x
	"$REAL_GIT" -C sub worktree add -q ../subwt
	"$REAL_GIT" -C sub config core.repositoryformatversion 1
	"$REAL_GIT" -C sub config extensions.worktreeConfig true
	printf '[core]\n\tworktree = %s\n' "$REPO" >sub/.git/worktrees/subwt/config.worktree
	run agit -C subwt clean -fdx
	assert_apart_denied "$REPO"
	operator_intact
}

@test "a core.worktree spelled as only git reads it (\"\" <path>) is git's answer: denied" {
	cd "$WT"
	agit init -q sub
	printf '[core]\n\tworktree = "" %s\n' "$REPO" >>sub/.git/config
	[ "$("$REAL_GIT" -C sub rev-parse --show-toplevel)" = "$REPO" ]
	run agit -C sub clean -fdx
	assert_apart_denied "$REPO"
	operator_intact
}

@test "a bare directory git takes for a git dir (HEAD 'ref:refs/…', a HEAD link) is a repository: its core.worktree is judged" {
	"$REAL_GIT" init -q --bare "$T/evil"
	printf 'ref:refs/heads/main\n' >"$T/evil/HEAD"
	"$REAL_GIT" -C "$T/evil" config core.bare false
	"$REAL_GIT" -C "$T/evil" config core.worktree "$REPO"
	cd "$T/evil"
	run agit clean -fdx
	assert_apart_denied "$REPO"
	operator_intact
	# inside the agent's worktree, pointing at ag2's: the sibling boundary
	"$REAL_GIT" init -q --bare "$WT/evil"
	rm "$WT/evil/HEAD"
	ln -s refs/heads/main "$WT/evil/HEAD"
	"$REAL_GIT" -C "$WT/evil" config core.bare false
	"$REAL_GIT" -C "$WT/evil" config core.worktree "$WT2"
	cd "$WT/evil"
	run agit clean -fdx
	assert_failure
	assert_output --partial "cannot read from agent 'ag2'"
	[ -f "$WT2/junk.txt" ]
	[ -f "$WT2/README.md" ]
	# an object id of either case is a detached HEAD to git
	printf '%s\n' "$("$REAL_GIT" -C "$REPO" rev-parse HEAD | tr a-f A-F)" >"$T/evil/HEAD"
	cd "$T/evil"
	run agit clean -fdx
	assert_apart_denied "$REPO"
	operator_intact
}

@test "a git dir named from the operator's checkout: git's work tree is the working directory, denied" {
	cd "$WT"
	agit init -q sub
	cd "$REPO"
	run agit --git-dir="$WT/sub/.git" clean -fdx
	assert_apart_denied "$REPO"
	GIT_DIR=$WT/sub/.git run agit clean -fdx
	assert_apart_denied "$REPO"
	operator_intact
	# reads there are reads
	run agit --git-dir="$WT/sub/.git" status --short
	refute_output --partial "would act on"
}

@test "git's answer is asked with no trace written: a GIT_TRACE the policy denies writes nothing first" {
	cd "$WT"
	agit init -q sub
	GIT_TRACE=$T/trace.txt run agit -C sub status
	assert_failure
	[ ! -e "$T/trace.txt" ]
}
