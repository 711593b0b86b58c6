#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A full disk under AGENTIC_GIT_HOME (issue 34 point 3): an audit record
# that cannot be written is said on stderr and counted in
# fleet_events.lost; the next record written is preceded by an
# `events_lost` event with the count; a short write is cut back, so the
# journal keeps whole JSON lines.
load lib
bats_require_minimum_version 1.5.0

setup() {
	ag_setup
	prereq tmpfs-mount unshare -m --propagation private \
		sh -c "mount -t tmpfs -o size=64k tmpfs '$T'"
	# the worktree outside the home: only the home fills up
	WT=$T/wt/ag1
	mkdir -p "$T/wt"
	"$REAL_GIT" -C "$REPO" worktree add -q -b feat/one "$WT" main
	printf 'agent=ag1\nleased_at=now\n' >"$WT/.agend-managed"
	echo ".agend-managed" >>"$REPO/.git/info/exclude"
	ag_write_binding ag1 feat/one "$WT"
	export WT AGENTIC_GIT_AGENT=ag1
	FULL=$T/fullhome
	mkdir -p "$FULL"
}

@test "t0804: records lost on a full home are said, counted, and recorded by the next one; no torn line" {
	cd "$WT"
	run unshare -m --propagation private bash -c "
		mount -t tmpfs -o size=512k,mode=0700 tmpfs '$FULL' || exit 1
		cp -a '$AGENTIC_GIT_HOME/.' '$FULL/'
		export AGENTIC_GIT_HOME='$FULL' PATH='$FULL/bin':\$PATH
		log='$FULL/fleet_events.jsonl'
		# one record written while there is space (the count's file is made)
		git checkout main >/dev/null 2>&1
		[ -f '$FULL/fleet_events.lost' ] && echo counter-made
		# pad the log so its last page has 10 bytes left: the next record
		# is written in part, then the disk is full
		size=\$(stat -c %s \"\$log\")
		pad=\$(( (4086 - size % 4096 + 4096) % 4096 ))
		[ \$pad -ge 30 ] || pad=\$((pad + 4096))
		printf '{\"event\":\"pad\",\"x\":\"%s\"}\n' \"\$(printf \"%\$((pad - 23))s\" '' | tr ' ' a)\" >>\"\$log\"
		echo pad-mod=\$(( \$(stat -c %s \"\$log\") % 4096 ))
		dd if=/dev/zero of='$FULL/filler' bs=4k 2>/dev/null
		lines=\$(wc -l <\"\$log\")
		for i in 1 2 3; do git checkout main 2>&1 | grep 'audit record'; done
		[ \$(wc -l <\"\$log\") -eq \$lines ] && echo no-line-added
		tail -c1 \"\$log\" | od -An -c | tr -d ' '
		echo counted=\$(cat '$FULL/fleet_events.lost')
		rm '$FULL/filler'
		git checkout main >/dev/null 2>&1
		jq -c 'select(.event == \"events_lost\" or .event == \"deny\") | [.event, .lost]' \"\$log\" | tail -2
		echo counted-after=\$(cat '$FULL/fleet_events.lost')
		jq -e -c 'select(type == \"object\" and (.event | type) == \"string\")' \"\$log\" | wc -l >'$T/parsed'
		wc -l <\"\$log\" >'$T/lines'"
	echo "$output"
	assert_success
	assert_output --partial "counter-made"
	assert_output --partial "pad-mod=4086"
	# each lost record is said, with the running count
	assert_output --partial "an audit record could not be written to $FULL/fleet_events.jsonl (No space left on device); 1 lost so far, counted in $FULL/fleet_events.lost"
	assert_output --partial "3 lost so far"
	# the short write was cut back: no part of a line stays
	assert_output --partial "no-line-added"
	assert_output --partial '\n'
	assert_output --partial "counted=0000000000000000003"
	# the next record says how many were lost before it
	assert_output --partial '["events_lost",3]'
	assert_output --partial '["deny",null]'
	assert_output --partial "counted-after=0000000000000000000"
	[ "$(cat "$T/parsed")" -eq "$(cat "$T/lines")" ]
}
