#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The invariant fuzzer (docs/fuzzing.md, "The invariant fuzzer"): generates
# git command lines, runs each through the shim as bound agent ag1 in a
# scratch fleet, and checks after every one that nothing it may not touch
# changed and that no unsaved work was lost beyond a snapshot's reach.
#
#   invfuzz.sh -o DIR [-s SEED] [-n COUNT | -t SECONDS]    generate and run
#   invfuzz.sh -o DIR --replay FILE...                       replay corpus files
#
# AG_BIN is the agentic-git under test (the shim agentic-git-shim beside it).
# Everything runs in a throwaway bubblewrap sandbox: the root read-only, only
# DIR writable, no network, HOME inside DIR. Findings go to DIR/findings/,
# one file per distinct finding, minimised; DIR/log has one line a command.
# Exit 0 no finding, 1 findings, 2 usage or setup error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: invfuzz.sh -o DIR [-s SEED] [-n COUNT | -t SECONDS] [--expect-violations] [--replay FILE...]" >&2; exit 2; }

seed=1 count=200 seconds=0 out="" replay=0 expect=0
while [ $# -gt 0 ]; do
	case $1 in
	-s) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	-n) [ $# -ge 2 ] || usage; count=$2; shift 2 ;;
	-t) [ $# -ge 2 ] || usage; seconds=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	--expect-violations) expect=1; shift ;;
	--replay) replay=1; shift; break ;;
	*) usage ;;
	esac
done
for n in "$seed" "$count" "$seconds"; do
	[[ $n =~ ^[0-9]{1,9}$ ]] || { echo "invfuzz: not a number: '$n'" >&2; exit 2; }
done
[ -n "$out" ] || usage
: "${AG_BIN:?invfuzz: AG_BIN must point at the agentic-git binary}"
[ -x "$AG_BIN" ] || { echo "invfuzz: no agentic-git at '$AG_BIN'" >&2; exit 2; }

if [ "${INV_INSIDE:-}" != 1 ]; then
	for f in "$@"; do [ -f "$f" ] || { echo "invfuzz: no corpus file '$f'" >&2; exit 2; }; done
	mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
	# corpus files by absolute path: the cage keeps them readable
	files=()
	for f in "$@"; do files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
	AG_BIN=$(cd "$(dirname "$AG_BIN")" && pwd)/$(basename "$AG_BIN")
	command -v bwrap >/dev/null || { echo "invfuzz: bubblewrap is needed (the fuzzer never runs uncaged)" >&2; exit 2; }
	args=(-o "$out" -s "$seed" -n "$count" -t "$seconds")
	[ $expect = 1 ] && args+=(--expect-violations)
	[ $replay = 1 ] && args+=(--replay "${files[@]}")
	# the corpus files stay readable in the cage, wherever they are
	binds=()
	for f in "${files[@]}"; do binds+=(--ro-bind "$(dirname "$f")" "$(dirname "$f")"); done
	exec bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp \
		--ro-bind "$here" "$here" --ro-bind "$(dirname "$AG_BIN")" "$(dirname "$AG_BIN")" \
		"${binds[@]}" \
		--bind "$out" "$out" --unshare-net --unshare-pid --unshare-ipc \
		--die-with-parent --setenv INV_INSIDE 1 \
		--setenv AG_BIN "$AG_BIN" \
		-- /bin/bash "$here/invfuzz.sh" "${args[@]}"
	exit 2
fi

REAL_GIT=${REAL_GIT:-$(command -v git)}
F=$out/fleet
export REAL_GIT F
# shellcheck source=fleet.bash
. "$here/fleet.bash"
# shellcheck source=state.bash
. "$here/state.bash"

# optlist: git's own option lists, from -h and --git-completion-helper
optlist() {
	local skip=" credential-cache--daemon daemon instaweb web--browse fsmonitor--daemon http-backend upload-pack receive-pack shell upload-archive--writer remote-fd remote-ext "
	local c
	for c in $(cd "$REPO" && "$REAL_GIT" --list-cmds=main); do
		# servers and daemons are generated bare (the policy denies them;
		# asked for -h some would start); filter-branch sleeps ten
		# seconds before it answers -h
		if [[ $skip == *" $c "* ]] || [ "$c" = filter-branch ]; then
			printf '%s\t\t\t0\n' "$c"
			continue
		fi
		{
			(cd "$REPO" && timeout 10 "$REAL_GIT" "$c" -h </dev/null 2>&1)
			echo "@helper"
			(cd "$REPO" && timeout 10 "$REAL_GIT" "$c" --git-completion-helper </dev/null 2>/dev/null)
		} | awk -v cmd="$c" -f "$here/optlist.awk"
	done
}

log() { printf '%s\n' "$*" >>"$out/log"; }

# try LINE I: one command with a fresh dirty state; the broken invariants
# go to $out/st/v (empty when none), LAST_RC and LAST_DENIED are set
try() {
	local line=$1 i=$2 rc
	fleet_dirty "$i"
	if [ "${STALE:-1}" = 0 ] && [ -d "$out/st/after" ]; then
		# nothing but ag1's files changed since the last capture
		rm -rf "$out/st/before" && mv "$out/st/after" "$out/st/before"
		worktree_blobs >"$out/st/before/wt"
	else
		rm -rf "$out/st" && state_capture "$out/st/before"
	fi
	STALE=0
	run_line "$line" "$out/st/output"
	rc=$?
	state_capture "$out/st/after"
	state_check "$out/st/before" "$out/st/after" >"$out/st/v"
	if grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer' "$out/st/output"; then
		echo "VIOLATION sanitizer: $(grep -m1 'ERROR\|runtime error' "$out/st/output")" >>"$out/st/v"
	fi
	LAST_RC=$rc
	LAST_DENIED=0
	grep -q '^agentic-git: ERROR git ' "$out/st/output" && LAST_DENIED=1
	return 0
}

# minimise LINE: drop tokens while the line still breaks an invariant alone
minimise() {
	local line=$1 n tried=0 j cand
	local -a t
	IFS=$'\t' read -r -a t <<<"$line"
	for ((j = ${#t[@]} - 1; j >= 0 && tried < 24; j--)); do
		[ "${t[j]}" = git ] && continue
		cand=$(printf '%s\t' "${t[@]:0:j}" "${t[@]:j+1}")
		cand=${cand%$'\t'}
		[[ $cand == *git* ]] || continue
		tried=$((tried + 1))
		fleet_reset
		try "$cand" 0
		if [ -s "$out/st/v" ]; then
			line=$cand
			IFS=$'\t' read -r -a t <<<"$line"
		fi
	done
	printf '%s\n' "$line"
}

nfind=0
declare -A seen
# finding LINE I VIOLATIONS: keep one file per distinct (invariant, subcommand)
finding() {
	local line=$1 i=$2 v=$3 kind sub key alone min
	kind=$(sed -n '1s/^VIOLATION \([^:]*\):.*/\1/p' <<<"$v")
	sub=$(awk -F'\t' '{for (k = 1; k <= NF; k++) if ($k == "git") { print $(k + 1); exit }}' <<<"$line")
	key="$kind.$sub"
	nfind=$((nfind + 1))
	[ -n "${seen[$key]:-}" ] && { log "  (same as ${seen[$key]})"; return; }
	seen[$key]=$i
	mkdir -p "$out/findings"
	fleet_reset
	try "$line" "$i"
	alone=$(cat "$out/st/v")
	min=$line
	[ -n "$alone" ] && [ "${INV_MINIMISE:-1}" = 1 ] && min=$(minimise "$line")
	{
		echo "# invariant fuzzer finding: seed $seed, command $i"
		sed 's/^/# /' <<<"$v"
		[ -n "$alone" ] || echo "# (does not reproduce alone in a fresh fleet; the commands before it follow)"
		[ -n "$alone" ] || sed 's/^/# before: /' "$out/recent"
		sed 's/^/# output: /' "$out/finding-output" 2>/dev/null | head -40
		echo "# original: $line"
		printf '%s\n' "$min"
	} >"$out/findings/$(printf '%04d' "$i")-$kind.cmds"
}

fleet_make >"$out/setup.log" 2>&1 || { echo "invfuzz: cannot build the scratch fleet (see $out/setup.log)" >&2; exit 2; }
: >"$out/log"
if [ $replay = 1 ]; then
	fails=0
	for f in "$@"; do
		fleet_reset
		[ -r "$f" ] || { echo "not ok $(basename "$f") (unreadable in the cage)"; fails=$((fails + 1)); continue; }
		i=0 bad=0
		while IFS= read -r line; do
			case $line in '' | '#'*) continue ;; esac
			i=$((i + 1))
			[ $expect = 1 ] && fleet_reset
			try "$line" "$i"
			v=$(cat "$out/st/v")
			log "$(basename "$f"):$i rc=$LAST_RC denied=$LAST_DENIED ${v:+VIOLATION}	$line"
			if [ $expect = 1 ]; then
				[ -n "$v" ] || { bad=1; log "  expected a violation, found none"; }
				log "$v"
			elif [ -n "$v" ]; then
				bad=1; log "$v"; sed 's/^/    /' "$out/st/output" | head -20 >>"$out/log"
			fi
		done <"$f"
		if [ $bad = 1 ]; then
			fails=$((fails + 1)); echo "not ok $(basename "$f")"
		else
			echo "ok $(basename "$f")"
		fi
	done
	[ $fails = 0 ]
	exit $?
fi

optlist >"$out/optlist.tsv" 2>"$out/optlist.err"
[ -s "$out/optlist.tsv" ] || { echo "invfuzz: git printed no option lists" >&2; exit 2; }
start=$(date +%s) i=0 batch=100
: >"$out/recent"
while :; do
	awk -v seed="$seed" -v start="$i" -v count=$batch -f "$here/gen.awk" "$out/optlist.tsv" >"$out/batch" || exit 2
	while IFS= read -r line; do
		if [ "$seconds" -gt 0 ]; then
			[ $(($(date +%s) - start)) -lt "$seconds" ] || break 2
		else
			[ "$i" -lt "$count" ] || break 2
		fi
		[ $((i % 20)) = 19 ] && fleet_tidy
		try "$line" "$i"
			v=$(cat "$out/st/v")
		log "$i rc=$LAST_RC denied=$LAST_DENIED ${v:+VIOLATION}	$line"
		if [ -n "$v" ]; then
			log "$v"
			cp "$out/st/output" "$out/finding-output"
			finding "$line" "$i" "$v"
			fleet_reset
			: >"$out/recent"
		fi
		{ tail -n 9 "$out/recent"; printf '%s\n' "$line"; } >"$out/recent.new" && mv "$out/recent.new" "$out/recent"
		i=$((i + 1))
	done <"$out/batch"
done
echo "invfuzz: seed $seed, $i commands, $nfind violating ($(ls "$out/findings" 2>/dev/null | wc -l) distinct) in $(($(date +%s) - start)) s"
[ $nfind = 0 ]
