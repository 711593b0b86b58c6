#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Attribution everywhere (issue 16, build 6; issue 18, build 3): a
# dispatch workspace gets the session's hooks (fleet/workspace.h), so the
# dispatched agent's commits reach the remote with the Agentic-* trailers,
# its ref moves are journaled, and the reference-transaction hook refuses
# protected and snapshot refs even to real git called past the shim with
# no session variables: plain, in bwrap and in Landlock (where a sandboxed
# session's lock needed the same fix). Under warn-run a downgraded agent is
# not told it is sandboxed.
load lib
load dispatch
load sandbox_cases
load dispatch_sandbox

setup() {
	dsb_setup
	# $HOME is empty in the cage: the workspace carries this identity
	"$REAL_GIT" config --global user.name "Operator Name"
	"$REAL_GIT" config --global user.email operator@example.com
}

# attributed: checks a pushed run of agents/attrib.sh
attributed() {
	local id agent log f
	[ "$(meta repo-feat-a status)" = pushed ]
	id=$(basename "$(run_dir)")
	agent=dispatch-${id,,}-0
	log=$(run_dir)/repo-feat-a.stdout.log
	# every commit the agent made, as pushed: the rebased one, its own and
	# the one real git made with the session's variables stripped
	f='%(trailers:key=Agentic-Agent,valueonly,separator=)|%(trailers:key=Agentic-Task,valueonly,separator=)|%(trailers:key=Agentic-Branch,valueonly,separator=)'
	run "$REAL_GIT" --git-dir="$ORIGIN" log --format="$f" main..feat/a
	assert_success
	assert_output "$(printf '%s|dispatch:%s:repo-feat-a|feat/a\n' "$agent" "$id" "$agent" "$id" "$agent" "$id")"
	run "$REAL_GIT" --git-dir="$ORIGIN" log --format=%s main..feat/a
	assert_output "$(printf 'stripped\nagent note\nfeature feat/a')"
	# its ref moves are journaled under its name, inside the cage too
	# (the stripped commit's too: the hook finds the session itself)
	events | jq -e -s --arg a "$agent" 'map(select(.event == "ref_update" and .agent == $a and .ref == "refs/heads/feat/a" and .subcommand == "commit" and .new != .old)) | length >= 2'
	events | jq -e -s --arg a "$agent" 'map(select(.event == "ref_update" and .agent == $a and .ref == "refs/heads/feat/a" and .subcommand == "rebase")) | length >= 1'
	# the hook refused, with no shim and no session variables in the way
	grep -q "^REFUSED refs/heads/main: agentic-git: ref update refused for agent '$agent': 'main' is a protected branch" "$log"
	grep -q "^REFUSED refs/heads/master: .*'master' is a protected branch" "$log"
	grep -q "^REFUSED refs/agentic-git/snapshots/other: .*is in the snapshot namespace" "$log"
	! grep -q "^MOVED refs/\(heads/ma\|agentic-git\)" "$log"
	! "$REAL_GIT" --git-dir="$ORIGIN" rev-parse -q --verify refs/heads/master
}

@test "t0713.1 plain: pushed commits carry the trailers, ref moves are journaled, the hook refuses" {
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/attrib.sh"
	assert_success
	attributed
	# unsandboxed the agent shares the operator's uid: the seatbelt only
	grep -q "^WRITABLE hook" "$(run_dir)/repo-feat-a.stdout.log"
}

# boxed_case BACKEND
boxed_case() {
	sbx_prereq "$1"
	DSB_ENV="[REAL_GIT]" boxed_config "$1" fs-only "$AGENTS/attrib.sh"
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	assert_success
	[ "$(meta repo-feat-a sandbox)" = "fs-only ($1)" ]
	attributed
	# the hooks and the binding are bound read-only
	! grep -q "^WRITABLE" "$(run_dir)/repo-feat-a.stdout.log"
}

@test "t0713.2 bwrap: the same inside the sandbox; hooks and binding read-only" {
	boxed_case bwrap
}

@test "t0713.3 landlock: the same inside the sandbox; hooks and binding read-only" {
	boxed_case landlock
}

@test "t0713.4 landlock: a marker naming no session makes the hook refuse everything (fail-closed)" {
	sbx_prereq landlock
	DSB_ENV="[REAL_GIT, ATTRIB_TAMPER]" boxed_config landlock fs-only "$AGENTS/attrib.sh"
	ATTRIB_TAMPER=1 run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	log=$(run_dir)/repo-feat-a.stdout.log
	grep -q "^MOVED refs/heads/before" "$log"
	grep -q "^REFUSED refs/heads/after: agentic-git: ref update refused: no verified binding names this worktree and the sessions in '.*' cannot be read (fail-closed)" "$log"
	# a new branch is not the target's: verification blocks the push
	[ "$(meta repo-feat-a status)" = blocked ]
}

@test "t0713.5 plain: a rewritten marker does not hide the session from the hook" {
	ATTRIB_TAMPER=1 run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/attrib.sh"
	log=$(run_dir)/repo-feat-a.stdout.log
	grep -q "^MOVED refs/heads/after" "$log"
	grep -q "^REFUSED refs/heads/main: .*protected branch" "$log"
}

@test "t0713.6 warn-run: a downgraded agent is not told it is sandboxed" {
	cat >"$T/tell.sh" <<-'SH'
		#!/bin/sh
		cat >/dev/null
		echo "IS_SANDBOX=${IS_SANDBOX-unset} ARGS=$*"
		echo "ESCALATED: only reporting"
	SH
	chmod +x "$T/tell.sh"
	printf 'targets:\n  - {repo: %s, head: feat/a, base: main, key: c, profile: claude}\n  - {repo: %s, head: feat/a, base: main, key: x, profile: codex}\n' \
		"$REPO" "$REPO" >"$T/t.yaml"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-YAML
	sandbox_fallback: warn-run
	agents:
	  claude:
	    command: [$T/tell.sh]
	    prompt_via: stdin
	    sandbox: fs-only
	  codex:
	    command: [$T/tell.sh, --sandbox, "{agent_sandbox}"]
	    sandbox: fs-only
	YAML
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run dispatch --targets "$T/t.yaml" --task resolve-conflicts
	[ "$status" -eq 4 ]
	assert_output --partial "ran UNSANDBOXED"
	[ "$(meta c sandbox)" = "none (warn-run)" ]
	[ "$(meta x sandbox)" = "none (warn-run)" ]
	# claude's preset says IS_SANDBOX=1 only inside ours; codex keeps its own
	grep -qx "IS_SANDBOX=unset ARGS=" "$(run_dir)/c.stdout.log"
	# (and, unwrapped, the workspace's git dir among its writable roots)
	grep -q "^IS_SANDBOX=unset ARGS=--sandbox workspace-write -c sandbox_workspace_write.writable_roots=\[\"$(run_dir)/work/x/.git\"," "$(run_dir)/x.stdout.log"
	# summarize plans its agent as dispatch does
	echo "some input" >"$T/in.txt"
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run "$AG_BIN" summarize --profile claude --input "$T/in.txt"
	assert_success
	assert_output --partial "UNSANDBOXED"
	assert_output --partial "IS_SANDBOX=unset ARGS="
	# control: where ours does wrap them, they are told
	if sbx_probe_has '.bwrap.works' >/dev/null 2>&1; then
		sed -i 's/^sandbox_fallback: warn-run$/sandbox_backend: bwrap/' "$AGENTIC_GIT_HOME/config.yaml"
		run dispatch --targets "$T/t.yaml" --task resolve-conflicts
		[ "$status" -eq 3 ]
		grep -qx "IS_SANDBOX=1 ARGS=" "$(run_dir)/c.stdout.log"
		grep -qx "IS_SANDBOX=unset ARGS=--sandbox danger-full-access" "$(run_dir)/x.stdout.log"
	fi
}

@test "t0713.7 warn-run: a preset that refuses root unsandboxed is refused as root, runs untold otherwise" {
	cat >"$T/tell.sh" <<-'SH'
		#!/bin/sh
		echo "IS_SANDBOX=${IS_SANDBOX-unset} ran"
		echo "ESCALATED: only reporting"
	SH
	chmod +x "$T/tell.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-YAML
	sandbox_fallback: warn-run
	agents:
	  claude:
	    command: [$T/tell.sh, --dangerously-skip-permissions]
	    prompt_via: stdin
	    sandbox: fs-only
	YAML
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	before=$(origin_sha feat/a)
	AGENTIC_GIT_SANDBOX_UNAVAILABLE=bwrap,landlock run dispatch --profile claude --repo "$REPO" --head feat/a --base main --task resolve-conflicts
	[ "$status" -eq 4 ]
	if [ "$(id -u)" -ne 0 ]; then
		# claude takes the flag from a normal user: it runs, untold
		grep -qx "IS_SANDBOX=unset ran" "$(run_dir)/repo-feat-a.stdout.log"
		return
	fi
	assert_output --partial "target 'repo-feat-a': profile 'claude' (sandbox_fallback: warn-run): agent 'claude' cannot run as root outside a sandbox"
	[ "$(meta repo-feat-a status)" = sandbox-refused ]
	[ ! -e "$(run_dir)/repo-feat-a.stdout.log" ]
	[ ! -e "$(run_dir)/work/repo-feat-a" ]
	[ -z "$(ls -A "$AGENTIC_GIT_HOME/runtime")" ]
	[ "$(origin_sha feat/a)" = "$before" ]
}

# session_case BACKEND: the same lock in a sandboxed session's workspace
session_case() {
	sbx_prereq "$1"
	cat >"$T/sess.sh" <<-'SH'
		#!/bin/sh
		echo x >x.txt
		git add x.txt && git commit -q -m "session work" && echo "COMMIT:ok"
		real=${AGENTIC_GIT_REAL_GIT:-/usr/bin/git}
		env -u AGENTIC_GIT_AGENT -u AGENTIC_GIT_HOME "$real" update-ref refs/heads/main HEAD 2>&1 || echo "REFUSED:main"
	SH
	chmod +x "$T/sess.sh"
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-YAML
	sandbox_backend: $1
	agents:
	  sess:
	    command: [$T/sess.sh, "{prompt}"]
	    env: []
	    sandbox: fs-only
	YAML
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	cd "$REPO"
	run "$AG_BIN" run --agent s1 --branch feat/s --profile sess --prompt go
	assert_success
	assert_output --partial "COMMIT:ok"
	assert_output --partial "ref update refused for agent 's1': 'main' is a protected branch"
	assert_output --partial "REFUSED:main"
	[ "$("$REAL_GIT" -C "$REPO" log -1 --format='%(trailers:key=Agentic-Agent,valueonly,separator=)' feat/s)" = s1 ]
}

@test "t0713.8 bwrap: a sandboxed session's commits and lock, likewise" {
	session_case bwrap
}

@test "t0713.9 landlock: a sandboxed session's commits and lock, likewise" {
	session_case landlock
}

@test "t0713.10 hooks that cannot be installed stop the run before anything is created" {
	mkdir -p "$AGENTIC_GIT_HOME"
	echo "not a directory" >"$AGENTIC_GIT_HOME/hooks"
	before=$(origin_sha feat/a)
	run dispatch --repo "$REPO" --head feat/a --base main --task resolve-conflicts -- "$AGENTS/attrib.sh"
	[ "$status" -eq 1 ]
	assert_output "agentic-git: cannot write hooks in '$(realpath "$AGENTIC_GIT_HOME")/hooks': Not a directory"
	[ ! -e "$AGENTIC_GIT_HOME/runs" ]
	[ -z "$(ls -A "$AGENTIC_GIT_HOME/runtime" 2>/dev/null)" ]
	[ "$(origin_sha feat/a)" = "$before" ]
}

@test "t0713.11 a commit in a session's worktree names that session, whatever the environment says" {
	cd "$REPO"
	"$AG_BIN" run --agent ag2 --branch feat/b2 -- true 2>/dev/null
	"$AG_BIN" run --agent ag1 --branch feat/b1 -- true 2>/dev/null
	cd "$AGENTIC_GIT_HOME/worktrees/ag1/feat/b1"
	echo x >x.txt
	"$REAL_GIT" add x.txt
	AGENTIC_GIT_AGENT=ag2 "$REAL_GIT" commit -q -m x
	[ "$("$REAL_GIT" log -1 --format='%(trailers:key=Agentic-Agent,valueonly,separator=)')" = ag1 ]
	events | jq -e -s 'map(select(.event == "ref_update" and .ref == "refs/heads/feat/b1" and .agent == "ag1")) | length >= 1'
	events | jq -e -s 'map(select(.event == "ref_update" and .ref == "refs/heads/feat/b1" and .agent == "ag2")) | length == 0'
}
