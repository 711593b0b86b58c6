# SPDX-License-Identifier: Apache-2.0
# Escape attempts and positive checks shared by t0610 (bwrap) and t0611
# (Landlock). Each case_* function takes a policy and runs the real
# sandbox through `agentic-git sandbox run --backend $BACKEND`; every deny
# has a control showing the same thing works outside the sandbox (or with
# the other policy), so a test cannot pass because the probe is broken.

SBX_HELPER="$AG_BUILD/tests/helper/sbx-helper"
SBX_HELPER_DIR="$AG_BUILD/tests/helper"

# sbx_prereq BACKEND: skip unless the host can run that backend.
sbx_prereq() {
	case $1 in
	bwrap) prereq bwrap sbx_probe_has '.bwrap.works' ;;
	landlock) prereq landlock sbx_probe_has '.landlock.abi >= 1 and .seccomp' ;;
	esac
}

# sbx_scripted_config BACKEND: skip unless the host runs BACKEND, and write
# a config whose profile `scripted` runs $T/bin/agent.sh caged by it
# (fs+no-net for bwrap, fs-only for Landlock).
sbx_scripted_config() {
	sbx_prereq "$1"
	local policy=fs+no-net
	[ "$1" = landlock ] && policy=fs-only
	cat >"$AGENTIC_GIT_HOME/config.yaml" <<-EOF
	sandbox_backend: $1
	agents:
	  scripted:
	    command: ["$T/bin/agent.sh", "--task", "{prompt}"]
	    env: []
	    sandbox: $policy
	EOF
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
}

sbx_probe_has() {
	"$AG_BIN" sandbox probe --json | jq -e "$1"
}

# sbx_setup: the scratch world (lib.bash) plus secrets in HOME, a plain
# workspace and another agent's workspace.
sbx_setup() {
	ag_setup
	mkdir -p "$HOME/.ssh" "$T/ws" "$T/other-ws" "$T/cache"
	echo "-----BEGIN OPENSSH PRIVATE KEY----- sbx-test-key" >"$HOME/.ssh/id_rsa"
	chmod 600 "$HOME/.ssh/id_rsa"
	echo "home-notes-secret" >"$HOME/notes.txt"
	echo "other-agent-secret" >"$T/other-ws/work.txt"
	WS=$T/ws
	export WS
}

# sbx_as_agent BACKEND AGENT WORKSPACE SCRIPT: SCRIPT under `sandbox run`
# in WORKSPACE as bound AGENT: the shim first on PATH, that agent's binding
# and the key bound read-only, snapshots on (t0640, t0642).
sbx_as_agent() {
	sbx_prereq "$1"
	run "$AG_BIN" sandbox run --backend "$1" --policy fs+no-net \
		--workspace "$3" --cache "$T/cache-$1" \
		--ro "$AGENTIC_GIT_HOME/bin" --ro "$AGENTIC_GIT_HOME/runtime/$2" \
		--ro "$AGENTIC_GIT_HOME/.config-integrity-key" \
		--ro "$REPO/.git/objects" \
		--env AGENTIC_GIT_HOME --env "AGENTIC_GIT_AGENT=$2" \
		--env AGENTIC_GIT_SNAPSHOTS=1 \
		--env AGENTIC_GIT_REAL_GIT --env GIT_AUTHOR_NAME \
		--env GIT_AUTHOR_EMAIL --env GIT_COMMITTER_NAME \
		--env GIT_COMMITTER_EMAIL \
		--env "PATH=$AGENTIC_GIT_HOME/bin:/usr/bin:/bin" -- /bin/sh -c "$4"
}

# sbx POLICY [run options…] -- CMD…: run in the sandbox at $WS.
sbx() {
	local policy=$1
	shift
	"$AG_BIN" sandbox run --backend "$BACKEND" --policy "$policy" \
		--workspace "$WS" --ro "$SBX_HELPER_DIR" "$@"
}

# sbx_denied: the last `run` failed and its output lacks $1.
sbx_denied() {
	if [ "$status" -eq 0 ]; then
		echo "[$BACKEND] expected a denial, got status 0: $output" >&2
		return 1
	fi
	refute_output --partial "$1"
}

# sbx_ran: the sandboxed script got to its end (so a deny below is the
# sandbox's doing, not a refusal to start).
sbx_ran() {
	assert_output --partial "sbx-script-done"
}

case_home_hidden() {
	local p=$1
	run cat "$HOME/.ssh/id_rsa" # control: the key is there
	assert_output --partial "sbx-test-key"
	# Listing HOME shows nothing of the real one (bwrap: an empty tmpfs;
	# Landlock: permission denied).
	run sbx "$p" -- /bin/sh -c 'cat "$1/.ssh/id_rsa"; cat "$1/notes.txt"
		echo "listing:[$(ls -A "$1" 2>/dev/null)]"; echo sbx-script-done' \
		sh "$HOME"
	sbx_ran
	refute_output --partial "sbx-test-key"
	refute_output --partial "home-notes-secret"
	assert_output --partial "listing:[]"
}

case_no_write_outside() {
	local p=$1 host_tmp=/tmp/agentic-git-sbx-$$-$BATS_TEST_NUMBER t
	local targets=("$HOME/planted" "$REPO/planted" "$REPO/.git/objects/planted"
		"$T/planted" "$host_tmp" "$T/other-ws/planted")
	run sbx "$p" -- /bin/sh -c 'for t in "$@"; do echo x >"$t"; done
		echo ok >written; echo sbx-script-done' sh "${targets[@]}"
	sbx_ran
	for t in "${targets[@]}"; do
		[ ! -e "$t" ] || { rm -f "$t"; fail "[$BACKEND $p] wrote $t"; }
	done
	assert_equal "$(cat "$WS/written")" ok # control
}

case_no_operator_clone() {
	local p=$1
	run sbx "$p" -- /bin/sh -c "cat '$REPO/README.md' '$REPO/.git/config'
		cat '$T/other-ws/work.txt'; ls '$T'; echo sbx-script-done"
	sbx_ran
	refute_output --partial "hello"
	refute_output --partial "[core]"
	refute_output --partial "other-agent-secret"
	refute_output --regexp "(^|[[:space:]])(repo|other-ws)($|[[:space:]])"
}

case_env_secret() {
	local p=$1
	export SBX_SECRET_TOKEN=tok-s3cr3t-value
	# not in its environment, nor through the parent's /proc entry
	run sbx "$p" -- /bin/sh -c 'env; cat /proc/$PPID/environ /proc/1/environ
		echo sbx-script-done'
	sbx_ran
	refute_output --partial "tok-s3cr3t-value"
	# control: passed when asked for by name
	run sbx "$p" --env SBX_SECRET_TOKEN -- /usr/bin/env
	assert_output --partial "SBX_SECRET_TOKEN=tok-s3cr3t-value"
}

# Starts a loopback listener for this test; sets PORT and LISTENER.
sbx_listen() {
	"$SBX_HELPER" listen "$T/port" 30 &
	LISTENER=$!
	for _ in $(seq 100); do
		[ -s "$T/port" ] && break
		sleep 0.05
	done
	PORT=$(cat "$T/port")
	run "$SBX_HELPER" connect "$PORT" # control: reachable outside
	assert_output "connected: hello"
}

# net_server NAME: tests/helper/http-udp-server.mjs on loopback (HTTP and
# UDP); sets PORT_<NAME>, logs to $T/NAME.log; it lives while FD_<NAME>,
# its stdin, is open (net_server_stop closes them).
net_server() {
	local fd
	exec {fd}> >(exec node "$BATS_TEST_DIRNAME/../helper/http-udp-server.mjs" \
		--name "$1" --port-file "$T/$1.port" --log "$T/$1.log" \
		--lifetime 60 >"$T/$1.out" 2>&1)
	eval "FD_$1=$fd"
	for _ in $(seq 200); do
		[ -s "$T/$1.port" ] && break
		sleep 0.05
	done
	[ -s "$T/$1.port" ] || fail "server $1 did not start: $(cat "$T/$1.out")"
	eval "PORT_$1=$(cat "$T/$1.port")"
}

net_server_stop() {
	[ -z "${FD_A:-}" ] || exec {FD_A}>&-
	[ -z "${FD_B:-}" ] || exec {FD_B}>&-
}

sbx_unlisten() {
	[ -z "${LISTENER:-}" ] || kill "$LISTENER" 2>/dev/null || true
	wait 2>/dev/null || true
}

case_network() {
	sbx_listen
	run sbx fs-only -- "$SBX_HELPER" connect "$PORT"
	assert_success
	assert_output "connected: hello"
	run sbx fs+no-net -- "$SBX_HELPER" connect "$PORT"
	sbx_denied "hello"
	if [ "$BACKEND" = landlock ]; then
		# seccomp: no socket of any family but AF_UNIX, so UDP too
		run sbx fs+no-net -- "$SBX_HELPER" udp "$PORT"
		sbx_denied "sent"
		assert_output --partial "socket: Permission denied"
	fi
	sbx_unlisten
}

case_tiocsti() {
	local p=$1
	# control: on a terminal of ours, injection works
	run "$SBX_HELPER" pty "$SBX_HELPER" tiocsti
	assert_output --partial "tiocsti: injected"
	run "$SBX_HELPER" pty "$AG_BIN" sandbox run --backend "$BACKEND" \
		--policy "$p" --workspace "$WS" --ro "$SBX_HELPER_DIR" -- \
		"$SBX_HELPER" tiocsti
	sbx_denied "injected"
	assert_output --partial "tiocsti: Operation not permitted"
}

case_build_and_cache() {
	local p=$1
	printf '#include <stdio.h>\nint main(void) { puts("built-ok"); return 0; }\n' >"$WS/hello.c"
	run sbx "$p" --cache "$T/cache" -- /bin/sh -c \
		"cc -o hello hello.c && ./hello && echo cached >'$T/cache/c.txt'"
	assert_success
	assert_output --partial "built-ok"
	assert_equal "$(cat "$T/cache/c.txt")" cached
}

# The operator's clone gets a feature branch behind main, as dispatch sees
# it after fetching: origin/main moved on, origin/feat one commit off it.
sbx_feature_repo() {
	(
		cd "$REPO"
		"$REAL_GIT" checkout -q -b feat
		echo feature >feature.txt
		"$REAL_GIT" add feature.txt
		"$REAL_GIT" commit -q -m "feature work"
		"$REAL_GIT" push -q origin feat
		"$REAL_GIT" checkout -q main
		echo more >>README.md
		"$REAL_GIT" commit -q -am "main moves on"
		"$REAL_GIT" push -q origin main
		"$REAL_GIT" fetch -q origin
	)
}

case_git_in_private_workspace() {
	local p=$1 ws=$T/pws-$1 before
	before=$(head_of "$REPO")
	find "$REPO/.git/objects" -type f | sort >"$T/objects.before"
	run "$AG_BIN" sandbox run --backend "$BACKEND" --policy "$p" \
		--from "$REPO" --head feat --base main --workspace "$ws" \
		--cache "$T/cache-$p" \
		--env GIT_AUTHOR_NAME --env GIT_AUTHOR_EMAIL \
		--env GIT_COMMITTER_NAME --env GIT_COMMITTER_EMAIL -- \
		/bin/sh -c 'git status --short &&
			echo agent >agent.txt && git add agent.txt &&
			git commit -q -m "agent commit" &&
			git rebase -q origin/main &&
			git log --format=%s'
	assert_success
	assert_output --partial "agent commit
feature work
main moves on
initial import"
	# the result is in the workspace, the operator's clone is untouched
	assert_equal "$("$REAL_GIT" -C "$ws" log -1 --format=%s)" "agent commit"
	"$REAL_GIT" -C "$ws" merge-base --is-ancestor origin/main HEAD
	assert_equal "$(head_of "$REPO")" "$before"
	find "$REPO/.git/objects" -type f | sort >"$T/objects.after"
	cmp "$T/objects.before" "$T/objects.after"
}

# A workspace and a cache under $HOME are reachable, the rest of HOME not.
case_workspace_under_home() {
	local p=$1
	WS=$HOME/src/proj
	mkdir -p "$WS"
	run sbx "$p" --cache "$HOME/.cache/agent" -- /bin/sh -c '
		echo ok >"$1/written" && echo c >"$2/c.txt" && echo wrote
		cat "$3/.ssh/id_rsa"; echo "listing:[$(ls -A "$3" 2>/dev/null | tr "\n" " ")]"' \
		sh "$WS" "$HOME/.cache/agent" "$HOME"
	assert_success
	assert_output --partial "wrote"
	refute_output --partial "sbx-test-key"
	refute_output --regexp 'listing:\[.*(\.ssh|notes\.txt)'
	assert_equal "$(cat "$WS/written")" ok
	assert_equal "$(cat "$HOME/.cache/agent/c.txt")" c
}
