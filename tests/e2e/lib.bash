# SPDX-License-Identifier: Apache-2.0
# Shared helpers for the bats end-to-end tests. Every test gets its own
# scratch world under $BATS_TEST_TMPDIR: a HOME with its own git identity, a
# bare "origin", an operator clone, and an AGENTIC_GIT_HOME.
#
#   load lib
#   setup() { ag_setup; }
#   @test "…" { ag_bind ag1 feat/one; cd "$WT"; run agit checkout main; … }
#
# $AG_BIN is the agentic-git binary under test, $AG_BUILD its build dir,
# $AG_SHIM the shim executable beside it (what <home>/bin/git points at).

# bats-support and bats-assert, their files sourced here: their load.bash
# forks a dirname for each file, 17 processes a test (a seventh of a short
# test's time on a machine where a fork is dear)
ag_load_library() {
	local dir f
	for dir in ${BATS_LIB_PATH//:/ } /usr/lib/bats; do
		[ -f "$dir/$1/load.bash" ] && [ -d "$dir/$1/src" ] || continue
		for f in "$dir/$1"/src/*.bash; do
			# shellcheck disable=SC1090
			source "$f" || return 1
		done
		return 0
	done
	bats_load_library "$1"
}
ag_load_library bats-support
ag_load_library bats-assert

: "${AG_BIN:?AG_BIN must point at the agentic-git binary}"
: "${AG_BUILD:=$(cd "$(dirname "$AG_BIN")/.." && pwd)}"
TEST_TOOL="$AG_BUILD/tests/helper/test-tool"
AG_SHIM=$(dirname "$AG_BIN")/agentic-git-shim
[ -x "$AG_SHIM" ] || { echo "lib.bash: no agentic-git-shim beside $AG_BIN" >&2; exit 1; }
export AG_SHIM
REAL_GIT=$(command -v git)
export REAL_GIT TEST_TOOL

# ag_world DIR: the world every test starts from, made in DIR (a HOME with
# git's config, AGENTIC_GIT_HOME with its key and bin/git, origin, repo)
ag_world() (
	d=$1
	export HOME=$d/home
	mkdir -p "$HOME" "$d/aghome/bin" "$d/aghome/runtime"
	"$REAL_GIT" config --global init.defaultBranch main
	"$REAL_GIT" config --global advice.detachedHead false
	"$REAL_GIT" config --global protocol.file.allow always
	ln -sf "$AG_SHIM" "$d/aghome/bin/git"
	"$TEST_TOOL" key "$d/aghome"
	"$REAL_GIT" init -q --bare "$d/origin.git"
	"$REAL_GIT" init -q "$d/repo"
	cd "$d/repo"
	echo "hello" >README.md
	mkdir -p src
	echo "int main(void) { return 0; }" >src/main.c
	"$REAL_GIT" add -A
	"$REAL_GIT" commit -q -m "initial import"
	"$REAL_GIT" remote add origin "$d/origin.git"
	"$REAL_GIT" push -q origin main
	"$REAL_GIT" remote set-head origin main
)

ag_setup() {
	T=$BATS_TEST_TMPDIR
	export GIT_CONFIG_NOSYSTEM=1
	export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=tester@example.com
	export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=tester@example.com
	unset AGENTIC_GIT_BYPASS AGENTIC_GIT_BYPASS_AGENT AGENTIC_GIT_BYPASS_UNTIL
	unset AGEND_GIT_BYPASS AGEND_GIT_BYPASS_AGENT AGEND_GIT_BYPASS_UNTIL
	unset AGENTIC_GIT_AGENT AGEND_INSTANCE_NAME AGENTIC_GIT_SNAPSHOTS
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR
	export AGENTIC_GIT_REAL_GIT=$REAL_GIT
	# one world made per run of bats, copied for each test: making it
	# costs a dozen processes, which were a seventh of the suite's time
	# (each test gets its own copy of every file; the key's bytes are the
	# same for every test of one run)
	local tpl=$BATS_RUN_TMPDIR/ag-world
	if [ ! -d "$tpl" ]; then
		(
			flock 9
			if [ ! -d "$tpl" ]; then
				rm -rf "$tpl.new"
				ag_world "$tpl.new" && mv "$tpl.new" "$tpl"
			fi
		) 9>"$BATS_RUN_TMPDIR/ag-world.lock"
	fi
	cp -a "$tpl/." "$T/"
	export HOME=$T/home
	export AGENTIC_GIT_HOME=$T/aghome
	ORIGIN=$T/origin.git
	REPO=$T/repo
	"$REAL_GIT" -C "$REPO" config remote.origin.url "$ORIGIN"
	# the copy has new inodes: refresh the index's stat data now, so that
	# the test's first read does not rewrite it
	"$REAL_GIT" -C "$REPO" update-index -q --refresh
	export REPO ORIGIN T
}

# ag_write_binding AGENT BRANCH WORKTREE [TASK]: an orchestrator's binding.
ag_write_binding() {
	local agent=$1 branch=$2 wt=$3 task=${4-task-1}
	local dir=$AGENTIC_GIT_HOME/runtime/$agent
	mkdir -p "$dir"
	if [ -n "$task" ]; then
		printf '{\n  "version": 1,\n  "agent": "%s",\n  "task_id": "%s",\n  "branch": "%s",\n  "worktree": "%s",\n  "source_repo": "%s",\n  "issued_at": "2026-11-29T21:07:02.301397292+00:00"\n}' \
			"$agent" "$task" "$branch" "$wt" "$REPO" >"$dir/binding.json"
	else
		printf '{\n  "version": 1,\n  "agent": "%s",\n  "branch": "%s",\n  "worktree": "%s"\n}' \
			"$agent" "$branch" "$wt" >"$dir/binding.json"
	fi
	"$TEST_TOOL" sign "$AGENTIC_GIT_HOME" "$dir/binding.json"
}

# ag_bind AGENT BRANCH: provision a worktree + signed binding + marker the
# way an orchestrator would, and export WT and AGENTIC_GIT_AGENT.
ag_bind() {
	local agent=$1 branch=$2
	WT=$AGENTIC_GIT_HOME/worktrees/$agent/$branch
	mkdir -p "$(dirname "$WT")"
	"$REAL_GIT" -C "$REPO" worktree add -q -b "$branch" "$WT" main
	printf 'agent=%s\nleased_at=now\n' "$agent" >"$WT/.agend-managed"
	echo ".agend-managed" >>"$("$REAL_GIT" -C "$WT" rev-parse --git-common-dir)/info/exclude"
	ag_write_binding "$agent" "$branch" "$WT"
	export WT AGENTIC_GIT_AGENT=$agent
}

# ag_bind_two: ag2 bound to feat/b (its worktree in WT2), then ag1 to
# feat/a (WT, the agent the test runs as): the sibling tests' fleet.
ag_bind_two() {
	ag_bind ag2 feat/b
	WT2=$WT
	ag_bind ag1 feat/a
}

# agit ARGS…: run git through the shim, as an agent would find it on PATH.
agit() {
	PATH="$AGENTIC_GIT_HOME/bin:$PATH" git "$@"
}

# events: the fleet_events.jsonl lines, one per line (empty when none).
events() {
	cat "$AGENTIC_GIT_HOME/fleet_events.jsonl" 2>/dev/null || true
}

# prereq NAME COMMAND…: skip (or, with AG_MUST_WORK=1, fail) when the
# capability check COMMAND fails.
prereq() {
	local name=$1
	shift
	if ! "$@" >/dev/null 2>&1; then
		if [ "${AG_MUST_WORK:-}" = 1 ]; then
			fail "capability '$name' missing and AG_MUST_WORK=1"
		fi
		skip "capability '$name' missing on this host"
	fi
}

# must_fail: like `run` but asserts a non-zero, non-crash exit status.
must_fail() {
	run "$@"
	if [ "$status" -eq 0 ] || [ "$status" -ge 129 ]; then
		echo "expected failure, got status $status; output: $output" >&2
		return 1
	fi
}

# head_of DIR: the commit HEAD points at.
head_of() {
	"$REAL_GIT" -C "$1" rev-parse HEAD
}

# branch_of DIR: the branch checked out, or "(detached)".
branch_of() {
	"$REAL_GIT" -C "$1" symbolic-ref -q --short HEAD || echo "(detached)"
}
