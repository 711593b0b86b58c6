# SPDX-License-Identifier: Apache-2.0
# The hostile-workspace fuzzer's scratch world (docs/fuzzing.md, "The
# hostile-workspace fuzzer"), sourced by hostile.sh. Everything lives
# under $W:
#
#   $W/home        HOME: ~/.gitconfig, a secret key file, ~/.bashrc, a
#                  private repository whose objects hold the secret
#   $W/tools       a directory every profile names in ro_binds
#   $W/canary      empty; a planted driver that runs outside a cage
#                  writes its token here
#   $W/origin.git  the bare remote (main, feat/d for dispatch)
#   $W/repo        the operator's clone of main, with uncommitted work
#   AGHOME         AGENTIC_GIT_HOME ($W/aghome, ~/.agentic-git or
#                  $W/tools/aghome, as the scene's layout says): session
#                  ag2 (feat/b, a plain session with real work, unsaved
#                  work and a snapshot of its own)
#   $W/scene       the expanded scene the planter reads (bound read-only)
#
# Needs: AG_BIN, REAL_GIT, HX (this directory). One template per layout
# is built once and copied for every scene (world_reset).

# world_env LAYOUT: the variables of the world, for that layout (the
# checker and the runner use them)
# shellcheck disable=SC2034
world_env() {
	local layout=$1
	export HOME=$W/home TMPDIR=$W/tmp GIT_CONFIG_NOSYSTEM=1
	export GIT_AUTHOR_NAME=Operator GIT_AUTHOR_EMAIL=operator@example.com
	export GIT_COMMITTER_NAME=Operator GIT_COMMITTER_EMAIL=operator@example.com
	unset AGENTIC_GIT_AGENT AGEND_INSTANCE_NAME AGENTIC_GIT_SNAPSHOTS
	unset AGENTIC_GIT_BYPASS AGENTIC_GIT_BYPASS_AGENT AGENTIC_GIT_BYPASS_UNTIL
	unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR
	case $layout in
	home) AGHOME=$HOME/.agentic-git ;;
	robind) AGHOME=$W/tools/aghome ;;
	*) AGHOME=$W/aghome ;;
	esac
	export AGENTIC_GIT_HOME=$AGHOME AGENTIC_GIT_REAL_GIT=$REAL_GIT
	REPO=$W/repo ORIGIN=$W/origin.git CANARY=$W/canary TOOLS=$W/tools
	SECRET=$HOME/.ssh/id_hostile KEY=$AGHOME/.config-integrity-key
	WS=$AGHOME/worktrees/ag1/feat/a WT2=$AGHOME/worktrees/ag2/feat/b
	LAYOUT=$layout
}

# world_config BACKEND POLICY: the profile the hostile agent runs under
world_config() {
	cat >"$AGHOME/config.yaml" <<-EOF
	sandbox_backend: $1
	agents:
	  hx:
	    command: ["$HX/plant.sh", "{prompt}"]
	    env: [HX_MODE]
	    ro_binds: ["$TOOLS", "$W/scene"]
	    sandbox: $2
	    timeout: 120
	EOF
	chmod 600 "$AGHOME/config.yaml"
}

# world_make LAYOUT: build the world from nothing (a few seconds)
world_make() {
	local g=$REAL_GIT layout=$1
	rm -rf "$W" && mkdir -p "$W/home/.ssh" "$W/tmp" "$W/tools" "$W/canary" "$W/scene"
	world_env "$layout"
	printf '[user]\n\tname = Operator\n\temail = operator@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[protocol "file"]\n\tallow = always\n' >"$HOME/.gitconfig"
	# the secret every planted driver tries to steal: its bytes must
	# never show up outside $HOME
	printf 'OPSECRET-%s-%s\n' "$$" "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" >"$SECRET"
	chmod 600 "$SECRET"
	echo "# the operator's shell" >"$HOME/.bashrc"
	echo "tools of the operator" >"$TOOLS/README"
	# a private repository of the operator's whose blob ids an attacker
	# may know (a public id of a private fork) but whose objects it may
	# not read
	"$g" init -q "$HOME/private" && cp "$SECRET" "$HOME/private/key" &&
		"$g" -C "$HOME/private" add key && "$g" -C "$HOME/private" commit -q -m private || return 1
	"$g" init -q --bare "$ORIGIN" && "$g" init -q "$REPO" || return 1
	(
		cd "$REPO" || exit 1
		printf 'hello\n' >README.md
		printf 'line 1\nline 2\n' >CHANGELOG
		printf '.env\n*.log\n' >.gitignore
		"$g" add -A && "$g" commit -q -m "initial import"
		"$g" remote add origin "$ORIGIN"
		"$g" checkout -q -b feat/d && echo "dispatch work" >d.txt &&
			"$g" add d.txt && "$g" commit -q -m "feat/d: start" && "$g" checkout -q main
		"$g" push -q origin main feat/d
		"$g" remote set-head origin main
		"$g" branch -q -D feat/d
		"$g" config gc.auto 0
		echo "operator wip" >>README.md
		echo "operator notes" >op-notes.txt
		echo "OPERATOR=1" >.env
	) || return 1
	mkdir -p "$AGHOME"
	world_config bwrap fs+no-net
	# the other session: real work committed, a snapshot, unsaved work
	(cd "$REPO" && "$AG_BIN" run --agent ag2 --branch feat/b -- sh -c '
		echo b >b.txt && git add b.txt && git commit -qm "b work" &&
		echo "b lost" >>README.md && git reset -q --hard &&
		echo "b wip" >>README.md && echo "b untracked" >b-new.txt') >"$W/ag2.log" 2>&1 || return 1
	[ -d "$WT2" ] || { echo "world: no worktree for ag2" >&2; return 1; }
	"$g" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag2/ | grep -q . ||
		{ echo "world: ag2 has no snapshot" >&2; return 1; }
	# what the checker compares with: the secret, the key, ag2's blobs
	cp "$SECRET" "$W/.secret"
	sha256sum <"$KEY" | cut -d' ' -f1 >"$W/.keysum"
	wc -c <"$KEY" | tr -d ' ' >"$W/.keysize"
	"$g" -C "$REPO" for-each-ref --format='%(refname)' refs/agentic-git/snapshots/ag2/ |
		while read -r r; do
			"$g" -C "$REPO" rev-list -n 5 "$r" | while read -r c; do "$g" -C "$REPO" ls-tree -r "$c"; done
		done | awk '{ print $3 }' | sort -u >"$W/.ag2-blobs"
	{
		echo "SECRETBLOB=$("$g" -C "$HOME/private" rev-parse HEAD:key)"
		echo "BASE=$("$g" -C "$REPO" rev-parse main)"
		echo "DHEAD=$("$g" --git-dir="$ORIGIN" rev-parse feat/d)"
	} >"$W/.facts"
	rm -rf "$W.$layout" && cp -a "$W" "$W.$layout"
}

# world_reset LAYOUT: the world as world_make left it (a copy, no git)
world_reset() {
	local layout=$1
	[ -d "$W.$layout" ] || world_make "$layout" || return 1
	rm -rf "$W" && cp -a "$W.$layout" "$W"
	world_env "$layout"
	# shellcheck disable=SC1091
	. "$W/.facts"
}
