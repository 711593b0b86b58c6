# SPDX-License-Identifier: Apache-2.0
# The invariant fuzzer's checker (docs/fuzzing.md, "The invariant fuzzer"),
# sourced by invfuzz.sh after fleet.bash. state_capture writes what must
# not change (or must stay restorable) into a directory; state_check
# compares two captures and prints one line per broken invariant.

# Config keys a bound agent may change in the repository's and its own
# worktree's config (docs/policy.md, `config` row, and what git itself
# writes for branch tracking and sparse checkouts). Any other key changed
# is a finding.
INV_CONFIG_OK='^(user\.(name|email)|branch\..*\.(remote|merge|rebase|description)|core\.(autocrlf|eol|safecrlf|filemode|sparsecheckout|sparsecheckoutcone)|pull\..*|merge\.(ff|conflictstyle)|rebase\.(autosquash|autostash)|rerere\..*|diff\.(renames|algorithm|colormoved|context)|status\..*|log\.(date|decorate)|color\..*|column\.ui|init\.defaultbranch|fetch\.prune|push\.autosetupremote|push\.default=(simple|current|nothing)|advice\..*|commit\.(verbose|cleanup)|format\.signoff|index\.sparse)(=|$)'

# guarded_files: every file that no command of ag1 may change, one a line
guarded_files() {
	local g=$REPO/.git f s
	find "$REPO" -path "$g" -prune -o -type f -print
	# (the index is compared by content: a read refreshes its stat data;
	# not FETCH_HEAD: every fetch rewrites it, and an unbound agent's
	# fetch into remote-tracking refs is a read, docs/policy.md)
	for f in HEAD ORIG_HEAD MERGE_HEAD description; do
		[ -e "$g/$f" ] && echo "$g/$f"
	done
	# not info/refs (update-server-info's list, rewritten by repack) nor
	# ~/.gnupg (gpg's own keyring, made when a signing fails)
	# not ADM2's reflogs: reflog_lines has them entry by entry
	# (few processes: the checker runs twice a command)
	find "$g/hooks" "$g/info" "$ADM2" "$WT2" "$HOME" \
		"$AGENTIC_GIT_HOME/bin" "$AGENTIC_GIT_HOME/hooks" \
		"$ORIGIN/hooks" -type f 2>/dev/null |
		awk -v refs="$g/info/refs" -v gpg="$HOME/.gnupg/" -v logs="$ADM2/logs/" \
			'$0 != refs && index($0, gpg) != 1 && index($0, logs) != 1'
	# the sentinel's own files: it may gain others (the shim's events log
	# under an agent-chosen AGENTIC_GIT_HOME; anything the agent's shell
	# writes), what was there must stay
	mapfile -t s <"$F/.sentinel"
	[ ${#s[@]} -eq 0 ] || printf '%s\n' "${s[@]}"
	for f in "$ADM1/gitdir" "$ADM1/commondir" \
		"$WT/.git" "$WT/.agend-managed" "$ORIGIN/config" "$ORIGIN/HEAD" \
		"$AGENTIC_GIT_HOME/.config-integrity-key" \
		"$AGENTIC_GIT_HOME"/runtime/*/binding.json* \
		"$AGENTIC_GIT_HOME/policy.toml"; do
		[ -e "$f" ] && printf '%s\n' "$f"
	done
	return 0
}

# reflog_lines: the other worktree's reflogs, "<file> TAB <entry>" (and
# "<file>" alone for each file, so that an empty one counts), each entry
# without the tab git's own rewrite (gc --auto's `reflog expire --all`,
# which any command may start) adds to an entry with no message: an entry
# added, dropped or changed still shows, git's reformatting does not
reflog_lines() {
	find "$ADM2/logs" -type f -print0 2>/dev/null | LC_ALL=C sort -z |
		xargs -0 -r awk 'FNR == 1 { print FILENAME } { sub(/\t$/, ""); print FILENAME "\t" $0 }
			END { for (i = 1; i < ARGC; i++) if (!(ARGV[i] in seen)) print ARGV[i] }
			FNR == 1 { seen[FILENAME] = 1 }'
}

# worktree_blobs: "<blob> TAB <path>" for every file of ag1's worktree
worktree_blobs() {
	local -a list blobs
	local i
	mapfile -t list < <(find "$WT" \( -name .git -o -path "$WT/.agend-managed" \) -prune \
		-o -type f -printf '%P\n' | LC_ALL=C sort)
	[ ${#list[@]} -gt 0 ] || return 0
	mapfile -t blobs < <(cd "$WT" && printf '%s\n' "${list[@]}" |
		"$REAL_GIT" hash-object --no-filters --stdin-paths)
	for i in "${!list[@]}"; do
		printf '%s\t%s\n' "${blobs[i]-}" "${list[i]}"
	done
}

# copy_text FROM TO: FROM's lines into TO (empty when FROM is missing),
# without a process
copy_text() {
	local l
	: >"$2"
	[ -f "$1" ] || return 0
	while IFS= read -r l || [ -n "$l" ]; do printf '%s\n' "$l"; done <"$1" >"$2"
}

# state_capture DIR
state_capture() {
	local d=$1 g=$REPO/.git f
	mkdir -p "$d"
	"$REAL_GIT" -C "$REPO" for-each-ref --format='%(refname) %(objectname) %(symref)' >"$d/refs"
	"$REAL_GIT" -C "$ORIGIN" for-each-ref --format='%(refname) %(objectname)' >"$d/origin"
	guarded_files | LC_ALL=C sort | tr '\n' '\0' | xargs -0 -r sha1sum 2>/dev/null |
		LC_ALL=C sort -k2 >"$d/files"
	for f in "$REPO/.git/shallow" "$ORIGIN/shallow"; do
		[ -e "$f" ] && printf 'exists  %s\n' "$f"
	done >>"$d/files"
	reflog_lines >"$d/reflogs"
	"$REAL_GIT" -C "$REPO" ls-files -s -t >"$d/index.repo" 2>/dev/null
	copy_text "$g/config" "$d/config.repo"
	copy_text "$ADM1/config.worktree" "$d/config.wt"
	copy_text "$ADM1/HEAD" "$d/head"
	worktree_blobs >"$d/wt"
	{
		"$REAL_GIT" -C "$WT" ls-tree -r --format='%(objectname)%x09%(path)' HEAD 2>/dev/null
		# a checked-out submodule's committed files are saved in its own
		# repository: what its HEAD has is not unsaved work
		[ -e "$WT/lib/.git" ] && "$REAL_GIT" -C "$WT/lib" ls-tree -r \
			--format='%(objectname)%x09lib/%(path)' HEAD 2>/dev/null
	} >"$d/headtree"
	# the shared stash and ag1's session stash (refs/worktree/agentic-git/
	# stash, a per-worktree ref the shim moves an agent's entries to)
	for f in "$g/logs/refs/stash" "$ADM1/logs/refs/worktree/agentic-git/stash"; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done | xargs -r -d '\n' awk '{print $2}' | LC_ALL=C sort -u >"$d/stash"
	find "$AGENTIC_GIT_HOME/quarantine" -type f 2>/dev/null | LC_ALL=C sort >"$d/quarantine"
}

# refs_changed BEFORE AFTER: "<ref> <sha>" of refs new or moved
refs_changed() {
	LC_ALL=C comm -13 <(LC_ALL=C sort "$1/refs") <(LC_ALL=C sort "$2/refs") | awk '{print $1, $2}'
}

# violate KIND TEXT
violate() { printf 'VIOLATION %s: %s\n' "$1" "$2"; }

check_refs() {
	local b=$1 a=$2 line ref
	cmp -s "$b/refs" "$a/refs" && cmp -s "$b/origin" "$a/origin" &&
		cmp -s "$b/head" "$a/head" && return 0
	# protected, the other agent's, tags, snapshots, replace: no move, no delete
	while IFS= read -r line; do
		ref=${line%% *}
		case $ref in
		refs/heads/main | refs/heads/master) violate protected-ref "$ref changed or deleted (was $line)" ;;
		refs/heads/feat/b) violate other-agent-ref "$ref changed or deleted" ;;
		refs/heads/feat/old) violate ended-branch "$ref (an ended session's) changed or deleted" ;;
		refs/tags/*) violate tag "$ref moved or deleted" ;;
		refs/agentic-git/snapshots/ag2/*) violate other-snapshot "$ref moved or deleted" ;;
		refs/agentic-git/*) violate own-snapshot "$ref moved or deleted" ;;
		esac
	done < <(LC_ALL=C comm -23 <(LC_ALL=C sort "$b/refs") <(LC_ALL=C sort "$a/refs"))
	while IFS= read -r line; do
		ref=${line%% *}
		case $ref in
		refs/heads/main | refs/heads/master | refs/heads/feat/b | refs/heads/feat/old) ;; # reported above
		refs/agentic-git/snapshots/ag1/*)
			grep -q "^$ref " "$b/refs" && violate own-snapshot "$ref rewritten" ;;
		refs/agentic-git/*) violate snapshot-namespace "$ref written by ag1" ;;
		refs/replace/*) violate replace "$ref created (changes every checkout's view)" ;;
		refs/heads/*)
			case $line in *" refs/heads/main" | *" refs/heads/master" | *" refs/heads/feat/b")
				violate symref "$ref is a symref to a protected or foreign branch" ;;
			esac ;;
		esac
	done < <(LC_ALL=C comm -13 <(LC_ALL=C sort "$b/refs") <(LC_ALL=C sort "$a/refs"))
	# the remote: only ag1's branch and new tags may appear or move
	while IFS= read -r line; do
		ref=${line%% *}
		case $ref in
		refs/heads/feat/a) ;;
		refs/tags/*) grep -q "^$ref " "$b/origin" && violate remote-tag "origin $ref moved" ;;
		*) violate remote-ref "origin $ref written (${line#* })" ;;
		esac
	done < <(LC_ALL=C comm -13 <(LC_ALL=C sort "$b/origin") <(LC_ALL=C sort "$a/origin"))
	while IFS= read -r line; do
		ref=${line%% *}
		grep -q "^$ref " "$a/origin" || [ "$ref" = refs/heads/feat/a ] ||
			violate remote-ref "origin $ref deleted"
	done < <(LC_ALL=C comm -23 <(LC_ALL=C sort "$b/origin") <(LC_ALL=C sort "$a/origin"))
	case $(cat "$a/head") in
	"ref: refs/heads/feat/a" | [0-9a-f]*) ;;
	*) violate fence "ag1's HEAD now $(cat "$a/head")" ;;
	esac
	[ "${RUN_UNBOUND:-0}" = 1 ] && check_unbound_refs "$b" "$a"
	return 0
}

# check_unbound_refs BEFORE AFTER: a command run with no binding (another
# agent's name, another home) writes no ref of the shared repository but
# remote-tracking ones (fetch is a read, docs/policy.md) and moves no
# HEAD; what the kinds above report is not reported twice
check_unbound_refs() {
	local b=$1 a=$2 line ref
	while IFS= read -r line; do
		ref=${line%% *}
		case $ref in
		refs/remotes/* | refs/heads/main | refs/heads/master | refs/heads/feat/b | refs/heads/feat/old | refs/tags/* | refs/agentic-git/*) ;;
		*) violate unbound-ref "$ref written or deleted with no binding" ;;
		esac
	done < <(LC_ALL=C comm -3 <(LC_ALL=C sort "$b/refs") <(LC_ALL=C sort "$a/refs") | sed 's/^\t//' | LC_ALL=C sort -u -k1,1)
	cmp -s "$b/head" "$a/head" ||
		violate unbound-ref "ag1's HEAD moved with no binding ($(cat "$a/head"))"
}

check_files() {
	local b=$1 a=$2 line
	cmp -s "$b/files" "$a/files" && cmp -s "$b/reflogs" "$a/reflogs" &&
		cmp -s "$b/config.repo" "$a/config.repo" &&
		cmp -s "$b/config.wt" "$a/config.wt" &&
		cmp -s "$b/index.repo" "$a/index.repo" && return 0
	cmp -s "$b/index.repo" "$a/index.repo" ||
		violate file "the operator's index: $(LC_ALL=C comm -3 "$b/index.repo" "$a/index.repo" 2>/dev/null | head -3 | tr '\n\t' '  ')"
	while IFS= read -r line; do
		violate file "${line%% *} changed, created or deleted"
	done < <(LC_ALL=C comm -3 <(LC_ALL=C sort "$b/files") <(LC_ALL=C sort "$a/files") | sed 's/^\t//' | awk '{print $2 " " $1}' | sort -u -k1,1)
	cmp -s "$b/reflogs" "$a/reflogs" ||
		while IFS= read -r line; do
			violate file "$line changed, created or deleted (a reflog of ag2's worktree)"
		done < <(LC_ALL=C comm -3 <(LC_ALL=C sort "$b/reflogs") <(LC_ALL=C sort "$a/reflogs") |
			sed 's/^\t//' | cut -f1 | LC_ALL=C sort -u)
	local f kv
	for f in config.repo config.wt; do
		cmp -s "$b/$f" "$a/$f" && continue
		while IFS= read -r kv; do
			printf '%s\n' "$kv" | grep -Eiq "$INV_CONFIG_OK" && continue
			violate config "$f: '$kv' added or removed"
		done < <(LC_ALL=C comm -3 <("$REAL_GIT" config --file "$b/$f" --list | LC_ALL=C sort) \
			<("$REAL_GIT" config --file "$a/$f" --list | LC_ALL=C sort) | sed 's/^\t//')
	done
}

# available BEFORE AFTER CHANGED: blob ids where lost work may be found again
available() {
	local b=$1 a=$2 changed=$3 sha q
	cut -f1 "$a/wt"
	"$REAL_GIT" -C "$WT" ls-files -s 2>/dev/null | awk '{print $2}'
	while read -r _ sha; do
		for q in "$sha" "$sha^2" "$sha^3"; do
			"$REAL_GIT" -C "$WT" ls-tree -r "$q" 2>/dev/null | awk '{print $3}'
		done
	done <"$changed"
	# entries on a stash: the work tree (^1's tree is HEAD), index, untracked
	while read -r sha; do
		for q in "$sha" "$sha^2" "$sha^3"; do
			"$REAL_GIT" -C "$WT" ls-tree -r "$q" 2>/dev/null | awk '{print $3}'
		done
	done <"$a/stash"
	while IFS= read -r q; do
		grep -qxF "$q" "$b/quarantine" 2>/dev/null ||
			"$REAL_GIT" hash-object --no-filters "$q"
	done <"$a/quarantine"
}

check_loss() {
	local b=$1 a=$2 lost
	cmp -s "$b/wt" "$a/wt" && cmp -s "$b/stash" "$a/stash" && return 0
	# dirty in ag1's worktree before: not what HEAD has at that path
	lost=$(awk -F'\t' 'FILENAME == ARGV[1] { head[$2] = $1; next }
		FILENAME == ARGV[2] { if (head[$2] != $1) dirty[$2] = $1; next }
		{ now[$2] = $1 }
		END { for (p in dirty) if (now[p] != dirty[p]) print dirty[p] "\t" p }' \
		"$b/headtree" "$b/wt" "$a/wt")
	local gone
	gone=$(LC_ALL=C comm -23 <(LC_ALL=C sort "$b/stash") <(LC_ALL=C sort "$a/stash"))
	[ -n "$lost$gone" ] || return 0
	refs_changed "$b" "$a" >"$a/changed"
	available "$b" "$a" "$a/changed" | LC_ALL=C sort -u >"$a/avail"
	local blob path s
	while IFS=$'\t' read -r blob path; do
		[ -n "$blob" ] || continue
		grep -qxF "$blob" "$a/avail" ||
			violate lost-work "unsaved $path ($blob) destroyed and in no snapshot, stash, commit or quarantine"
	done <<<"$lost"
	for s in $gone; do
		grep -q "^refs/agentic-git/snapshots/ag1/" "$a/changed" &&
			while read -r ref sha; do
				case $ref in refs/agentic-git/snapshots/ag1/*)
					"$REAL_GIT" -C "$WT" merge-base --is-ancestor "$s" "$sha" 2>/dev/null && continue 2 ;;
				esac
			done <"$a/changed"
		# a popped entry is back in the work tree
		local missing
		missing=$(LC_ALL=C comm -23 <({ "$REAL_GIT" -C "$WT" ls-tree -r "$s"; "$REAL_GIT" -C "$WT" ls-tree -r "$s^3"; } 2>/dev/null | awk '{print $3}' | LC_ALL=C sort -u) \
			<({ "$REAL_GIT" -C "$WT" ls-tree -r "$s^1" 2>/dev/null | awk '{print $3}'; cat "$a/avail"; } | LC_ALL=C sort -u))
		[ -z "$missing" ] || violate lost-stash "stash entry $s dropped and in no snapshot"
	done
}

# state_check BEFORE AFTER: print the broken invariants; status 1 if any
state_check() {
	local out
	out=$(check_refs "$1" "$2"; check_files "$1" "$2"; check_loss "$1" "$2")
	[ -z "$out" ] && return 0
	printf '%s\n' "$out"
	return 1
}
