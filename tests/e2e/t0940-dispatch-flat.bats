#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# Dispatch flat per target (issue 37 point 5): a target leaves nothing
# behind that the next target's git commands pay for. Each target's push
# repository is its own and is gone when the target is done (a shared one
# gained a pack per target, read by every later import, check and push).
load lib
load dispatch

setup() {
	ag_setup
	dsp_setup
	# the agent records which push repositories exist while it runs
	cat >"$T/look.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	ls -d "$AGENTIC_GIT_HOME/runs/$AGENTIC_GIT_RUN_ID"/push*.git >>"$T_SEEN" 2>/dev/null
	"$REAL_GIT" commit -q --allow-empty -m "noop $AGENTIC_GIT_TARGET_KEY" && echo "RESOLVED: noop"
	SH
	chmod +x "$T/look.sh"
	echo "do nothing" >"$T/prompt.md"
}

@test "t0940.1 no push repository outlives its target: the next target's agent sees none, and the run leaves none" {
	for b in b1 b2 b3; do "$REAL_GIT" -C "$REPO" push -q origin "main:$b"; done
	cat >"$T/t.yaml" <<-EOF2
	targets:
	  - {repo: $REPO, head: b1, base: main, key: k1}
	  - {repo: $REPO, head: b2, base: main, key: k2}
	  - {repo: $REPO, head: b3, base: main, key: k3}
	EOF2
	: >"$T/seen"
	T_SEEN=$T/seen run dispatch -j 1 --targets "$T/t.yaml" --prompt-file "$T/prompt.md" -- "$T/look.sh"
	assert_success
	for k in 1 2 3; do
		[ "$("$REAL_GIT" --git-dir="$ORIGIN" log -1 --format=%s "b$k")" = "noop k$k" ]
	done
	# before: <run>/push.git, with one more pack per target done
	[ ! -s "$T/seen" ] || { cat "$T/seen"; false; }
	! ls -d "$(run_dir)"/push*.git 2>/dev/null
}

@test "t0940.2 a blocked target's push repository is removed too, and nothing is pushed" {
	"$REAL_GIT" -C "$REPO" push -q origin main:b1
	before=$("$REAL_GIT" --git-dir="$ORIGIN" rev-parse b1)
	cat >"$T/bad.sh" <<-'SH'
	#!/bin/sh
	cat >/dev/null
	printf 'x\n' >fleet.yaml
	"$REAL_GIT" add fleet.yaml && "$REAL_GIT" commit -q -m trust && echo "RESOLVED: done"
	SH
	chmod +x "$T/bad.sh"
	run dispatch -j 1 --repo "$REPO" --head b1 --base main --prompt-file "$T/prompt.md" -- "$T/bad.sh"
	[ "$status" -eq 4 ]
	assert_output --partial "blocked"
	[ "$("$REAL_GIT" --git-dir="$ORIGIN" rev-parse b1)" = "$before" ]
	grep -q "no_trust_root_files" "$(run_dir)"/*.meta.yaml
	! ls -d "$(run_dir)"/push*.git 2>/dev/null
}
