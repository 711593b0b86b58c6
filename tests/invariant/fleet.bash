# SPDX-License-Identifier: Apache-2.0
# The invariant fuzzer's scratch fleet (docs/fuzzing.md, "The invariant
# fuzzer"), sourced by invfuzz.sh. Everything lives under $F:
#
#   $F/home        HOME, with a ~/.gitconfig that must never change
#   $F/origin.git  the bare remote (main, master, other, feat/b, v1)
#   $F/repo        the operator's checkout of main, with uncommitted work and
#                  a stash entry of its own
#   $F/aghome      AGENTIC_GIT_HOME: sessions ag2 (feat/b, with an entry on
#                  its own stash) and ag1 (feat/a, with a submodule `lib`
#                  checked out) made by `agentic-git run`, each with a
#                  snapshot; ag4's session ended, its branch feat/old kept
#   $F/subsrc      the submodule's origin
#   $F/sentinel    files outside every repository
#
# Needs: AG_BIN, REAL_GIT; sets WT (ag1's worktree), WT2, SNAP1, SNAP2.

fleet_env() {
	export HOME=$F/home TMPDIR=$F/tmp GIT_CONFIG_NOSYSTEM=1
	export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=tester@example.com
	export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=tester@example.com
	export AGENTIC_GIT_HOME=$F/aghome AGENTIC_GIT_REAL_GIT=$REAL_GIT
	unset AGENTIC_GIT_AGENT AGEND_INSTANCE_NAME AGENTIC_GIT_SNAPSHOTS
	unset AGENTIC_GIT_BYPASS AGENTIC_GIT_BYPASS_AGENT AGENTIC_GIT_BYPASS_UNTIL
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR
	WT=$F/aghome/worktrees/ag1/feat/a
	WT2=$F/aghome/worktrees/ag2/feat/b
	REPO=$F/repo ORIGIN=$F/origin.git SENT=$F/sentinel
	# the worktrees' admin dirs (named after the worktree's last component)
	ADM1=$F/repo/.git/worktrees/a ADM2=$F/repo/.git/worktrees/b
}

# fleet_make: build the fleet from nothing (about a second).
fleet_make() {
	local g=$REAL_GIT
	rm -rf "$F" && mkdir -p "$F/home" "$F/tmp" "$F/sentinel/dir"
	fleet_env
	printf '[user]\n\tname = Tester\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[protocol "file"]\n\tallow = always\n' >"$HOME/.gitconfig"
	echo "outside" >"$SENT/file.txt"
	echo "deep" >"$SENT/dir/deep.txt"
	printf '[core]\n\thooksPath = /dev/null\n' >"$SENT/cfg"
	# a program a hostile value names; what it may do the agent could do
	# itself, so it only leaves a trace
	printf '#!/bin/sh\ntouch "%s/tmp/evil-ran"\n' "$F" >"$SENT/evil.sh"
	chmod +x "$SENT/evil.sh"
	find "$SENT" -type f >"$F/.sentinel"
	"$g" init -q --bare "$F/origin.git"
	"$g" init -q "$F/repo"
	(
		cd "$F/repo" || exit 1
		printf 'hello\n' >README.md
		mkdir -p src && echo "int main(void) { return 0; }" >src/main.c
		printf '.env\n*.log\nbuild/\n' >.gitignore
		"$g" add -A && "$g" commit -q -m "initial import"
		echo two >>README.md && "$g" commit -q -am "second"
		"$g" branch master && "$g" tag v1
		# other tracks an .env that is ignored everywhere else
		"$g" checkout -q -b other && echo "TRACKED=1" >.env && "$g" add -f .env &&
			"$g" commit -q -m "other: .env" && "$g" checkout -q main && rm -f .env
		"$g" remote add origin "$F/origin.git"
		"$g" push -q origin main master other v1
		"$g" remote set-head origin main
		"$g" config gc.autoDetach false
		echo "stashed by the operator" >>README.md && "$g" stash -q
		echo "operator wip" >>README.md
		echo "operator untracked" >op-notes.txt
		echo "OPERATOR=secret" >.env
	) || return 1
	# the multi-session scene (issue 33): an ended session's branch
	(cd "$F/repo" && "$AG_BIN" run --agent ag4 --branch feat/old -- sh -c '
		echo o >o.txt && git add o.txt && git commit -qm "old work"' 2>/dev/null &&
		"$AG_BIN" end --agent ag4 --force >/dev/null 2>&1) || return 1
	(cd "$F/repo" && "$AG_BIN" run --agent ag2 --branch feat/b -- sh -c '
		echo b >b.txt && git add b.txt && git commit -qm "b work" &&
		echo lost >>README.md && git reset -q --hard &&
		git push -q origin feat/b && echo "b stashed" >>README.md &&
		git stash -q && echo "b wip" >>README.md &&
		echo "b untracked" >b-new.txt' 2>/dev/null) || return 1
	(cd "$F/repo" && "$AG_BIN" run --agent ag1 --branch feat/a -- sh -c '
		echo a >a.txt && git add a.txt && git commit -qm "a work" &&
		echo lost >>README.md && git reset -q --hard' 2>/dev/null) || return 1
	# a submodule in ag1's worktree (set up by the operator: agents may
	# not write submodule.<name>.url), for rm and submodule update --force
	"$g" init -q "$F/subsrc" && (cd "$F/subsrc" && echo "lib a" >a.txt &&
		printf '*.env\n' >.gitignore && "$g" add -A && "$g" commit -q -m lib) &&
		"$g" -C "$WT" submodule add -q "$F/subsrc" lib >/dev/null 2>&1 &&
		"$g" -C "$WT" commit -q -m "lib" || return 1
	[ -d "$ADM1" ] && [ -d "$ADM2" ] || { echo "fleet: no worktree admin dirs '$ADM1', '$ADM2'" >&2; return 1; }
	SNAP1=$("$g" -C "$F/repo" for-each-ref --count=1 --format='%(refname)' refs/agentic-git/snapshots/ag1/)
	SNAP2=$("$g" -C "$F/repo" for-each-ref --count=1 --format='%(refname)' refs/agentic-git/snapshots/ag2/)
	[ -n "$SNAP1" ] && [ -n "$SNAP2" ] || { echo "fleet: no snapshots" >&2; return 1; }
	printf '%s\n%s\n' "$SNAP1" "$SNAP2" >"$F/.snaps"
	rm -rf "$F.tmpl" && cp -a "$F" "$F.tmpl"
}

# fleet_reset: back to the state fleet_make left (a copy, no git).
# STALE=1 tells invfuzz.sh that its last capture no longer holds.
# shellcheck disable=SC2034
fleet_reset() {
	STALE=1
	rm -rf "$F" && cp -a "$F.tmpl" "$F"
	fleet_env
	{ read -r SNAP1; read -r SNAP2; } <"$F/.snaps"
}

# fleet_dirty I: give ag1 unsaved work of every kind, new for command I.
fleet_dirty() {
	local i=$1
	mkdir -p "$WT/work" "$WT/build"
	printf 'hello\ntwo\nwip %s\n' "$i" >"$WT/README.md" 2>/dev/null
	printf 'untracked %s\n' "$i" >"$WT/work/u$((i % 3)).txt"
	printf 'SECRET=%s\n' "$i" >"$WT/.env"
	printf 'build output %s\n' "$i" >"$WT/build/out.o"
	# an ignored file below a tracked directory: sparse-checkout deletes it
	{ printf 'SRC=%s\n' "$i" >"$WT/src/.env"; } 2>/dev/null
	# a submodule's own unsaved work: changed, untracked, ignored
	if [ -e "$WT/lib/.git" ]; then
		printf 'lib a\nwip %s\n' "$i" >"$WT/lib/a.txt"
		printf 'lib untracked %s\n' "$i" >"$WT/lib/u.txt"
		printf 'LIB=%s\n' "$i" >"$WT/lib/local.env"
	fi
	# the copied fleet's stat data is stale: git would keep every tracked
	# file as "not up to date" (sparse-checkout deletes none)
	"$REAL_GIT" -C "$WT" update-index -q --refresh >/dev/null 2>&1 || true
}

# fleet_tidy: end what an earlier command left half done in ag1's worktree
# (as the operator would; its own branch only).
# shellcheck disable=SC2034
fleet_tidy() {
	local op
	STALE=1
	for op in "rebase --abort" "merge --abort" "cherry-pick --abort" \
		"revert --abort" "am --abort" "bisect reset"; do
		# shellcheck disable=SC2086
		"$REAL_GIT" -C "$WT" $op >/dev/null 2>&1 </dev/null || true
	done
	"$REAL_GIT" -C "$WT" sparse-checkout disable >/dev/null 2>&1 || true
}

# expand TOKEN: fill in the placeholders, into REPLY (no subshell: a
# command line has a dozen tokens)
expand() {
	local t=$1
	t=${t//@WT2@/$WT2}
	t=${t//@WT@/$WT}
	t=${t//@REPO@/$REPO}
	t=${t//@SENT@/$SENT}
	t=${t//@HOME@/$HOME}
	t=${t//@ORIGIN@/$ORIGIN}
	t=${t//@AGHOME@/$AGENTIC_GIT_HOME}
	t=${t//@SNAP1@/$SNAP1}
	t=${t//@SNAP2@/$SNAP2}
	REPLY=$t
}

# run_line LINE OUT: run one command line as agent ag1 in its worktree;
# stdout+stderr to OUT; returns git's (or the shim's) status.
run_line() {
	local line=$1 out=$2 tok stdin=/dev/null dir=$WT
	local -a envs=() args=() toks=()
	local seen_git=0
	IFS=$'\t' read -r -a toks <<<"$line"
	for tok in "${toks[@]}"; do
		expand "$tok"
		tok=$REPLY
		if [ $seen_git = 1 ]; then
			args+=("$tok")
		elif [ "$tok" = git ]; then
			seen_git=1
		elif [[ $tok == @stdin=* ]]; then
			printf '%b' "${tok#@stdin=}" >"$F/tmp/stdin"
			stdin=$F/tmp/stdin
		elif [[ $tok == @cd=* ]]; then
			dir=${tok#@cd=}
		else
			envs+=("$tok")
		fi
	done
	# with another agent's name or another home, ag1 has no binding
	RUN_UNBOUND=0
	for tok in "${envs[@]}"; do
		case $tok in
		AGENTIC_GIT_AGENT=ag1 | "AGENTIC_GIT_HOME=$AGENTIC_GIT_HOME") ;;
		AGENTIC_GIT_AGENT=* | AGENTIC_GIT_HOME=*) RUN_UNBOUND=1 ;;
		esac
	done
	local shim=$AGENTIC_GIT_HOME/bin/git
	[ "${INV_UNGUARDED:-0}" = 1 ] && shim=$REAL_GIT
	(cd "$dir" 2>/dev/null || cd "$WT" || exit 127
	exec env PATH="$AGENTIC_GIT_HOME/bin:$PATH" AGENTIC_GIT_AGENT=ag1 \
		AGENTIC_GIT_SNAPSHOTS=1 GIT_EDITOR=true GIT_SEQUENCE_EDITOR=true \
		GIT_PAGER=cat PAGER=cat GIT_TERMINAL_PROMPT=0 \
		"${envs[@]}" timeout -k 5 30 "$shim" "${args[@]}") \
		<"$stdin" >"$out" 2>&1
}
