#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Issue 32, W2: a Landlock cage replaces <cache>/home and <cache>/tmp (its
# private HOME and TMPDIR, which it may write) with symbolic links to the
# operator's HOME and to AGENTIC_GIT_HOME. The next launch must never
# build its rules through them: it refuses, naming the link, and nothing
# runs (fleet/sandbox-build.h invariant 6; threat-model T85).
load lib
load sandbox_cases

setup() {
	ag_setup
	mkdir -p "$T/bin" "$HOME/.ssh"
	echo "operator-ssh-key-w2" >"$HOME/.ssh/id_rsa"
	cat >"$T/bin/agent.sh" <<-'EOS'
	#!/bin/sh
	# $2: the task; $3, $4: where the links point
	case $2 in
	plant)
		cache=$(dirname "$HOME")
		rm -rf "$cache/home" "$cache/tmp"
		ln -s "$3" "$cache/home" && ln -s "$4" "$cache/tmp" && echo PLANTED
		;;
	steal)
		echo RAN
		cat "$HOME/.ssh/id_rsa" "$TMPDIR/.config-integrity-key" 2>/dev/null | od -c | head -3
		echo stolen >"$HOME/written-by-cage"
		;;
	esac
	EOS
	chmod +x "$T/bin/agent.sh"
	cd "$REPO"
}

use_landlock() {
	sbx_prereq landlock
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: landlock
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "--task", "{prompt}", "$HOME", "$AGENTIC_GIT_HOME"]
	    env: []
	    sandbox: fs-only
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

@test "landlock: links planted in the cache's home/ and tmp/ are refused at the next launch" {
	local cache=$AGENTIC_GIT_HOME/cache/a1 key
	use_landlock
	key=$(od -c <"$AGENTIC_GIT_HOME/.config-integrity-key" | head -1)
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt plant
	assert_success
	assert_output --partial PLANTED
	[ -L "$cache/home" ] && [ -L "$cache/tmp" ]
	# the next session of that agent: refused before the agent runs
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
	assert_failure
	refute_output --partial RAN
	refute_output --partial operator-ssh-key-w2
	refute_output --partial "$key"
	# named: as a planted link, or (the same launch's earlier check) as
	# a place that would show agentic-git's home (t0861)
	assert_output --partial "'$cache/tmp'"
	[ ! -e "$HOME/written-by-cage" ]
	[ ! -e "$AGENTIC_GIT_HOME/written-by-cage" ]
	# the links are left for the operator to look at, their targets alone
	[ -L "$cache/home" ] && [ -L "$cache/tmp" ]
	# the way out the message names works
	rm "$cache/home" "$cache/tmp"
	run "$AG_BIN" run --agent a1 --branch feat/x --profile scripted --prompt steal
	assert_success
	assert_output --partial RAN
	refute_output --partial operator-ssh-key-w2
	[ ! -e "$HOME/written-by-cage" ]
	[ -f "$cache/home/written-by-cage" ] && [ ! -L "$cache/home" ]
}

@test "landlock: sandbox run --cache refuses a planted link in the cache's home/" {
	sbx_prereq landlock
	mkdir -p "$T/ws" "$T/cache"
	ln -s "$HOME" "$T/cache/home"
	run "$AG_BIN" sandbox run --backend landlock --policy fs-only \
		--workspace "$T/ws" --cache "$T/cache" -- /bin/sh -c 'echo RAN; cat "$HOME/.ssh/id_rsa"'
	assert_failure
	refute_output --partial RAN
	refute_output --partial operator-ssh-key-w2
	assert_output --partial "'$T/cache/home' is a symbolic link"
	# a file planted there is refused alike
	rm "$T/cache/home"
	echo x >"$T/cache/home"
	run "$AG_BIN" sandbox run --backend landlock --policy fs-only \
		--workspace "$T/ws" --cache "$T/cache" -- /bin/sh -c 'echo RAN'
	assert_failure
	refute_output --partial RAN
	assert_output --partial "not a directory"
	# control: a real directory is used as before
	rm "$T/cache/home"
	run "$AG_BIN" sandbox run --backend landlock --policy fs-only \
		--workspace "$T/ws" --cache "$T/cache" -- /bin/sh -c 'echo RAN >"$HOME/x"; echo RAN'
	assert_success
	assert_output --partial RAN
	[ -f "$T/cache/home/x" ]
}
