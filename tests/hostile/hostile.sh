#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The hostile-workspace fuzzer (docs/fuzzing.md, "The hostile-workspace
# fuzzer"; issue 32, point 6): generates what a caged agent can leave
# behind, lets a sandboxed agent plant it, runs every operator command
# over it outside the cage, and checks after each that nothing ran
# uncaged, nothing outside the workspace changed and nothing was pushed
# that the verifier should have stopped.
#
#   hostile.sh --print SEED                        print the scene of SEED
#   hostile.sh -o DIR [-s SEED] [-n COUNT | -t SECONDS]
#                                                  scenes SEED, SEED+1, …
#   hostile.sh -o DIR --replay FILE…               corpus scenes
#   hostile.sh -o DIR --smoke                      CI: corpus + fixed seeds
#   hostile.sh -o DIR --selftest                   the checker sees harm
#
# Output is TAP, a line per scene (a corpus scene with a `known` line that
# still fails is `not ok … # TODO`). AG_BIN is the agentic-git under test.
# Everything runs in a throwaway bubblewrap sandbox: the root read-only,
# only DIR writable, no network; HOME, AGENTIC_GIT_HOME and /tmp are
# scratch. DIR/scenes/<n>/ keeps each scene's commands, outputs, traces
# and log; DIR/findings/ one file per distinct finding, minimised.
# Exit 0 nothing found, 1 findings, 2 usage or setup error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
usage() {
	echo "usage: hostile.sh --print SEED | -o DIR [-s SEED] [-n COUNT | -t SECONDS] [--replay FILE... | --smoke | --selftest]" >&2
	exit 2
}
# shellcheck source=gen.bash
. "$here/gen.bash"

seed=1 count=20 seconds=0 out="" mode=gen
while [ $# -gt 0 ]; do
	case $1 in
	--print) [ $# -ge 2 ] || usage; [[ $2 =~ ^[0-9]{1,9}$ ]] || { echo "hostile: not a number: '$2'" >&2; exit 2; }
		gen_scene "$2"; exit 0 ;;
	-s) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	-n) [ $# -ge 2 ] || usage; count=$2; shift 2 ;;
	-t) [ $# -ge 2 ] || usage; seconds=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	--smoke) mode=smoke; shift ;;
	--selftest) mode=selftest; shift ;;
	--replay) mode=replay; shift; break ;;
	*) usage ;;
	esac
done
for n in "$seed" "$count" "$seconds"; do
	[[ $n =~ ^[0-9]{1,9}$ ]] || { echo "hostile: not a number: '$n'" >&2; exit 2; }
done
[ -n "$out" ] || usage
[ $mode != replay ] || [ $# -gt 0 ] || usage
: "${AG_BIN:?hostile: AG_BIN must point at the agentic-git binary}"
[ -x "$AG_BIN" ] || { echo "hostile: no agentic-git at '$AG_BIN'" >&2; exit 2; }

if [ "${HX_INSIDE:-}" != 1 ]; then
	for f in "$@"; do [ -f "$f" ] || { echo "hostile: no scene file '$f'" >&2; exit 2; }; done
	command -v bwrap >/dev/null || { echo "hostile: bubblewrap is needed (the fuzzer never runs uncaged)" >&2; exit 2; }
	if [ "${HX_STRACE:-1}" = 1 ] && ! command -v strace >/dev/null; then
		echo "hostile: strace is needed for the exec monitor (HX_STRACE=0 runs without it)" >&2
		exit 2
	fi
	mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
	# the run reads its own copy of the fuzzer: bash reads a script as
	# it runs it, and an edit of the tree must not change a long run
	rm -rf "$out/src" && cp -a "$here" "$out/src" || exit 2
	here=$out/src
	files=()
	for f in "$@"; do files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
	AG_BIN=$(cd "$(dirname "$AG_BIN")" && pwd)/$(basename "$AG_BIN")
	args=(-o "$out" -s "$seed" -n "$count" -t "$seconds")
	case $mode in
	smoke) args+=(--smoke) ;;
	selftest) args+=(--selftest) ;;
	replay) args+=(--replay "${files[@]}") ;;
	esac
	binds=()
	for f in "${files[@]}"; do binds+=(--ro-bind "$(dirname "$f")" "$(dirname "$f")"); done
	# /proc is the host's, bound, in the host's pid namespace: agentic-git's
	# own bubblewrap inside must mount a fresh one, which the kernel
	# refuses under a proc mount with covered parts (bwrap's --proc), and
	# reads /proc/<pid> of the children it makes
	exec bwrap --ro-bind / / --dev /dev --bind /proc /proc --tmpfs /tmp \
		--ro-bind "$here" "$here" --ro-bind "$(dirname "$AG_BIN")" "$(dirname "$AG_BIN")" \
		"${binds[@]}" --bind "$out" "$out" \
		--unshare-net --unshare-ipc --die-with-parent \
		--setenv HX_INSIDE 1 --setenv AG_BIN "$AG_BIN" \
		-- /bin/bash "$here/hostile.sh" "${args[@]}"
	exit 2
fi

export HX=$here
REAL_GIT=${REAL_GIT:-$(command -v git)}
AG_REAL=$(readlink -f "$AG_BIN")
SHIM_REAL=$(readlink -f "$(dirname "$AG_BIN")/agentic-git-shim")
# fs+api's proxy, which runs outside the cage by design
PROXY_REAL=$(readlink -f "$(dirname "$AG_BIN")/agentic-git-proxy")
GIT_REAL=$(readlink -f "$REAL_GIT")
W=$out/world
export REAL_GIT W
mkdir -p "$out/tmp"
export TMPDIR=$out/tmp
for f in world check ops selftest; do
	bash -n "$here/$f.bash" || { echo "hostile: $f.bash does not parse" >&2; exit 2; }
done
# shellcheck source=world.bash
. "$here/world.bash"
# shellcheck source=check.bash
. "$here/check.bash"
# shellcheck source=ops.bash
. "$here/ops.bash"
# shellcheck source=selftest.bash
. "$here/selftest.bash"

tap_n=0 fails=0 nknown=0
# tap OK LABEL [DETAIL] [KNOWN]: one TAP line
tap() {
	local ok=$1 label=$2 detail=${3:-} k=${4:-}
	# a violation may quote an agent's string: no '#' (a TAP directive)
	detail=${detail//#/%23}
	if [ -n "${HX_RECORD:-}" ]; then
		# in a worker: the parent numbers and prints it
		# (fields split by US, not a tab: read merges empty tab fields)
		printf '%s\037%s\037%s\037%s\n' "$ok" "$label" "$detail" "$k" >>"$HX_RECORD"
		return 0
	fi
	tap_n=$((tap_n + 1))
	if [ "$ok" = 1 ]; then
		if [ -n "$k" ]; then
			echo "ok $tap_n - $label # TODO known ($k) no longer found: make the scene a regression"
		else
			echo "ok $tap_n - $label"
		fi
	elif [ -n "$k" ]; then
		nknown=$((nknown + 1))
		echo "not ok $tap_n - $label: $detail # TODO known finding $k"
	else
		fails=$((fails + 1))
		echo "not ok $tap_n - $label: $detail"
	fi
}

# cover KNOWN VIOLATIONS: for each violation, "covered ID" when a `known
# ID KINDS OPS TEXT` line of KNOWN names its kind and command (KINDS and
# OPS comma-separated, OPS globs; a kind `kind~word` only when the
# violation says word), else "uncovered <the violation>"
cover() {
	local v kind op id kinds ops by k o
	while IFS= read -r v; do
		kind=${v#VIOLATION }
		op=${kind#* [}
		op=${op%%]*}
		kind=${kind%% *}
		by=""
		while read -r _ id kinds ops _; do
			for k in ${kinds//,/ }; do
				for o in ${ops//,/ }; do
					# shellcheck disable=SC2053
					if [ "${k%%~*}" = "$kind" ] && [[ $op == $o ]] &&
						{ [[ $k != *~* ]] || [[ $v == *"${k#*~}"* ]]; }; then
						by=$id
					fi
				done
			done
		done < <(grep '^known ' "$1")
		if [ -n "$by" ]; then echo "covered $by"; else echo "uncovered $v"; fi
	done <"$2"
}

# play FILE LABEL [KNOWN]: one scene, one TAP line, a finding file when
# broken. A scene whose every violation a `known` line names (its own, or
# KNOWN's: the corpus's, for generated scenes in the smoke run; and
# clean.scene's, the findings any scene meets) is a known failure; a
# violation no line names fails it.
play() {
	local file=$1 label=$2 kfile=${3:-$1} sd first rest ids stale id
	sd=$out/scenes/$label
	run_scene "$file" "$sd"
	# clean.scene's known findings are those every scene may meet
	cat "$kfile" "$here/corpus/clean.scene" >"$sd/known"
	cover "$sd/known" "$sd/violations" >"$sd/cover"
	first=$(head -1 "$sd/violations" | cut -c1-200)
	rest=$(sed -n 's/^uncovered //p' "$sd/cover" | head -1 | cut -c1-200)
	ids=$(sed -n 's/^covered //p' "$sd/cover" | sort -u | tr '\n' ' ')
	# the scene's own findings that it no longer meets
	stale=""
	for id in $S_KNOWN; do
		[[ " $ids" == *" $id "* ]] || stale+=" $id"
	done
	if [ -z "$first" ]; then
		tap 1 "$label" "" "$S_KNOWN"
	elif [ -n "$rest" ]; then
		tap 0 "$label" "$rest"
		finding "$file" "$label" "$sd"
	else
		tap 0 "$label" "$first${stale:+ (no longer found:$stale: drop their known lines)}" "${ids% }"
	fi
}

declare -A seen_finding=()
# finding FILE LABEL SD: the scene, minimised (plants dropped while the
# same kind of violation after the same command remains), in corpus format
finding() {
	local file=$1 label=$2 sd=$3 key min
	key=$(head -1 "$sd/violations" | sed 's/^VIOLATION \([^:]*\):.*/\1/')
	mkdir -p "$out/findings"
	if [ -n "${seen_finding[$key]:-}" ]; then
		echo "$label" >>"$out/findings/${seen_finding[$key]}.also"
		return 0
	fi
	seen_finding[$key]=$label
	min=$file
	[ "${HX_MINIMISE:-1}" = 1 ] && min=$(minimise "$file" "$key" "$label")
	{
		echo "# hostile-workspace finding: $label"
		sed 's/^/# /' "$sd/violations" | head -20
		cat "$min"
	} >"$out/findings/$label.scene"
}

# minimise FILE KEY: drop plants while KEY is still broken; prints a file
minimise() {
	local file=$1 key=$2 cur=$out/findings/$3.min try=$W.min-try.scene i n
	grep -v '^#' "$file" >"$cur"
	n=$(grep -c '^plant ' "$cur")
	for ((i = n; i >= 1 && n > 1; i--)); do
		awk -v k="$i" '/^plant /{ if (++c == k) next } { print }' "$cur" >"$try"
		run_scene "$try" "$W.min-run" >/dev/null 2>&1
		if grep -qF "VIOLATION $key:" "$W.min-run/violations"; then
			cp "$try" "$cur"
			n=$((n - 1))
		fi
	done
	echo "$cur"
}

# worker J: play the job lines (LABEL TAB SCENE TAB KNOWN; SCENE
# `selftest` is the self-test) no other worker has claimed (mkdir is the
# claim), in a world of its own; each job's TAP lines go to
# DIR/results/<index> for the parent
worker() {
	local j=$1 i=0 label scene kfile
	W=$out/w$j/world
	mkdir -p "$out/w$j/tmp"
	export W TMPDIR=$out/w$j/tmp
	while IFS=$'\t' read -r label scene kfile; do
		if mkdir "$out/results/claim-$i" 2>/dev/null; then
			HX_RECORD=$out/results/$(printf '%05d' "$i")
			: >"$HX_RECORD"
			if [ "$scene" = selftest ]; then
				selftest
			else
				play "$scene" "$label" "${kfile:-$scene}"
			fi
		fi
		i=$((i + 1))
	done <"$out/jobs"
}

# run_jobs: DIR/jobs over HX_JOBS workers (default 2: the smoke's time on
# two cores), then their TAP lines in job order
run_jobs() {
	local n=${HX_JOBS:-2} j r ok label detail k
	[[ $n =~ ^[1-9][0-9]?$ ]] || { echo "hostile: HX_JOBS must be 1-99" >&2; exit 2; }
	rm -rf "$out/results" && mkdir -p "$out/results"
	for ((j = 0; j < n; j++)); do
		worker "$j" &
	done
	wait
	for r in "$out"/results/[0-9]*; do
		[ -e "$r" ] || continue
		while IFS=$'\037' read -r ok label detail k; do
			tap "$ok" "$label" "$detail" "$k"
		done <"$r"
	done
}

mkdir -p "$out/scenes"
: >"$out/jobs"
case $mode in
selftest) printf 'selftest\tselftest\n' >>"$out/jobs" ;;
replay)
	for f in "$@"; do printf '%s\t%s\n' "$(basename "$f" .scene)" "$f" >>"$out/jobs"; done
	;;
smoke)
	# the first job is the longest: the self-test
	printf 'selftest\tselftest\n' >>"$out/jobs"
	# a scene an end-to-end test replays (t0850-t0853, through this
	# script, in the same suite run) is not run twice
	replayed=" $(cat "$here"/../e2e/t*.bats 2>/dev/null | grep -oE 'regress-[A-Za-z0-9-]+' | sort -u | tr '\n' ' ') "
	for f in "$here"/corpus/*.scene; do
		name=${f##*/}
		name=${name%.scene}
		case $name in selftest | clean) continue ;; esac
		[[ $replayed == *" $name "* ]] && continue
		printf '%s\t%s\n' "$name" "$f" >>"$out/jobs"
	done
	# a generated scene that meets a known finding is a known failure
	# too, until that finding's fix turns its scene into a regression
	cat "$here"/corpus/*.scene | grep '^known ' >"$out/known-all"
	for s in ${HX_SMOKE_SEEDS:-1 2}; do
		gen_scene "$s" >"$out/seed-$s.scene"
		printf 'seed-%s\t%s\t%s\n' "$s" "$out/seed-$s.scene" "$out/known-all" >>"$out/jobs"
	done
	export HX_MINIMISE=${HX_MINIMISE:-0}
	;;
gen)
	# scenes are generated in batches of HX_JOBS until the count or the
	# time is reached
	start=$(date +%s) i=0
	while :; do
		if [ "$seconds" -gt 0 ]; then
			[ $(($(date +%s) - start)) -lt "$seconds" ] || break
		else
			[ "$i" -lt "$count" ] || break
		fi
		: >"$out/jobs"
		for ((j = 0; j < ${HX_JOBS:-2}; j++)); do
			[ "$seconds" -gt 0 ] || [ "$i" -lt "$count" ] || break
			s=$((seed + i))
			gen_scene "$s" >"$out/seed-$s.scene"
			printf 'seed-%s\t%s\n' "$s" "$out/seed-$s.scene" >>"$out/jobs"
			i=$((i + 1))
		done
		run_jobs
	done
	echo "# hostile: seeds $seed..$((seed + i - 1)), $i scenes, $fails broken ($(find "$out/findings" -name '*.scene' 2>/dev/null | wc -l) distinct) in $(($(date +%s) - start)) s"
	;;
esac
[ $mode = gen ] || run_jobs
echo "1..$tap_n"
[ $nknown -gt 0 ] && echo "# $nknown known findings (not fixed yet)"
[ $fails = 0 ]
