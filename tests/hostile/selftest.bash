# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2154 # out is hostile.sh's
# The hostile-workspace fuzzer's self-test (docs/fuzzing.md, "The
# hostile-workspace fuzzer"), sourced by hostile.sh. corpus/selftest.scene
# plants what the corpus plants; its operator commands are raw ones, each
# doing on purpose, outside any cage, what agentic-git must never do (real
# git over the workspace, a write into $HOME …). Every one must be seen by
# the rule it breaks, so a checker that stopped seeing a kind of harm fails.

# What each raw command must make the checker report (an ERE over its
# violation lines; every one must match some line)
# shellcheck disable=SC2016 # the $ is the report's
declare -A HX_SELFTEST=(
	[raw-status]='^VIOLATION canary:|^VIOLATION exec: .*hx-drv|^VIOLATION secret:'
	[raw-exec-only]='^VIOLATION exec: .*hx-drv'
	[raw-term]='^VIOLATION terminal:'
	[raw-version-json]='^VIOLATION json:'
	[raw-home]='^VIOLATION changed: \$HOME'
	[raw-aghome]='^VIOLATION changed: \$AGENTIC_GIT_HOME'
	[raw-restore-wt2]='^VIOLATION other-worktree:'
	[raw-wt2]='^VIOLATION changed: ag2.s worktree'
	[raw-ref]='^VIOLATION ref:'
	[raw-dispatch]='^VIOLATION remote: pushed a commit touching a trust root|^VIOLATION remote: pushed conflict markers'
	[raw-key]='^VIOLATION secret: fleet key'
)

# selftest_argv OP: the raw command, in ARGV
# shellcheck disable=SC2034 # ARGV is ops.bash's
selftest_argv() {
	local forged
	case $1 in
	raw-status | raw-exec-only) ARGV=("$REAL_GIT" -C "$WS" status) ;;
	raw-term) ARGV=("$REAL_GIT" -C "$REPO" log -3 --format=%B feat/a) ;;
	raw-version-json) ARGV=("$REAL_GIT" --version) ;;
	raw-home) ARGV=("$REAL_GIT" config --global hx.selftest 1) ;;
	raw-aghome) ARGV=("$REAL_GIT" config -f "$AGHOME/hx-selftest.ini" hx.selftest 1) ;;
	raw-restore-wt2)
		forged=$(rgit -C "$REPO" log --format=%H --grep='Agentic-Snapshot-Worktree: '"$WT2" \
			refs/agentic-git/snapshots/ag1/ -1 2>/dev/null)
		[ -n "$forged" ] || forged=$(rgit -C "$REPO" for-each-ref --count=1 --sort=-refname \
			--format='%(objectname)' refs/agentic-git/snapshots/ag1/)
		ARGV=("$REAL_GIT" -C "$WT2" checkout "$forged" -- .)
		;;
	raw-wt2) ARGV=("$REAL_GIT" -C "$WT2" checkout -- README.md) ;;
	raw-ref) ARGV=("$REAL_GIT" -C "$REPO" update-ref refs/heads/main refs/heads/feat/a) ;;
	raw-dispatch) ARGV=("$REAL_GIT" -C "$W/tmp/pushsrc" push -q origin HEAD:refs/heads/feat/d) ;;
	raw-key) ARGV=(/bin/cp "$KEY" "$WS/hx-key") ;;
	esac
}

# selftest_pre OP / selftest_post OP: set up around the traced command
selftest_pre() {
	case $1 in
	raw-exec-only)
		# the driver can neither write its canary nor read the secret:
		# only the exec monitor can see it run
		mv "$CANARY" "$CANARY.off" && mv "$SECRET" "$SECRET.off"
		;;
	raw-dispatch)
		rm -rf "$W/tmp/pushsrc"
		rgit clone -q -b feat/d "$ORIGIN" "$W/tmp/pushsrc" &&
			printf 'agents: {}\n' >"$W/tmp/pushsrc/fleet.yaml" &&
			printf '<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> z\n' >>"$W/tmp/pushsrc/d.txt" &&
			rgit -C "$W/tmp/pushsrc" add -A && rgit -C "$W/tmp/pushsrc" commit -q -m selftest
		;;
	esac
	return 0
}
selftest_post() {
	case $1 in
	raw-exec-only) mv "$CANARY.off" "$CANARY" && mv "$SECRET.off" "$SECRET" ;;
	raw-dispatch) rm -rf "$W/tmp/pushsrc" ;;
	esac
	return 0
}

# selftest: play corpus/selftest.scene; a TAP line per raw command (did
# the checker see what it broke?) and one for corpus/clean.scene (nothing
# benign is reported)
selftest() {
	local sd=$out/scenes/selftest op v w ok
	local -a want
	run_scene "$HX/corpus/selftest.scene" "$sd"
	for op in $(sed -n 's/^ops //p' "$HX/corpus/selftest.scene" | tr ' ' '\n'); do
		[ "$op" = run ] && continue
		v=$(cat "$sd"/*-"$op".v 2>/dev/null)
		IFS='|' read -r -a want <<<"${HX_SELFTEST[$op]}"
		ok=1
		for w in "${want[@]}"; do
			grep -qE -- "$w" <<<"$v" || ok=0
		done
		tap "$ok" "self-test: $op is seen" "it broke a rule the checker did not report (wanted: ${HX_SELFTEST[$op]})"
	done
	# (but for findings not fixed yet that any scene meets: its `known`)
	run_scene "$HX/corpus/clean.scene" "$out/scenes/clean"
	cover "$HX/corpus/clean.scene" "$out/scenes/clean/violations" >"$out/scenes/clean/cover"
	if grep -q '^uncovered ' "$out/scenes/clean/cover"; then
		tap 0 "self-test: a scene with nothing planted is clean" \
			"$(sed -n 's/^uncovered //p' "$out/scenes/clean/cover" | head -1 | cut -c1-160)"
	else
		tap 1 "self-test: a scene with nothing planted is clean"
	fi
}
