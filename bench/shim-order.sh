#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates src/shim.order: the functions the shim runs on its hot path,
# in the order it first runs them, for the linker to lay out contiguously
# (lld --symbol-ordering-file; src/meson.build). Run it after changing
# what the hot path calls; bench/shim-bench.sh shows the effect.
#
# Each command below runs once through the shim, bound as in
# bench/shim-bench.sh, under bench/steptrace.c (ptrace, one instruction at
# a time, until the shim execs real git), and once through the full binary
# linked as git (src/main.c: the same shim; it is linked with the same
# order, and runs a few functions the shim does not, glibc's resolvers of
# the string functions it links among them). The addresses are mapped to
# function symbols of the executable traced (both keep their symbol
# table): the shim's functions first, then the full binary's others.
# Variants of a string function that glibc picks by CPU (e.g.
# __memmove_avx_unaligned_erms where this machine ran the _evex one) follow
# the traced functions, so another CPU's choice lands close by too.
#
# Then, where valgrind is installed, the data each run reads or writes
# (valgrind --tool=lackey, until the exec) mapped to data symbols, in
# first-use order, after the functions: the start-up's writes each fault a
# page of their own (no fault-around for a copy-on-write), and glibc's
# variables spread over a larger executable's .data and .bss took the full
# binary four more faults than the shim.
#
# usage: bench/shim-order.sh [path/to/agentic-git]
set -euo pipefail
BIN=$(realpath "${1:-build/src/agentic-git}")
SHIM=$(dirname "$BIN")/agentic-git-shim
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/src/shim.order
[ -x "$SHIM" ] || { echo "shim-order: no $SHIM" >&2; exit 1; }
for exe in "$SHIM" "$BIN"; do
	nm "$exe" >/dev/null 2>&1 || { echo "shim-order: $exe has no symbol table" >&2; exit 1; }
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$ROOT/bench/shim-env.sh"
cc -O2 -o "$W/steptrace" "$ROOT/bench/steptrace.c"
cd "$WT"
echo change >>f1

mkdir -p "$W/full"
ln -s "$BIN" "$W/full/git"
trace() { # <git> <rips> <args…>
	local git=$1 rips=$2
	shift 2
	"$W/steptrace" "$git" "$@" >>"$rips" 2>>"$W/log"
}
# the routed hot path (bound agent) and the operator's pass-through
for cmd in "rev-parse HEAD" "status" "status --short" "diff" "log -1" \
	"add f1" "branch --list" "show --stat HEAD"; do
	# shellcheck disable=SC2086
	trace "$AGENTIC_GIT_HOME/bin/git" "$W/rips" $cmd
	# shellcheck disable=SC2086
	trace "$W/full/git" "$W/rips-full" $cmd
done
( unset AGENTIC_GIT_AGENT; trace "$AGENTIC_GIT_HOME/bin/git" "$W/rips" status
  trace "$W/full/git" "$W/rips-full" status )

nm --defined-only "$SHIM" "$BIN" | awk '$2 ~ /^[tTwWiI]$/ { print $3 }' | sort -u >"$W/syms"
# the function of each address, each function once, in first-run order:
# the shim's, each followed by the full binary's others that first ran
# after it (glibc's start-up runs the resolvers of every string function
# linked, so the full binary's come early)
fns() { addr2line -f -e "$1" <"$2" | awk 'NR % 2 == 1 && $0 != "??" && !seen[$0]++'; }
fns "$SHIM" "$W/rips" >"$W/hot-shim"
fns "$BIN" "$W/rips-full" >"$W/hot-full"
awk 'NR == FNR { shim[$1] = 1; order[++n] = $1; next }
	$1 in shim { at = $1; next }
	{ after[at] = after[at] $1 "\n" }
	END { printf "%s", after[""]
	      for (i = 1; i <= n; i++) printf "%s\n%s", order[i], after[order[i]] }' \
	"$W/hot-shim" "$W/hot-full" >"$W/hot"
# glibc CPU variants of the traced string functions, after them: the
# same name up to its first CPU suffix
cpu='_(sse2|ssse3|sse4_1|sse4_2|avx|avx2|evex|avx512|erms)'
sed -En "s/^(__[a-z0-9]*)$cpu.*/\\1/p" "$W/hot" | sort -u >"$W/bases"
awk -v cpu="$cpu.*" 'NR == FNR { base[$1] = 1; next }
	{ b = $1; sub(cpu, "", b); if (b != $1 && b in base) print $1 }' "$W/bases" "$W/syms" |
	awk 'NR == FNR { hot[$1] = 1; next } !($1 in hot) && !seen[$1]++' "$W/hot" - >"$W/variants"
# the data symbols a lackey trace touches, in first-use order
datasyms() { # <exe> <lackey log>
	nm -S --defined-only -n "$1" | awk '
	function hex(s, i, n) {
		n = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++)
			n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	NR == FNR { if (NF == 4 && $3 ~ /^[dDbBrR]$/) { k++; st[k] = hex($1); sz[k] = hex($2); nm[k] = $4 }; next }
	/^ [SLM] / {
		split($2, a, ","); x = hex(a[1]); lo = 1; hi = k; f = 0
		while (lo <= hi) { m = int((lo + hi) / 2); if (st[m] <= x) { f = m; lo = m + 1 } else hi = m - 1 }
		if (f && x < st[f] + (sz[f] ? sz[f] : 1) && !seen[nm[f]]++) print nm[f]
	}' - "$2"
}
: >"$W/data"
if command -v valgrind >/dev/null; then
	real=$(type -P true)
	for cmd in "rev-parse HEAD" "status"; do
		for exe in "$SHIM" "$BIN"; do
			git=$AGENTIC_GIT_HOME/bin/git
			[ "$exe" = "$SHIM" ] || git=$W/full/git
			# shellcheck disable=SC2086
			AGENTIC_GIT_REAL_GIT=$real valgrind --tool=lackey --trace-mem=yes \
				--log-file="$W/lackey" "$git" $cmd >/dev/null 2>&1 || true
			datasyms "$exe" "$W/lackey" >>"$W/data"
		done
	done
else
	echo "shim-order: no valgrind: the data is left unordered" >&2
fi
awk '!seen[$0]++' "$W/data" >"$W/data1"
{
	echo "# Generated by bench/shim-order.sh; do not edit. The shim's hot-path"
	echo "# functions in first-run order, then glibc's CPU variants of them,"
	echo "# then the data they use."
	cat "$W/hot" "$W/variants" "$W/data1"
} >"$OUT"
echo "shim-order: $(wc -l <"$W/hot") functions traced, $(wc -l <"$W/variants") CPU variants added, $(wc -l <"$W/data1") data symbols → ${OUT#"$ROOT"/}"
grep -h 'distinct' "$W/log" | sed 's/^/  /'
