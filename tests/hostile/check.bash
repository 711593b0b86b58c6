# SPDX-License-Identifier: Apache-2.0
# The hostile-workspace fuzzer's checker (docs/fuzzing.md, "The
# hostile-workspace fuzzer"), sourced by hostile.sh after world.bash.
# capture DIR writes what must not change; check_op compares two captures
# and reads what the operator command printed and what it executed, and
# prints one "VIOLATION <kind>: <what>" line per broken rule.

# manifest ROOT [EXCLUDE-ERE]: "<path> TAB <type> <mode> TAB <content>" for
# everything under ROOT (files by SHA-1, links by target), sorted; a
# newline in a name (an agent's) is shown as '?', so a line is one path
manifest() {
	local root=$1 ex=${2:-'^$'}
	[ -e "$root" ] || return 0
	(
		cd "$root" || exit 0
		find . -mindepth 1 -printf '%P\t%y %m\t%l\0' | tr '\n\0' '?\n' |
			grep -Ev "$ex" | LC_ALL=C sort >"$TMPDIR/hx-m1"
		find . -mindepth 1 -type f -print0 | xargs -0r sha1sum -z -- 2>/dev/null |
			tr '\n\0' '?\n' | sed 's|^\([0-9a-f]*\)  \./\(.*\)$|\2\t\1|' |
			grep -Ev "$ex" | LC_ALL=C sort >"$TMPDIR/hx-m2"
		LC_ALL=C join -t $'\t' -a 1 -o 0,1.2,1.3,2.2 "$TMPDIR/hx-m1" "$TMPDIR/hx-m2" 2>/dev/null
	)
}

# rgit ARGS…: real git over a repository of ours (never the workspace)
rgit() {
	"$REAL_GIT" -c core.fsmonitor= -c core.hooksPath=/dev/null -c core.pager=cat \
		-c core.attributesFile=/dev/null "$@"
}

# What of AGENTIC_GIT_HOME an operator command may write: the audit log
# (appended only, checked apart), locks, ag1's own session (runtime,
# workspace, cache, quarantine, the record `end` keeps of its branch), the
# probe's cache, dispatch's runs, bindings and per-profile cache.
# Everything else (the key, config,
# bin/, hooks/, ag2's binding, worktree, quarantine) must not change.
HX_AGHOME_MAY='^((fleet_events\.jsonl|locks|runs|runtime/(ag1|dispatch-[^/]*|sandbox-probe[^/]*|net)|worktrees/(ag1|ag2)|cache/(ag1|hx)|quarantine/(ag1|dispatch-[^/]*)|ended/ag1)(/|	|$)|(cache|quarantine|worktrees|runtime|ended)	)'
# ...of the operator's clone's git dir: objects and refs are compared
# apart (refs by name; new objects may come), the indexes (its own and
# ag2's worktree's) by content: a read may refresh their stat data; the
# admin dir of ag1's worktree when end's "get back" hint makes one; the
# snapshot cache a restore's own snapshot keeps beside an index
# (docs/snapshots.md, "The cache")
HX_REPO_MAY='^\.git/(objects/(pack|[0-9a-f]{2})|refs|logs/refs/(heads/feat/a|agentic-git)|packed-refs|index|(worktrees/[^/]*/)?agentic-git-snapshot-cache|worktrees/[^/]*/index|worktrees/a|FETCH_HEAD)(/|	|$)'

# capture DIR: the state every operator command must leave as it was
capture() {
	local d=$1
	mkdir -p "$d"
	local homeex='^$'
	[ "$LAYOUT" = home ] && homeex='^(\.agentic-git)(/|	)'
	manifest "$HOME" "$homeex" >"$d/home"
	# the hooks by content: dispatch installs them again (mode 0700)
	manifest "$AGHOME" "$HX_AGHOME_MAY" | awk -F'\t' -v OFS='\t' '$1 ~ /^hooks\// { $2 = "" } { print }' >"$d/aghome"
	manifest "$REPO" "$HX_REPO_MAY" >"$d/repo"
	{
		rgit -C "$REPO" ls-files -s
		rgit -C "$WT2" ls-files -s
	} >"$d/repo-index" 2>&1
	manifest "$WT2" >"$d/wt2"
	manifest "$ORIGIN" '^(objects|refs|packed-refs)(/|	|$)' >"$d/origin"
	manifest "$TOOLS" '^aghome(/|	|$)' >"$d/tools"
	# every index of the operator's clone and its worktrees, by bytes
	find "$REPO/.git" -maxdepth 3 -name index -type f -print0 | xargs -0r sha1sum | sort -k2 >"$d/indexes"
	# the refs, and every file under refs/ (a broken "ref" for-each-ref
	# skips is a file written there all the same)
	rgit -C "$REPO" for-each-ref --format='%(objectname) %(refname)' >"$d/refs" 2>/dev/null
	sed 's/^[^ ]* //' "$d/refs" >"$d/refnames"
	(cd "$REPO/.git" && find refs -type f -print0 2>/dev/null |
		while IFS= read -r -d '' f; do
			grep -qxF -- "$f" "$d/refnames" ||
				printf 'file:%s %s\n' "$(sha1sum <"$f" | cut -c1-12)" "$f"
		done) >"$d/reffiles"
	cat "$d/reffiles" >>"$d/refs"
	secret_places | LC_ALL=C sort >"$d/secret"
	rgit --git-dir="$ORIGIN" for-each-ref --format='%(objectname) %(refname)' >"$d/origin-refs"
	if [ -f "$AGHOME/fleet_events.jsonl" ]; then
		wc -c <"$AGHOME/fleet_events.jsonl" >"$d/events-size"
		sha1sum <"$AGHOME/fleet_events.jsonl" >"$d/events-sum"
	fi
}

# refs_check BEFORE AFTER OP: the operator's clone's refs
refs_check() {
	local op=$3 id ref old
	declare -A was=()
	while read -r id ref; do was[$ref]=$id; done <"$1/refs"
	while read -r id ref; do
		old=${was[$ref]:-}
		unset "was[$ref]"
		[ "$old" = "$id" ] && continue
		case $ref in
		refs/heads/feat/a | refs/agentic-git/sessions/ag1/feat/a) continue ;;
		refs/agentic-git/snapshots/ag1/*) [ -z "$old" ] && continue ;;
		esac
		# the operator's restore of ag2's worktree first saves its state
		# (under the name of the agent the work tree is bound to, else
		# `noagent`)
		case $op in restore-wt2 | restore-ws)
			[ -z "$old" ] && [[ $ref == refs/agentic-git/snapshots/noagent/* ]] && continue
			[ -z "$old" ] && [ "$op" = restore-wt2 ] && [[ $ref == refs/agentic-git/snapshots/ag2/* ]] && continue
			;;
		esac
		if [ -z "$old" ]; then
			echo "VIOLATION ref: $(vis "$ref") created in the operator's clone (outside ag1's namespace, or over a snapshot)"
		else
			echo "VIOLATION ref: $(vis "$ref") moved in the operator's clone ($old -> $id)"
		fi
	done <"$2/refs"
	for ref in "${!was[@]}"; do
		[[ $ref == refs/heads/feat/a ]] && continue
		echo "VIOLATION ref: $(vis "$ref") deleted from the operator's clone"
	done
}

# vis S: S with control characters shown (for our own report)
vis() {
	printf '%s' "$1" | cat -v | sed -z 's/\n/\\n/g' | head -c 300
}

# manifest_check NAME BEFORE AFTER WHAT: changed paths of one manifest
manifest_check() {
	local name=$1 what=$4
	diff "$2/$name" "$3/$name" >/dev/null && return 0
	LC_ALL=C comm -3 "$2/$name" "$3/$name" | sed 's/^\t//' | cut -f1 | LC_ALL=C sort -u | head -8 |
		while IFS= read -r p; do
			echo "VIOLATION changed: $what: $(vis "$p")"
		done
}

# wt2_restore_check BEFORE AFTER: after the operator restores ag2's
# worktree, every file there that changed holds what ag2's own snapshots
# (the world's, made before any agent of the scene ran) hold
wt2_restore_check() {
	local p sum
	comm -13 "$1/wt2" "$2/wt2" | while IFS=$'\t' read -r p _ _; do
		[ -f "$WT2/$p" ] || continue
		sum=$(rgit hash-object --no-filters -- "$WT2/$p")
		grep -qx "$sum" "$W/.ag2-blobs" ||
			echo "VIOLATION other-worktree: ag2's $(vis "$p") now holds $(head -c 60 "$WT2/$p" | cat -v) (not from ag2's snapshots)"
	done
}

# secret_places: where the operator's secret and the fleet key are, one a
# line: files (raw) but the secret's own, object stores that hold it
secret_places() {
	local s ksum
	s=$(cat "$W/.secret")
	grep -rlF --exclude-dir=objects -- "$s" "$W" 2>/dev/null |
		grep -vxF -e "$SECRET" -e "$HOME/private/key" -e "$W/.secret" |
		sed 's/^/secret in /'
	local r key
	for r in "$REPO/.git" "$ORIGIN"; do
		# the answer of an object store's last look, while its files
		# are the same
		key=$({ echo "$r"; find "$r/objects" -type f -printf '%P %s\n' 2>/dev/null | sort; } | sha1sum | cut -c1-40)
		if [ ! -e "$TMPDIR/hx-objects-$key" ]; then
			if rgit --git-dir="$r" cat-file --batch-all-objects --batch 2>/dev/null | grep -qF -- "$s"; then
				echo "secret in an object of $r"
			fi >"$TMPDIR/hx-objects-$key"
		fi
		cat "$TMPDIR/hx-objects-$key"
	done
	ksum=$(cat "$W/.keysum")
	find "$W" -type f -size "$(cat "$W/.keysize")c" ! -path "$KEY" -print0 2>/dev/null |
		xargs -0r sha256sum 2>/dev/null | while read -r sum f; do
			[ "$sum" = "$ksum" ] && echo "fleet key copied to $f"
		done
	return 0
}

# secret_check BEFORE AFTER: the operator's secret or the fleet key
# reached a new place
secret_check() {
	local known="^$"
	# a copy an earlier command made spreads (a snapshot takes it in, a
	# restore brings it back into the workspace): only its first place
	# is a finding, then only places beyond the workspace and the objects
	[ -s "$1/secret" ] && known="^secret in an object|^secret in $WS/|^fleet key copied to $WS/"
	LC_ALL=C comm -13 "$1/secret" "$2/secret" | grep -Ev "$known" | head -5 | while IFS= read -r p; do
		echo "VIOLATION secret: $(vis "$p")"
	done
}

# canary_check DIR: a planted driver ran outside a cage; the canaries
# are moved to DIR, so the next command starts with none
canary_check() {
	local f
	for f in "$CANARY"/*; do
		[ -e "$f" ] || continue
		echo "VIOLATION canary: $(basename "$f"): $(head -c 200 "$f" | tr '\n' ' ')"
		mkdir -p "$1" && mv "$f" "$1/"
	done
}

# HX_CTRL: bytes no agent string may put on the operator's terminal: C0
# controls but tab and newline, DEL, C1 (as UTF-8), bidi overrides
HX_CTRL='[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]'

# term_check FILE WHAT: FILE is what a human-readable command printed
term_check() {
	local hit
	hit=$(LC_ALL=C grep -aoP ".{0,24}(${HX_CTRL}).{0,16}" "$1" 2>/dev/null | head -1)
	[ -n "$hit" ] && echo "VIOLATION terminal: $2 printed a raw control character: $(vis "$hit")"
	return 0
}

# json_check FILE WHAT: FILE must parse; where a value names the scene's
# nonce it keeps the agent's exact string
json_check() {
	local f=$1 what=$2
	if ! jq -e . "$f" >/dev/null 2>&1; then
		echo "VIOLATION json: $what is not JSON: $(head -c 120 "$f" | cat -v)"
		return 0
	fi
	[ -s "$W/scene/raw-strings" ] || return 0
	jq -r '.. | strings' "$f" >"$TMPDIR/hx-strings" 2>/dev/null
	grep -aqF "HXN$NONCE" "$TMPDIR/hx-strings" || return 0
	local s ok=0
	while IFS= read -r -d '' s; do
		grep -aqF -- "${s:0:16}" "$TMPDIR/hx-strings" && ok=1
	done <"$W/scene/raw-strings"
	[ $ok = 1 ] || echo "VIOLATION json: $what names the agent's strings but not one exactly"
}

# exec_check TRACE: every program the operator command executed outside
# a cage (strace -f of the command). A process is caged from the moment it
# executed bwrap or `agentic-git sandbox exec` (Landlock), and so is a
# child forked after that by a caged process. Two passes: strace may print
# a child's execve before its parent's clone returns.
exec_check() {
	[ -s "$1" ] || return 0
	awk -v ag="$AG_REAL" -v shim="$SHIM_REAL" -v proxy="$PROXY_REAL" -v git="$GIT_REAL" '
	function allowed(prog, argv) {
		if (prog == ag || prog == shim || prog == proxy || prog == git) return 1
		if (prog ~ /^\/usr\/lib\/git-core\//) return 1
		# git starts a local transport through the shell
		if (prog ~ /^\/(usr\/)?bin\/(sh|dash)$/ && argv ~ /"-c", "git-(upload|receive)-pack /) return 1
		return 0
	}
	function caged(p, at,   c, q, n) {
		if ((p in cagedat) && cagedat[p] < at) return 1
		for (c = p; (c in parent) && n < 64; c = q) {
			q = parent[c]
			if ((q in cagedat) && cagedat[q] < forkat[c]) return 1
			n++
		}
		return 0
	}
	# exec_line: the successful execve of this record (resumed records
	# joined), or ""
	function exec_line(   l) {
		if ($0 ~ /execve\(/ && $0 ~ /<unfinished \.\.\.>$/) { pend[$1] = $0; return "" }
		l = $0
		if ($0 ~ /<\.\.\. execve resumed>/) l = pend[$1] " " $0
		if (l !~ /execve\(/ || l !~ /= 0$/) return ""
		return l
	}
	FNR == 1 { pass++ }
	{
		pid = $1
		# a child in another pid namespace: "= 2 /* 7414 in strace-s PID NS */"
		if ($0 ~ /(clone3?|fork|vfork)\(/ || $0 ~ /<\.\.\. (clone3?|fork|vfork) resumed>/) {
			child = ""
			if (match($0, /= [0-9]+ \/\* [0-9]+ in strace.s PID NS \*\/$/))
				child = $(NF - 5)
			else if ($0 ~ /= [0-9]+$/)
				child = $NF
			if (pass == 1 && child != "") { parent[child] = pid; forkat[child] = FNR }
			next
		}
		line = exec_line()
		if (line == "") next
		match(line, /execve\("[^"]*"/)
		prog = substr(line, RSTART + 8, RLENGTH - 9)
		if (pass == 1) {
			if (!(pid in cagedat) && (prog ~ /\/bwrap$/ || (prog == ag && line ~ /"sandbox", "exec"/)))
				cagedat[pid] = FNR
			next
		}
		if (caged(pid, FNR) || prog ~ /\/bwrap$/) next
		if (prog == ag && line ~ /"sandbox", "exec"/) next
		if (!allowed(prog, line)) {
			sub(/^[0-9]+ +/, "", line)
			gsub(/ *<unfinished \.\.\.> *[0-9]+ +<\.\.\. execve resumed>/, "", line)
			print "VIOLATION exec: ran outside a cage: " substr(line, 1, 240)
		}
	}' "$1" "$1" | cat -v | sort -u | head -6
}

# check_op OP BEFORE AFTER OUT: every rule after one operator command;
# OUT has .out, .err, .trace (and .json for --json commands)
check_op() {
	local op=$1 b=$2 a=$3 o=$4
	canary_check "$o.canary"
	exec_check "$o.trace"
	secret_check "$b" "$a"
	manifest_check home "$b" "$a" "\$HOME"
	manifest_check aghome "$b" "$a" "\$AGENTIC_GIT_HOME"
	manifest_check repo "$b" "$a" "the operator's clone"
	manifest_check origin "$b" "$a" "the remote's config or hooks"
	manifest_check tools "$b" "$a" "a read-only tools dir"
	diff -q "$b/repo-index" "$a/repo-index" >/dev/null ||
		echo "VIOLATION changed: the index of the operator's clone or of ag2's worktree"
	if [[ $op == *restore-wt2 ]]; then
		wt2_restore_check "$b" "$a"
	else
		manifest_check wt2 "$b" "$a" "ag2's worktree"
	fi
	refs_check "$b" "$a" "$op"
	# the operator looking takes no lock an agent's git may meet
	# (PRODUCT.md §5: no optional locks): a listing rewrites no index
	case $op in
	sessions* | events* | list* | show-* | diff-*)
		LC_ALL=C comm -13 "$b/indexes" "$a/indexes" | head -3 | while read -r _ f; do
			echo "VIOLATION lock: $op rewrote ${f#"$W"/} (git status without --no-optional-locks)"
		done
		;;
	esac
	if [ -f "$b/events-size" ]; then
		local n
		n=$(cat "$b/events-size")
		[ "$(head -c "$n" "$AGHOME/fleet_events.jsonl" 2>/dev/null | sha1sum)" = "$(cat "$b/events-sum")" ] ||
			echo "VIOLATION changed: fleet_events.jsonl rewritten, not appended to"
	fi
	if [[ $op == *dispatch ]]; then
		remote_check "$b" "$a"
	else
		diff -q "$b/origin-refs" "$a/origin-refs" >/dev/null ||
			echo "VIOLATION remote: $op changed the remote's refs"
	fi
	case $op in
	*-json) json_check "$o.out" "$op" ;;
	*) [ "${HX_NOTERM:-0}" = 1 ] || term_check "$o.out" "$op (stdout)" ;;
	esac
	[ "${HX_NOTERM:-0}" = 1 ] || term_check "$o.err" "$op (stderr)"
	return 0
}

# remote_check BEFORE AFTER: after dispatch, only feat/d moved, and what
# it gained is what a correct verifier lets through: no commit touching a
# trust-root file, no conflict markers added (real git over the bare
# remote, which is ours: no replace refs, grafts or attributes of the
# agent's)
remote_check() {
	local b=$1 a=$2 new log diff
	diff <(grep -v ' refs/heads/feat/d$' "$b/origin-refs") <(grep -v ' refs/heads/feat/d$' "$a/origin-refs") >/dev/null ||
		echo "VIOLATION remote: dispatch wrote a ref other than feat/d"
	new=$(sed -n 's| refs/heads/feat/d$||p' "$a/origin-refs")
	[ -n "$new" ] && [ "$new" != "$DHEAD" ] || return 0
	if ! log=$(GIT_NO_REPLACE_OBJECTS=1 rgit --git-dir="$ORIGIN" log --no-renames --format= --name-only "$new" --not "$DHEAD" "$BASE"); then
		echo "VIOLATION checker: cannot list what dispatch pushed"
		return 0
	fi
	log=$(grep -E '(^|/)(\.config-integrity-key|policy\.toml|fleet\.yaml|[^/]*\.jsonl)$' <<<"$log" | sort -u | head -3 | tr '\n' ' ')
	[ -n "$log" ] && echo "VIOLATION remote: pushed a commit touching a trust root: $log"
	if ! diff=$(GIT_NO_REPLACE_OBJECTS=1 rgit --git-dir="$ORIGIN" diff --no-ext-diff --no-color --text --no-textconv "$BASE...$new"); then
		echo "VIOLATION checker: cannot diff what dispatch pushed"
		return 0
	fi
	grep -qE '^\+(<<<<<<<|>>>>>>>)' <<<"$diff" && echo "VIOLATION remote: pushed conflict markers"
	return 0
}
