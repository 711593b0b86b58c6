#!/usr/bin/env bats
# Enforcement where git decides (issue 18; PRODUCT.md §4): the session's
# reference-transaction hook refuses, in the `prepared` state, what an
# agent may not move — whichever command caused it, the shim passed over
# entirely (real git called directly), the agent variables unset.
load lib

setup() {
	ag_setup
	unset AGENTIC_GIT_HOME AGENTIC_GIT_REAL_GIT
	export AGENTIC_GIT_HOME=$T/aghome
	"$REAL_GIT" -C "$REPO" branch other
	"$REAL_GIT" -C "$REPO" tag v1
	cd "$REPO"
	# another agent's session, then ag1's
	"$AG_BIN" run --agent ag2 --branch feat/b -- true 2>/dev/null
	"$AG_BIN" run --agent ag1 --branch feat/a -- true 2>/dev/null
	WT=$AGENTIC_GIT_HOME/worktrees/ag1/feat/a
	cd "$WT"
	REFS=$(refs_now)
}

refs_now() { "$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname) %(objectname)'; }

# hostile GIT...: real git in the agent's worktree, no shim, no agent vars
hostile() {
	run env -u AGENTIC_GIT_AGENT -u AGENTIC_GIT_HOME "$REAL_GIT" "$@"
}

refused() {
	assert_failure
	assert_output --partial "agentic-git: ref update refused for agent 'ag1'"
	assert_equal "$(refs_now)" "$REFS"
}

@test "protected, other agents' and per-worktree refs are refused by every road" {
	# the agent's HEAD moves past main and the tag (updates to the value a
	# ref already has move nothing, and pass)
	"$REAL_GIT" commit -q --allow-empty -m "ag1's own"
	REFS=$(refs_now)
	hostile update-ref refs/heads/main HEAD
	refused
	assert_output --partial "'main' is a protected branch"
	# from a subdirectory of the worktree, too
	(cd src && env -u AGENTIC_GIT_AGENT -u AGENTIC_GIT_HOME "$REAL_GIT" update-ref refs/heads/main HEAD) && false
	assert_equal "$(refs_now)" "$REFS"
	hostile fetch -q . feat/a:refs/heads/master
	refused
	hostile update-ref refs/heads/feat/b HEAD
	refused
	assert_output --partial "'feat/b' is another agent's branch"
	printf 'reset refs/heads/main\nfrom %s\n\n' "$("$REAL_GIT" rev-parse HEAD)" >"$T/fi"
	hostile fast-import --quiet <"$T/fi"
	assert_failure
	assert_equal "$(refs_now)" "$REFS"
	hostile update-ref main-worktree/HEAD HEAD
	refused
	assert_output --partial "belongs to another checkout"
	hostile tag -f v1 HEAD
	refused
	hostile update-ref -d refs/tags/v1
	refused
	hostile update-ref refs/replace/"$("$REAL_GIT" rev-parse HEAD)" HEAD
	refused
}

@test "the snapshot namespace only grows: no move, no delete, not another agent's" {
	echo work >>README.md
	PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT=ag1 git reset -q --hard
	local snap
	snap=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/)
	[ -n "$snap" ]
	REFS=$(refs_now)
	hostile update-ref -d "$snap"
	refused
	assert_output --partial "snapshot namespace"
	hostile update-ref "$snap" HEAD
	refused
	hostile fetch -q --prune . 'refs/nothing/*:refs/agentic-git/*'
	refused
	hostile update-ref refs/agentic-git/snapshots/ag2/20990101T000000Z-0-forged HEAD
	refused
	# a new snapshot of its own is still taken (the safety net grows)
	echo more >>README.md
	PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT=ag1 git reset -q --hard
	[ "$("$REAL_GIT" for-each-ref refs/agentic-git/snapshots/ag1/ | wc -l)" -eq 2 ]
}

@test "git's housekeeping passes: gc and pack-refs keep every value; a packed protected ref still cannot be deleted" {
	echo work >>README.md
	PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT=ag1 git reset -q --hard
	local snap
	snap=$("$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag1/)
	REFS=$(refs_now)
	# loose snapshot and protected refs are packed, then pruned
	run env PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT=ag1 git gc -q
	assert_success
	assert_equal "$(refs_now)" "$REFS"
	local common
	common=$("$REAL_GIT" rev-parse --git-common-dir)
	[ ! -e "$common/$snap" ]
	grep -q " $snap\$" "$common/packed-refs"
	grep -q " refs/heads/main\$" "$common/packed-refs"
	hostile pack-refs --all
	assert_success
	assert_equal "$(refs_now)" "$REFS"
	# packed, they are as locked as loose ones
	hostile update-ref -d "$snap"
	refused
	assert_output --partial "snapshot namespace"
	hostile update-ref -d refs/heads/main
	refused
	hostile update-ref "$snap" HEAD~0^{tree}
	assert_failure
	hostile tag -d v1
	refused
	# a loose value newer than the packed one: deleting it would move it
	"$REAL_GIT" -C "$REPO" commit -q --allow-empty -m "operator's commit"
	REFS=$(refs_now)
	hostile update-ref -d refs/heads/main
	refused
	# and a value-keeping update is no move
	hostile update-ref "$snap" "$("$REAL_GIT" rev-parse "$snap")"
	assert_success
	assert_equal "$(refs_now)" "$REFS"
}

@test "the agent's own work is never in the way" {
	echo x >x.txt
	hostile add x.txt
	hostile commit -q -m "own work"
	assert_success
	hostile branch scratch
	assert_success
	hostile tag v2
	assert_success
	hostile fetch -q origin
	assert_success
	hostile stash list
	assert_success
	echo y >>x.txt
	hostile stash -q
	assert_success
	hostile stash pop -q
	assert_success
	# an operator-allowed bypass passes the lock too
	cd "$REPO"
	"$AG_BIN" run --allow-bypass --agent ag1 --branch feat/a -- true 2>/dev/null
	cd "$WT"
	AGENTIC_GIT_BYPASS=1 run "$REAL_GIT" update-ref refs/heads/other HEAD
	assert_success
	# a denied one does not
	cd "$REPO"
	"$AG_BIN" run --agent ag1 --branch feat/a -- true 2>/dev/null
	cd "$WT"
	AGENTIC_GIT_BYPASS=1 run "$REAL_GIT" update-ref refs/heads/main HEAD
	assert_failure
	assert_output --partial "protected branch"
}

@test "outside an agent's worktree the hooks refuse nothing" {
	cd "$REPO"
	run "$REAL_GIT" update-ref refs/heads/other HEAD~0
	assert_success
	# and the journal still records a session's committed ref moves
	cd "$WT"
	echo z >z.txt
	AGENTIC_GIT_AGENT=ag1 PATH="$AGENTIC_GIT_HOME/bin:$PATH" git add z.txt
	AGENTIC_GIT_AGENT=ag1 PATH="$AGENTIC_GIT_HOME/bin:$PATH" git commit -qm z
	events | jq -e -s 'map(select(.event == "ref_update" and .ref == "refs/heads/feat/a")) | length >= 1'
}

@test "hooks turned off in a tool shell's environment stay on: the entry is dropped, the rest kept" {
	# what Gemini CLI 0.61.0 puts in every tool command's environment
	# (docs/configuration.md): the repository's hooks off, empty programs
	local -a gemini=(AGENTIC_GIT_AGENT=ag1 GIT_CONFIG_COUNT=9 GIT_CONFIG_GLOBAL=/dev/null
		GIT_CONFIG_KEY_0=credential.helper GIT_CONFIG_VALUE_0=
		GIT_CONFIG_KEY_1=core.fsmonitor GIT_CONFIG_VALUE_1=
		GIT_CONFIG_KEY_2=core.hooksPath GIT_CONFIG_VALUE_2=
		GIT_CONFIG_KEY_3=core.sshCommand GIT_CONFIG_VALUE_3=
		GIT_CONFIG_KEY_4=core.pager GIT_CONFIG_VALUE_4=cat
		GIT_CONFIG_KEY_5=core.editor GIT_CONFIG_VALUE_5=
		GIT_CONFIG_KEY_6=sequence.editor GIT_CONFIG_VALUE_6=
		GIT_CONFIG_KEY_7=diff.external GIT_CONFIG_VALUE_7=
		GIT_CONFIG_KEY_8=user.name GIT_CONFIG_VALUE_8=From-The-Env)
	echo gem >gem.txt
	env "${gemini[@]}" PATH="$AGENTIC_GIT_HOME/bin:$PATH" git add gem.txt
	run env -u GIT_AUTHOR_NAME "${gemini[@]}" PATH="$AGENTIC_GIT_HOME/bin:$PATH" git commit -qm "gemini's commit"
	assert_success
	# the session's hooks ran: the commit is attributed, the move journaled
	run "$REAL_GIT" -C "$WT" log -1 --format=%B
	assert_output --partial "Agentic-Agent: ag1"
	local tip
	tip=$("$REAL_GIT" -C "$WT" rev-parse HEAD)
	events | jq -se --arg tip "$tip" 'map(select(.event == "ref_update" and .new == $tip)) | length > 0'
	# the entries after the dropped one were renumbered, not lost
	[ "$("$REAL_GIT" -C "$WT" log -1 --format=%an)" = From-The-Env ]
	# and the hook lock still holds against what the agent may not do
	run env "${gemini[@]}" PATH="$AGENTIC_GIT_HOME/bin:$PATH" git update-ref refs/heads/main HEAD
	assert_failure
	[ "$("$REAL_GIT" -C "$REPO" rev-parse main)" != "$("$REAL_GIT" -C "$WT" rev-parse HEAD)" ]
	# a hooks path that is not "off" is judged, not dropped
	run env AGENTIC_GIT_AGENT=ag1 GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0="$T" \
		PATH="$AGENTIC_GIT_HOME/bin:$PATH" git commit --allow-empty -qm x
	assert_failure
	assert_output --partial "GIT_CONFIG_KEY_0 'core.hookspath'"
}
