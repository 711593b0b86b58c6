# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2154 # out is hostile.sh's
# The hostile-workspace fuzzer's runner (docs/fuzzing.md, "The
# hostile-workspace fuzzer"), sourced by hostile.sh after world.bash and
# check.bash. run_scene FILE DIR plays one scene: a fresh world, the
# hostile agent's session, then every operator command over what it left,
# as the operator would (outside the cage, in the operator's clone), each
# checked by check_op. The broken rules go to DIR/violations.

# Every command after `run` starts from the state `run` left, as if the
# operator ran it first (a command that refreshes an index spares the
# next one the work an agent left for it); `+op` goes on from the state
# the command before it left.
HX_OPS_SESSION="run sessions sessions-json events events-json list-ws list list-all show diff restore-ws restore-wt2 relaunch end end-force +getback +getback-then"
HX_OPS_DISPATCH="dispatch +events-after"

# op_argv OP: the operator command for OP, in ARGV (empty: skip)
op_argv() {
	local op=$1 ref
	ARGV=()
	case $op in
	run) ARGV=("$AG_BIN" run --agent ag1 --branch feat/a --profile hx --prompt "plant $W/scene/scene") ;;
	relaunch) ARGV=("$AG_BIN" run --agent ag1 --branch feat/a --profile hx --prompt "probe $W/scene/scene") ;;
	sessions) ARGV=("$AG_BIN" sessions) ;;
	sessions-json) ARGV=("$AG_BIN" sessions --json) ;;
	events | events-after) ARGV=("$AG_BIN" events) ;;
	events-json) ARGV=("$AG_BIN" events --json) ;;
	list-ws) ARGV=("$AG_BIN" snapshots list --repo "$WS") ;;
	list) ARGV=("$AG_BIN" snapshots list) ;;
	list-all) ARGV=("$AG_BIN" snapshots list --all) ;;
	show-* | diff-*)
		ref=$(sed -n "${op#*-}p" "$SD/snaprefs")
		[ -n "$ref" ] || return 0
		ARGV=("$AG_BIN" snapshots "${op%%-*}" "$ref" --repo "$WS")
		;;
	restore-ws) ARGV=("$AG_BIN" snapshots restore --repo "$WS" --since 1h) ;;
	restore-wt2) ARGV=("$AG_BIN" snapshots restore --repo "$WT2" --since 1h) ;;
	end) ARGV=("$AG_BIN" end --agent ag1) ;;
	end-force) ARGV=("$AG_BIN" end --agent ag1 --force) ;;
	# the two commands end prints to get the work back, as printed
	# (after end-force; `<cmd>` in a run hint is `true`)
	getback | getback-then)
		local hint
		if [ "$op" = getback ]; then
			hint=$(sed -n 's/^  get back: *//p' "$SD"/*-end-force.out "$SD"/*-end-force.err 2>/dev/null | head -1)
		else
			hint=$(sed -n 's/^ *then: *//p' "$SD"/*-end-force.out "$SD"/*-end-force.err 2>/dev/null | head -1)
		fi
		[ -n "$hint" ] || return 0
		read -r -a ARGV <<<"${hint//<cmd>/true}"
		case ${ARGV[0]} in
		git) ARGV[0]=$REAL_GIT ;;
		agentic-git) ARGV[0]=$AG_BIN ;;
		*) ARGV=() ;;
		esac
		;;
	dispatch)
		printf 'dispatch %s' "$W/scene/scene" >"$W/scene/prompt"
		ARGV=("$AG_BIN" dispatch --grace 1 --timeout 120 --repo "$REPO" --head feat/d --base main
			--profile hx --prompt-file "$W/scene/prompt")
		;;
	# the self-test's operator commands: each breaks one rule on purpose
	raw-*) selftest_argv "$op" ;;
	esac
}

# run_op OP: run it under the exec monitor, check, log
run_op() {
	local op=$1 o rc v
	op_argv "$op"
	[ ${#ARGV[@]} -gt 0 ] || return 0
	HX_N=$((HX_N + 1))
	o=$SD/$(printf '%02d' $HX_N)-$op
	local t0
	t0=$(date +%s)
	local -a mon=()
	# shellcheck disable=SC2054 # strace's own lists
	[ "${HX_STRACE:-1}" = 1 ] &&
		mon=(strace -f -qq --seccomp-bpf --decode-pids=pidns -s 200 -e trace=execve,clone,clone3,fork,vfork -e signal=none -o "$o.trace")
	case $op in raw-*) selftest_pre "$op" ;; esac
	(cd "$REPO" && exec timeout -k 5 "${HX_OP_TIMEOUT:-180}" "${mon[@]}" "${ARGV[@]}") \
		</dev/null >"$o.out" 2>"$o.err"
	rc=$?
	case $op in raw-*) selftest_post "$op" ;; esac
	capture "$o.state"
	# what plain git prints (end's get-back hint may be a git command) is
	# git's, not agentic-git's: its terminal output is not judged
	HX_NOTERM=0
	[ "${ARGV[0]}" = "$REAL_GIT" ] && [[ $op == getback* ]] && HX_NOTERM=1
	export HX_NOTERM
	check_op "$op" "$SD/state" "$o.state" "$o" >"$o.v" 2>"$o.checker-err" ||
		echo "VIOLATION checker: the check after $op failed ($(head -c 200 "$o.checker-err"))" >>"$o.v"
	[ -s "$o.checker-err" ] || rm -f "$o.checker-err"
	# an operator command that never ends is a finding too (a FIFO
	# planted where git reads, F8): timeout's 124, or 137 after -k
	case $rc in 124 | 137)
		echo "VIOLATION hang: $op did not finish within ${HX_OP_TIMEOUT:-180}s (rc $rc)" >>"$o.v" ;;
	esac
	ln -sfn "$(basename "$o").state" "$SD/state"
	if [ "$op" = dispatch ]; then
		local rd
		rd=$AGHOME/runs/$(readlink "$AGHOME/runs/latest" 2>/dev/null)
		term_check "$rd/summary.md" "dispatch's summary.md" >>"$o.v"
		mkdir -p "$o.run" && cp "$rd"/*.md "$rd"/*.yaml "$o.run/" 2>/dev/null
	fi
	v=$(cat "$o.v")
	printf '%s rc=%s %ss%s\n' "$op" "$rc" "$(($(date +%s) - t0))" "${v:+ VIOLATION}" >>"$SD/log"
	if [ -n "$v" ]; then
		sed "s/^/  /" "$o.v" >>"$SD/log"
		sed "s/^VIOLATION \([^:]*\):/VIOLATION \1 [$op]:/" "$o.v" >>"$SD/violations"
	fi
	[ "$op" = run ] && rgit -C "$REPO" for-each-ref --sort=-refname --count=3 \
		--format='%(refname)' refs/agentic-git/snapshots/ag1/ >"$SD/snaprefs"
	return 0
}

# scene_read FILE: the scene's directives into S_* and PLANTS
scene_read() {
	local d a
	S_BACKEND=bwrap S_POLICY=fs+no-net S_LAYOUT=default S_PAYLOAD=none S_KNOWN="" S_OPS=""
	PLANTS=()
	while read -r d a; do
		case $d in
		backend) S_BACKEND=$a ;;
		policy) S_POLICY=$a ;;
		layout) S_LAYOUT=$a ;;
		payload) S_PAYLOAD=$a ;;
		plant) PLANTS+=("$a") ;;
		known) S_KNOWN+="${S_KNOWN:+ }${a%% *}" ;;
		ops) S_OPS=$a ;;
		esac
	done <"$1"
}

# run_scene FILE DIR: play the scene; 0 when nothing was broken
run_scene() {
	local file=$1 op p
	SD=$2
	rm -rf "$SD" && mkdir -p "$SD"
	scene_read "$file"
	: >"$SD/log"
	: >"$SD/violations"
	world_reset "$S_LAYOUT" >"$SD/world.log" 2>&1 || { echo "VIOLATION setup: no world (see $SD/world.log)" >"$SD/violations"; return 2; }
	world_config "$S_BACKEND" "$S_POLICY"
	NONCE=$(printf '%s' "$file" | cksum | cut -c1-8)
	{
		grep -v '^fact ' "$file"
		echo "fact nonce $NONCE"
		echo "fact canary $CANARY"
		echo "fact secret $SECRET"
		echo "fact home $HOME"
		echo "fact aghome $AGHOME"
		echo "fact key $KEY"
		echo "fact wt2 $WT2"
		echo "fact repo $REPO"
		echo "fact base $BASE"
		echo "fact secretblob $SECRETBLOB"
		echo "fact payload $S_PAYLOAD"
	} >"$W/scene/scene"
	"$HX/plant.sh" "strings $W/scene/scene" >"$W/scene/raw-strings" 2>/dev/null
	rm -rf "$W.post"
	capture "$SD/00-start.state"
	ln -sfn 00-start.state "$SD/state"
	HX_N=0
	local ops="$HX_OPS_SESSION $HX_OPS_DISPATCH"
	[ -n "$S_OPS" ] && ops=$S_OPS
	for op in $ops; do
		case $op in
		+*) op=${op#+} ;;
		*)
			if [ -d "$W.post" ]; then
				rm -rf "$W" && cp -a "$W.post" "$W"
				ln -sfn "$HX_POST" "$SD/state"
			fi
			;;
		esac
		case $op in
		show | diff) for p in 1 2 3; do run_op "$op-$p"; done ;;
		*) run_op "$op" ;;
		esac
		if [ "$op" = run ]; then
			rm -rf "$W.post" && cp -a "$W" "$W.post"
			HX_POST=$(readlink "$SD/state")
		fi
	done
	rm -rf "$W.post"
	[ ! -s "$SD/violations" ]
}
