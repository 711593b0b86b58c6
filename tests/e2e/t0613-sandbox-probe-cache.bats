#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The bwrap probe's cache (agents/sandbox-probe-cache.h): a sandboxed start
# trusts a remembered "works" only under this host's exact key; a host
# where bwrap cannot start still gets the real refusal or downgrade, and a
# forged or stale "works" makes the start fail: nothing runs unsandboxed,
# nothing hangs. `sandbox probe` always runs the test for real.
bats_require_minimum_version 1.5.0
load lib
load sandbox_cases

CACHE_REL=runtime/sandbox-probe

setup() {
	sbx_setup
	echo "notes-outside" >"$HOME/notes.txt"
	CACHE=$AGENTIC_GIT_HOME/$CACHE_REL
}

# no_bwrap_host SCRIPT: runs the bash SCRIPT in a user namespace whose
# max_user_namespaces is 0, without capabilities: bwrap cannot start there.
# $AG, $WS, $CACHE are set in it; `agx ARGS…` runs agentic-git there.
no_bwrap_host() {
	AG=$AG_BIN CACHE=$CACHE unshare -Ur bash -c '
		echo 0 >/proc/sys/user/max_user_namespaces || exit 99
		agx() { setpriv --bounding-set=-all --inh-caps=-all \
			--ambient-caps=-all "$AG" "$@"; }
		'"$1"
}

no_bwrap_prereq() {
	sbx_prereq bwrap
	command -v unshare >/dev/null && command -v setpriv >/dev/null ||
		skip "unshare or setpriv missing"
	run no_bwrap_host 'agx sandbox probe --json'
	[ "$status" -eq 0 ] || skip "cannot make a host without user namespaces"
	echo "$output" | jq -e '.bwrap.works == false' >/dev/null ||
		skip "bwrap still starts without user namespaces"
	rm -f "$CACHE"
}

@test "probe cache: a sandboxed start records that bwrap works, 0600" {
	sbx_prereq bwrap
	rm -f "$CACHE"
	run "$AG_BIN" sandbox run --backend bwrap --workspace "$WS" -- /bin/true
	assert_success
	run head -2 "$CACHE"
	assert_output "$(printf 'agentic-git sandbox probe v1\nbwrap works')"
	[ "$(stat -c %a "$CACHE")" = 600 ]
	run "$AG_BIN" sandbox run --backend bwrap --workspace "$WS" -- /bin/echo ran
	assert_success
	assert_output "ran"
}

@test "probe cache: a works recorded under another key is not trusted" {
	no_bwrap_prereq
	# recorded on this host, where bwrap starts: another namespace, another key
	"$AG_BIN" sandbox run --backend bwrap --workspace "$WS" -- /bin/true
	grep -qx 'bwrap works' "$CACHE"
	run no_bwrap_host 'cd "$WS"
		agx sandbox run --backend bwrap -- /bin/sh -c "echo ran"; echo "rc=$?"
		agx sandbox run --backend bwrap --fallback warn-run --agent a1 -- \
			/bin/sh -c "cat \"\$HOME/notes.txt\""; echo "rc=$?"
		sed -n 2p "$CACHE"'
	assert_line "rc=1"
	assert_output --partial "sandbox 'fs+no-net' cannot be provided on this host (backend bwrap): bubblewrap is unavailable (bwrap test run exited 1"
	refute_line "ran"
	# warn-run downgrades exactly as without a cache
	assert_line "rc=3"
	assert_output --partial "notes-outside"
	assert_output --partial "agent 'a1' ran UNSANDBOXED"
	assert_line "bwrap fails"
	run events
	echo "$output" | jq -e 'select(.event == "sandbox_downgraded") |
		.agent == "a1" and .fallback == "warn-run"'
}

@test "probe cache: a forged works under the right key runs nothing unsandboxed" {
	no_bwrap_prereq
	run no_bwrap_host 'cd "$WS"
		agx sandbox probe >/dev/null
		sed -i "s/^bwrap fails\$/bwrap works/" "$CACHE"
		for p in fs-only fs+no-net fs+api; do
			for fb in refuse warn-run; do
				timeout 60 setpriv --bounding-set=-all --inh-caps=-all \
					--ambient-caps=-all "$AG" sandbox run --policy "$p" \
					--backend bwrap --fallback "$fb" -- \
					/bin/sh -c "cat \"\$HOME/notes.txt\"; echo ran"
				echo "$p $fb rc=$?"
			done
		done
		agx sandbox probe --json | jq -c .bwrap.works
		sed -n 2p "$CACHE"'
	refute_output --partial "notes-outside"
	refute_line "ran"
	refute_output --partial "UNSANDBOXED"
	refute_output --regexp "rc=(0|3|124)$"
	# the forged answer was used: bwrap itself failed, no planner refusal
	assert_output --partial "Creating new namespace failed"
	refute_output --partial "cannot be provided on this host"
	# the probe reports the truth and takes the forged answer back
	assert_line "false"
	assert_line "bwrap fails"
	[ -z "$(events | jq -r 'select(.event == "sandbox_downgraded") | .event')" ]
}

@test "probe cache: a works others may write, or a damaged file, is not trusted" {
	no_bwrap_prereq
	run no_bwrap_host 'cd "$WS"
		agx sandbox probe >/dev/null
		sed -i "s/^bwrap fails\$/bwrap works/" "$CACHE"
		chmod 0622 "$CACHE"
		agx sandbox run --backend bwrap -- /bin/echo ran; echo "rc=$?"
		agx sandbox probe >/dev/null
		sed -i -e "s/^bwrap fails\$/bwrap works/" -e "\$d" "$CACHE"
		agx sandbox run --backend bwrap -- /bin/echo ran; echo "rc=$?"
		rm -f "$CACHE"; mkdir "$CACHE"
		agx sandbox run --backend bwrap -- /bin/echo ran; echo "rc=$?"'
	refute_line "ran"
	assert_equal "$(grep -c '^rc=1$' <<<"$output")" 3
	assert_equal "$(grep -c 'bubblewrap is unavailable (bwrap test run exited 1' <<<"$output")" 3
}
