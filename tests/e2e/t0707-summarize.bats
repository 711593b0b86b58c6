#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# summarize: one agent call over a run's summary and escalations (or any
# input), its answer printed; failures are reported and exit 1.
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	dsp_branch feat/a
	dsp_advance_main
	# an "agent" that answers with what it was given
	printf '#!/bin/sh\necho "ANSWER BEGIN"\ncat\necho "ANSWER END"\n' >$T/echo-agent.sh
	chmod +x $T/echo-agent.sh
}

@test "t0707.1 the latest run's summary and escalation notes go to the agent; its answer is printed" {
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/escalate.sh"
	[ "$status" -eq 3 ]
	run "$AG_BIN" summarize -- $T/echo-agent.sh
	assert_success
	assert_line --index 0 "ANSWER BEGIN"
	assert_output --partial "Write a short triage"
	assert_output --partial "# agentic-git dispatch"
	assert_output --partial "## Escalation note: repo-feat-a"
	assert_output --partial "conflict: CHANGELOG"
	id=$(readlink "$AGENTIC_GIT_HOME/runs/latest")
	run "$AG_BIN" summarize --run "$id" -- $T/echo-agent.sh
	assert_success
	assert_output --partial "repo-feat-a"
}

@test "t0707.2 --input and --prompt-file replace the defaults; a profile can be the agent" {
	echo "custom input text" >$T/in.txt
	echo "custom prompt text" >$T/p.md
	run "$AG_BIN" summarize --input $T/in.txt --prompt-file $T/p.md -- $T/echo-agent.sh
	assert_success
	assert_output --partial "custom prompt text"
	assert_output --partial "custom input text"
	refute_output --partial "Write a short triage"
	printf 'agents:\n  echo:\n    command: [%s]\n    prompt_via: stdin\n' "$T/echo-agent.sh" >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" summarize --profile echo --input $T/in.txt
	assert_success
	assert_output --partial "custom input text"
}

@test "t0707.3 no run, a bad run id, a failing or hanging agent: exit 1 with a reason" {
	must_fail "$AG_BIN" summarize -- $T/echo-agent.sh
	assert_output --partial "no dispatch run found"
	must_fail "$AG_BIN" summarize --run ../../etc -- $T/echo-agent.sh
	assert_output --partial "is not a run id"
	echo x >$T/in.txt
	must_fail "$AG_BIN" summarize --input $T/in.txt -- /bin/false
	assert_output --partial "the agent failed (exit 1)"
	printf '#!/bin/sh\nexec sleep 300\n' >$T/slow.sh
	chmod +x $T/slow.sh
	must_fail "$AG_BIN" summarize --timeout 1 --input $T/in.txt -- $T/slow.sh
	assert_output --partial "timed out"
	must_fail "$AG_BIN" summarize --input $T/in.txt --run latest -- $T/echo-agent.sh
	assert_output --partial "either --run or --input"
	run "$AG_BIN" summarize --help
	assert_line --index 0 --partial "usage: agentic-git summarize"
}
