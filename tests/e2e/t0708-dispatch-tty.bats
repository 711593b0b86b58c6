#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# dispatch's live progress: one line per target event, on a terminal on
# stdout, coloured unless NO_COLOR is set; when stdout is a pipe, plain
# lines on stderr and none on stdout (issue 35 point 6: t0935).
bats_require_minimum_version 1.5.0
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	prereq script command -v script
}

@test "t0708.1 progress lines on a terminal, colour unless NO_COLOR, none on a piped stdout" {
	cmd="'$AG_BIN' dispatch --repo '$REPO' --head feat/a --base main --task resolve-conflicts -- '$AGENTS/escalate.sh'"
	script -qec "$cmd" /dev/null >$T/tty.out || true
	grep -q "running   repo-feat-a" $T/tty.out
	grep -q $'\033\\[32mno-change' $T/tty.out
	NO_COLOR=1 script -qec "$cmd" /dev/null >$T/tty2.out || true
	grep -q "running   repo-feat-a" $T/tty2.out
	! grep -q $'\033\\[' $T/tty2.out
	run --separate-stderr dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/escalate.sh"
	refute_output --partial "running"
	! grep -q $'\033' <<<"$output$stderr"
	grep -q "repo-feat-a: running" <<<"$stderr"
}
