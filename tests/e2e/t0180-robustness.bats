#!/usr/bin/env bats
# Recursion guard, locating real git, exit codes, and the hot path's process
# count (reference §1.2, §3.11, §3.12; PRODUCT.md §11).
load lib
load shimlib

setup() {
	ag_setup
	ag_bind ag1 feat/a
	cd "$WT"
}

@test "recursion guard: AGENTIC_GIT_SHIM_DEPTH=8 exits 70" {
	AGENTIC_GIT_SHIM_DEPTH=8 run agit rev-parse HEAD
	assert_equal "$status" 70
	assert_output --partial "recursion guard"
	assert_output --partial "AGENTIC_GIT_REAL_GIT"
	AGENTIC_GIT_SHIM_DEPTH=99 run agit status
	assert_equal "$status" 70
	# the legacy name counts when the primary is unset
	AGEND_GIT_SHIM_DEPTH=8 run agit status
	assert_equal "$status" 70
	AGENTIC_GIT_SHIM_DEPTH=7 run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
	AGENTIC_GIT_SHIM_DEPTH=garbage run agit rev-parse --abbrev-ref HEAD
	assert_success
}

@test "five legitimately nested shim calls work; a real loop is still stopped" {
	unset AGENTIC_GIT_AGENT # aliases: through the operator path
	local shim=$AGENTIC_GIT_HOME/bin
	# each level's shell puts the shim first again, as a login shell would
	run env -u AGENTIC_GIT_SHIM_DEPTH PATH="$shim:$PATH" git \
		-c "alias.l1=!PATH=$shim:\$PATH git l2" -c "alias.l2=!PATH=$shim:\$PATH git l3" \
		-c "alias.l3=!PATH=$shim:\$PATH git l4" -c "alias.l4=!PATH=$shim:\$PATH git l5" \
		-c 'alias.l5=!echo depth=$AGENTIC_GIT_SHIM_DEPTH' l1
	assert_success
	assert_output depth=5
	# real git that is a wrapper exec'ing the shim: stopped by the depth
	printf '#!/bin/sh\nexec "%s/git" "$@"\n' "$shim" >"$T/loop-exec"
	chmod +x "$T/loop-exec"
	AGENTIC_GIT_REAL_GIT=$T/loop-exec run "$shim/git" status
	assert_equal "$status" 70
	assert_output --partial "AGENTIC_GIT_SHIM_DEPTH=8"
	# a wrapper that forks the shim: the same
	printf '#!/bin/sh\n"%s/git" "$@"\nexit $?\n' "$shim" >"$T/loop-fork"
	chmod +x "$T/loop-fork"
	AGENTIC_GIT_REAL_GIT=$T/loop-fork run "$shim/git" status
	assert_equal "$status" 70
	assert_output --partial "AGENTIC_GIT_SHIM_DEPTH=8"
}

@test "xargs git add over 20,000 names works, with and without an agent" {
	mkdir many
	(cd many && seq -f 'f%05g.txt' 1 20000 | xargs touch)
	PATH="$AGENTIC_GIT_HOME/bin:$PATH" run sh -c 'find many -name "*.txt" | xargs git add'
	assert_success
	assert_equal "$("$REAL_GIT" diff --cached --name-only | wc -l)" 20000
	"$REAL_GIT" reset -q
	unset AGENTIC_GIT_AGENT
	PATH="$AGENTIC_GIT_HOME/bin:$PATH" run sh -c 'find many -name "*.txt" | xargs git add'
	assert_success
	assert_equal "$("$REAL_GIT" diff --cached --name-only | wc -l)" 20000
	# and one call with them all as arguments
	"$REAL_GIT" reset -q
	export AGENTIC_GIT_AGENT=ag1
	# shellcheck disable=SC2046
	run agit add $(find many -name "*.txt")
	assert_success
	assert_equal "$("$REAL_GIT" diff --cached --name-only | wc -l)" 20000
}

@test "real git sees AGENTIC_GIT_SHIM_DEPTH incremented" {
	# aliases are not expanded for agents; look through the operator path
	unset AGENTIC_GIT_AGENT
	run env -u AGENTIC_GIT_SHIM_DEPTH "$AGENTIC_GIT_HOME/bin/git" -c 'alias.d=!echo depth=$AGENTIC_GIT_SHIM_DEPTH' d
	assert_success
	assert_output depth=1
}

@test "AGENTIC_GIT_REAL_GIT pointing at the shim itself is ignored" {
	AGENTIC_GIT_REAL_GIT=$AGENTIC_GIT_HOME/bin/git run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
	AGENTIC_GIT_REAL_GIT=$AG_BIN run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
	# a second link to the shim elsewhere on PATH is caught by the guard
	ln -s "$AG_BIN" "$T/git"
	AGENTIC_GIT_REAL_GIT=$T/git run agit rev-parse --abbrev-ref HEAD
	assert_success
	# the shim executable itself, by its own name and through a link
	AGENTIC_GIT_REAL_GIT=$AG_SHIM run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
	mkdir "$T/other"
	ln -s "$AG_SHIM" "$T/other/git"
	AGENTIC_GIT_REAL_GIT=$T/other/git run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
}

@test "the full agentic-git binary invoked as git is the same shim" {
	mkdir "$T/full"
	ln -s "$AG_BIN" "$T/full/git"
	run "$T/full/git" rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
	run "$T/full/git" checkout main
	assert_equal "$status" 1
	assert_output --partial "reason: cross-branch"
	# and the small shim answers the same
	run "$AG_SHIM" checkout main
	assert_equal "$status" 1
	assert_output --partial "reason: cross-branch"
	assert_equal "$(readlink "$AGENTIC_GIT_HOME/bin/git")" "$AG_SHIM"
}

@test "AGENTIC_GIT_REAL_GIT unset: real git is found on PATH outside bin/" {
	unset AGENTIC_GIT_REAL_GIT
	run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
}

@test "a REAL_GIT that cannot be executed exits 127" {
	printf 'not a program\n' >"$T/badgit"
	chmod +x "$T/badgit"
	AGENTIC_GIT_REAL_GIT=$T/badgit run -127 agit status
	assert_equal "$status" 127
	assert_output --partial "exec failed"
}

@test "a REAL_GIT with no execute bit, or a directory, is passed over for git on PATH" {
	cp "$REAL_GIT" "$T/noexec-git"
	chmod 644 "$T/noexec-git"
	AGENTIC_GIT_REAL_GIT=$T/noexec-git run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
	mkdir "$T/dir-git"
	AGENTIC_GIT_REAL_GIT=$T/dir-git run agit rev-parse --abbrev-ref HEAD
	assert_success
	assert_output feat/a
}

@test "no real git anywhere exits 127" {
	prereq bwrap bwrap --dev-bind / / true
	# hide every git: /usr/bin/git becomes a character device
	run -127 bwrap --dev-bind / / --bind /dev/null /usr/bin/git \
		env AGENTIC_GIT_REAL_GIT=/nonexistent PATH="$AGENTIC_GIT_HOME/bin" \
		"$AGENTIC_GIT_HOME/bin/git" status
	assert_equal "$status" 127
	assert_output --partial "cannot find the real git"
}

@test "git's exit codes pass through unchanged" {
	run agit rev-parse --verify -q no-such-ref
	assert_equal "$status" 1
	run agit rev-parse --verify no-such-ref
	assert_equal "$status" 128
	echo change >>README.md
	run agit diff --quiet
	assert_equal "$status" 1
	run agit merge-base --is-ancestor HEAD~0 HEAD
	assert_equal "$status" 0
	run agit frobnicate-not-a-command
	assert_equal "$status" 1
	# a conflict-wrapped command: git's own status
	run agit merge no-such-branch
	local shim=$status
	run "$REAL_GIT" merge no-such-branch
	assert_equal "$shim" "$status"
	[ "$shim" -ne 0 ]
}

# strace_run CMD…: run the shim under strace in the worktree and set
# EXECS (execve calls that succeeded) and FORKS (process creations).
strace_run() {
	# In the ASan build LeakSanitizer clones a tracer task at exit to scan
	# memory; it is not a process the shim starts, so it is turned off here.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -s 4096 -e trace=execve,clone,clone3,fork,vfork -o "$T/trace" \
		"$AGENTIC_GIT_HOME/bin/git" "$@" >/dev/null 2>&1 || true
	EXECS=$(grep -c 'execve(.*= 0$' "$T/trace" || true)
	# a new process, not a thread: LeakSanitizer's exit-time thread in the
	# ASan build is a clone with CLONE_THREAD, which starts no process
	FORKS=$(grep -E '(clone|clone3|fork|vfork)\(' "$T/trace" | grep -vc 'CLONE_THREAD' || true)
}

@test "hot path: a bound rev-parse HEAD is one exec of real git, no fork" {
	prereq strace strace -f -o /dev/null true
	strace_run rev-parse HEAD
	assert_equal "$EXECS" 2
	assert_equal "$FORKS" 0
	# the second exec is real git, with the routing -C
	run grep 'execve(' "$T/trace"
	assert_line --index 1 --partial "\"$REAL_GIT\""
	assert_line --index 1 --partial "\"-C\", \"$WT\""
}

@test "hot path: a bound git status is one exec of real git, no fork" {
	prereq strace strace -f -o /dev/null true
	strace_run status
	assert_equal "$EXECS" 2
	assert_equal "$FORKS" 0
}

@test "a deny spawns no process at all" {
	prereq strace strace -f -o /dev/null true
	strace_run checkout main
	assert_equal "$EXECS" 1
	assert_equal "$FORKS" 0
}
