#!/usr/bin/env bats
# run --profile: an agent profile inside a guarded session (issue 5 "run
# --profile", issue 6 "sessions use the sandbox").
load lib
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin" "$HOME/.ssh"
	"$REAL_GIT" config --global user.name Tester
	"$REAL_GIT" config --global user.email tester@example.com
	echo "PRIVATE KEY" >"$HOME/.ssh/id_rsa"
	# the scripted agent: records its argv and env, tries to leave its
	# branch, commits real work through the shim
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	out=agent-report.txt
	for a in "$@"; do printf 'ARG:%s\n' "$a"; done >"$out"
	env | sed 's/=.*//' | sort | sed 's/^/ENV:/' >>"$out"
	if git checkout -q main 2>/dev/null; then echo "FENCE:open" >>"$out"; else echo "FENCE:closed" >>"$out"; fi
	if cat "$HOME/.ssh/id_rsa" >/dev/null 2>&1; then echo "SSH:readable" >>"$out"; else echo "SSH:hidden" >>"$out"; fi
	if cat "$AGENTIC_GIT_HOME/.config-integrity-key" >/dev/null 2>&1; then echo "KEY:readable" >>"$out"; else echo "KEY:hidden" >>"$out"; fi
	echo "work" >work.txt
	git add work.txt agent-report.txt && git commit -q -m "agent work" && echo "COMMIT:ok" >>"$out"
	cat "$out"
	EOS
	chmod +x "$T/bin/agent.sh"
	cd "$REPO"
}

# sandbox_events_recorded AGENT: the shim's deny and the commit's ref move
# inside the sandbox reached the log through the spool, attributed.
sandbox_events_recorded() {
	events | jq -e --arg a "$1" -s 'map(select(.via == "sandbox" and .agent == $a and .subcommand == "checkout" and .disposition == "deny")) | length == 1'
	events | jq -e --arg a "$1" -s 'map(select(.via == "sandbox" and .agent == $a and .event == "ref_update")) | length >= 1'
	[ ! -e "$AGENTIC_GIT_HOME/cache/$1/events.spool.jsonl" ]
}

write_config() { # sandbox [backend]
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF2
	sandbox_backend: ${2:-auto}
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "--task", "{prompt}"]
	    env: []
	    sandbox: $1
	EOF2
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

@test "run --profile launches the planned argv in the worktree, env scoped, fenced, audited" {
	write_config none
	export GH_TOKEN=secret-token AWS_SECRET_ACCESS_KEY=secret-aws
	run "$AG_BIN" run --agent p1 --branch feat/p1 --profile scripted --prompt 'fix it; $(touch /tmp/pwned-p1)'
	assert_success
	wt=$AGENTIC_GIT_HOME/worktrees/p1/feat/p1
	assert_output --partial 'ARG:fix it; $(touch /tmp/pwned-p1)'
	assert_output --partial "FENCE:closed"
	assert_output --partial "COMMIT:ok"
	assert_output --partial "KEY:readable" # no sandbox: the control
	refute_output --partial "ENV:GH_TOKEN"
	refute_output --partial "ENV:AWS_SECRET_ACCESS_KEY"
	assert_output --partial "ENV:AGENTIC_GIT_AGENT"
	[ ! -e /tmp/pwned-p1 ]
	[ "$(branch_of "$wt")" = feat/p1 ]
	"$REAL_GIT" -C "$REPO" log --format=%s feat/p1 | grep -qx "agent work"
	ev=$(events | jq -c 'select(.event == "agent_launch")')
	[ "$(echo "$ev" | jq -r .profile)" = scripted ]
	p='fix it; $(touch /tmp/pwned-p1)'
	echo "$ev" | jq -e --arg want "<prompt:${#p} chars>" '.agent_argv | index($want) != null'
	echo "$ev" | jq -e '.agent_env_keys | index("GH_TOKEN") == null'
	echo "$ev" | grep -vq 'touch /tmp/pwned'
}

@test "run --profile with a sandboxed profile runs in a private workspace under the sandbox" {
	sbx_prereq bwrap
	write_config fs+no-net bwrap
	run "$AG_BIN" run --agent p2 --branch feat/p2 --profile scripted --prompt "do it"
	assert_success
	assert_output --partial "SSH:hidden"
	assert_output --partial "KEY:hidden" # the fleet key never enters the cage
	assert_output --partial "FENCE:closed"
	assert_output --partial "COMMIT:ok"
	wt=$AGENTIC_GIT_HOME/worktrees/p2/feat/p2
	[ -d "$wt/.git" ]            # its own repository, not a linked worktree
	"$REAL_GIT" -C "$wt" log --format=%s feat/p2 | grep -qx "agent work"
	# the branch came back into the operator's clone when the agent exited
	assert_equal "$("$REAL_GIT" -C "$REPO" rev-parse feat/p2)" "$(head_of "$wt")"
	events | jq -c 'select(.event == "agent_launch")' | jq -e '.sandbox == "fs+no-net" and .sandbox_backend == "bwrap"'
	# the wrapper's environment values are not in the audit log (agent-sandbox.h 5)
	events | jq -c 'select(.event == "agent_launch")' | jq -e '.agent_argv as $a |
		[range(0; $a | length) | select($a[.] == "--setenv") | $a[. + 2]] |
		length > 0 and all(. == "<redacted>")'
	sandbox_events_recorded p2
	# end brings the branch (and snapshots) back into the repository
	echo "unsaved" >"$wt/wip.txt"
	run "$AG_BIN" end --agent p2
	assert_failure 1
	run "$AG_BIN" end --agent p2 --force
	assert_success
	[ ! -e "$wt" ]
	"$REAL_GIT" -C "$REPO" log --format=%s feat/p2 | grep -qx "agent work"
	"$REAL_GIT" -C "$REPO" for-each-ref refs/agentic-git/snapshots/p2/ | grep -q end
}

@test "run --profile under Landlock" {
	sbx_prereq landlock
	write_config fs-only landlock
	run "$AG_BIN" run --agent p3 --branch feat/p3 --profile scripted --prompt "do it"
	assert_success
	assert_output --partial "SSH:hidden"
	assert_output --partial "KEY:hidden"
	assert_output --partial "FENCE:closed"
	assert_output --partial "COMMIT:ok"
	events | jq -c 'select(.event == "agent_launch")' | jq -e '.sandbox_backend == "landlock"'
	sandbox_events_recorded p3
}

@test "a sandbox the host cannot give is refused with nothing created; warn-run records it" {
	write_config fs+no-net
	export AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock
	before=$("$REAL_GIT" -C "$REPO" worktree list | wc -l)
	run "$AG_BIN" run --agent p4 --branch feat/p4 --profile scripted --prompt "x"
	assert_failure 1
	assert_output --partial "requires sandbox 'fs+no-net'"
	assert_output --partial "nothing was created"
	[ ! -e "$AGENTIC_GIT_HOME/worktrees/p4" ]
	[ ! -e "$AGENTIC_GIT_HOME/runtime/p4" ]
	[ "$("$REAL_GIT" -C "$REPO" worktree list | wc -l)" = "$before" ]
	! "$REAL_GIT" -C "$REPO" rev-parse -q --verify feat/p4
	printf 'sandbox_fallback: warn-run\n' >>"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" run --agent p4 --branch feat/p4 --profile scripted --prompt "x"
	assert_equal "$status" 3
	assert_output --partial "UNSANDBOXED"
	events | jq -c 'select(.event == "sandbox_downgraded")' | jq -e '.disposition == "warn"'
}

@test "run --profile bad input: unknown profile, no prompt, both forms, empty prompt file" {
	write_config none
	run "$AG_BIN" run --agent p5 --branch feat/p5 --profile nosuch --prompt x
	assert_failure 1
	assert_output --partial "unknown agent 'nosuch'"
	run "$AG_BIN" run --agent p5 --branch feat/p5 --profile scripted
	assert_failure 2
	run "$AG_BIN" run --agent p5 --branch feat/p5 --profile scripted --prompt x -- true
	assert_failure 2
	: >"$T/empty.md"
	run "$AG_BIN" run --agent p5 --branch feat/p5 --profile scripted --prompt-file "$T/empty.md"
	assert_failure 1
	assert_output --partial "prompt is empty"
	run "$AG_BIN" run --agent p5 --branch feat/p5 --prompt x -- true
	assert_failure 2
	[ ! -e "$AGENTIC_GIT_HOME/worktrees/p5" ]
}
