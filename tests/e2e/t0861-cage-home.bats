#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 32, W3 and W11: AGENTIC_GIT_HOME below a directory the cage may
# read (here a profile's ro_binds entry). Landlock grants whole trees and
# cannot hide the home: the launch is refused before anything runs,
# naming the path and the ways out, and `sandbox probe` says so.
# bubblewrap masks the home with an empty tmpfs and binds the session's
# own parts on top: the fleet key and other sessions' bindings are not
# there, the session works (fleet/sandbox-home.h; threat-model T86, T87).
load lib
load sandbox_cases

setup() {
	ag_setup
	# the home inside a toolchain dir every profile binds
	export AGENTIC_GIT_HOME=$T/tools/aghome
	mkdir -p "$AGENTIC_GIT_HOME/bin" "$AGENTIC_GIT_HOME/runtime" "$T/bin"
	ln -sf "$AG_SHIM" "$AGENTIC_GIT_HOME/bin/git"
	"$TEST_TOOL" key "$AGENTIC_GIT_HOME"
	echo "tool" >"$T/tools/README"
	KEYSUM=$(sha256sum <"$AGENTIC_GIT_HOME/.config-integrity-key" | cut -d' ' -f1)
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	# $2: the task, $3: agentic-git's home
	echo RAN
	echo "TOOLS:$(cat "$(dirname "$3")/README")"
	# (not `test -r`: access() knows nothing of Landlock)
	if k=$(sha256sum <"$3/.config-integrity-key" 2>/dev/null); then
		echo "KEY:${k%% *}"
	else
		echo "KEY:none"
	fi
	echo "RUNTIME:$(ls "$3/runtime" 2>/dev/null | tr '\n' ' ')"
	echo "EVENTS:$(cat "$3/fleet_events.jsonl" 2>/dev/null | wc -c)"
	echo work >work.txt && git add work.txt && git commit -q -m work && echo COMMIT:ok
	EOS
	chmod +x "$T/bin/agent.sh"
	cd "$REPO"
}

# config BACKEND POLICY [RO_BIND]: the scripted profile binding RO_BIND
# (default: the dir holding the home)
config() {
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: $1
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "--task", "{prompt}", "$AGENTIC_GIT_HOME"]
	    env: []
	    ro_binds: ["${3:-$T/tools}"]
	    sandbox: $2
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

state() {
	"$REAL_GIT" -C "$REPO" for-each-ref
	"$REAL_GIT" -C "$REPO" worktree list --porcelain
	find "$AGENTIC_GIT_HOME" -path "$AGENTIC_GIT_HOME/fleet_events.jsonl" -prune -o -print | sort
}

@test "landlock: a home below a directory the cage reads is refused before anything runs" {
	local before
	sbx_prereq landlock
	config landlock fs-only
	before=$(state)
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
	assert_failure
	refute_output --partial RAN
	refute_output --partial "$KEYSUM"
	assert_output --partial "agentic-git's home would be readable inside the landlock cage at '$AGENTIC_GIT_HOME'"
	assert_output --partial "move AGENTIC_GIT_HOME out of every directory the cage reads"
	assert_output --partial "use bubblewrap (sandbox_backend: bwrap)"
	assert_output --partial "nothing was created"
	refute_output --partial "sandbox_fallback: warn-run"
	assert_equal "$(state)" "$before"
	# warn-run does not turn it into an unsandboxed run either
	printf 'sandbox_fallback: warn-run\n' >>"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
	assert_failure
	refute_output --partial RAN
	assert_equal "$(state)" "$before"
	# control: with the home elsewhere the same profile runs
	config landlock fs-only "$T/bin"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
	assert_success
	assert_output --partial RAN
	assert_output --partial "KEY:none"
}

@test "landlock: a link to the home's parent is seen through" {
	sbx_prereq landlock
	ln -s "$T/tools" "$T/tools-link"
	config landlock fs-only "$T/tools-link"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
	assert_failure
	refute_output --partial RAN
	assert_output --partial "inside the landlock cage at '$T/tools-link/aghome'"
}

@test "sandbox probe reports a home a cage would read" {
	config bwrap fs+no-net
	run "$AG_BIN" sandbox probe
	assert_success
	assert_output --partial "home:      $AGENTIC_GIT_HOME lies in '$T/tools', which a cage reads: landlock launches are refused"
	run "$AG_BIN" sandbox probe --json
	assert_success
	assert_equal "$(jq -c .home <<<"$output")" \
		"{\"path\":\"$AGENTIC_GIT_HOME\",\"shown_by\":[\"$T/tools\"],\"landlock\":\"refused\"}"
	config bwrap fs+no-net "$T/bin"
	run "$AG_BIN" sandbox probe --json
	assert_equal "$(jq -c .home.shown_by <<<"$output")" "[]"
	assert_equal "$(jq -r .home.landlock <<<"$output")" hidden
	# a configured cache_dir is a directory the cage reads too
	printf '    cache_dir: "%s"\n' "$T/tools" >>"$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" sandbox probe --json
	assert_equal "$(jq -c .home.shown_by <<<"$output")" "[\"$T/tools\"]"
}

@test "bwrap: the home below a bound directory is masked; the session's own parts work" {
	sbx_prereq bwrap
	config bwrap fs+no-net
	# another session whose binding the cage must not see
	run "$AG_BIN" run --agent b2 --branch feat/b -- true
	assert_success
	[ -d "$AGENTIC_GIT_HOME/runtime/b2" ]
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
	assert_success
	assert_output --partial RAN
	assert_output --partial "TOOLS:tool" # the bind itself is there
	assert_output --partial "KEY:none"
	refute_output --partial "$KEYSUM"
	assert_output --partial "RUNTIME:a1 "
	refute_output --partial b2
	assert_output --partial "EVENTS:0"
	assert_output --partial "COMMIT:ok" # the shim verified a1's binding
	assert_equal "$("$REAL_GIT" -C "$REPO" log -1 --format=%s feat/x)" work
}

@test "a ro_binds entry inside the home is refused on both backends" {
	local b before
	for b in bwrap landlock; do
		sbx_prereq "$b"
		config "$b" fs-only "$AGENTIC_GIT_HOME/runtime"
		before=$(state)
		run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
		assert_failure
		refute_output --partial RAN
		assert_output --partial "ro_binds entry '$AGENTIC_GIT_HOME/runtime' lies in agentic-git's home"
		assert_equal "$(state)" "$before"
	done
}
