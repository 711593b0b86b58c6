#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Sandbox benchmarks (PRODUCT.md §11), printed as ratios from one run:
#  1. provisioning a private workspace (`sandbox workspace`) vs
#     `git clone --no-hardlinks` of a repository with long history
#     (budget: <= 0.1x the clone);
#  2. sandbox start-up: `sandbox run -- /bin/true` (bwrap, Landlock) vs a
#     bare /bin/true.
# usage: bench/sandbox-bench.sh [path/to/agentic-git] [commits]
# env: RUNS (5), RUNS_STARTUP (21), PAYLOAD_LINES (200 per commit)
set -eu
AG=$(realpath "${1:-build/src/agentic-git}")
COMMITS=${2:-20000}
PAYLOAD_LINES=${PAYLOAD_LINES:-200}
RUNS=${RUNS:-5}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name bench
git config --global user.email bench@example.com
git config --global init.defaultBranch main

now_ns() { date +%s%N; }

# median_ms CMD…: median wall time of $RUNS runs (a `reset` function, if
# defined, runs untimed before each).
median_ms() {
	local times=() t0 t1
	for _ in $(seq "$RUNS"); do
		declare -F reset >/dev/null && reset
		t0=$(now_ns)
		"$@" >/dev/null 2>&1
		t1=$(now_ns)
		times+=($(((t1 - t0) / 1000)))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]/1000}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

echo "== generating a repository with $COMMITS commits (git fast-import)"
git init -q --bare "$W/origin.git"
git init -q "$W/repo"
# Each commit rewrites one of 300 files with PAYLOAD_LINES lines of fresh
# random text (76 bytes each), so history has the weight of a real
# long-lived repository: about 230 MiB packed for the defaults, the size of
# git.git's pack. The workspace's cost must not depend on it.
head -c $((COMMITS * PAYLOAD_LINES * 57)) /dev/urandom | base64 -w 76 |
awk -v n="$COMMITS" -v per="$PAYLOAD_LINES" '{
	buf = buf $0 "\n"
	if (++lines < per)
		next
	i++
	data = "line " i " of history\n" buf
	buf = ""
	lines = 0
	{
		printf "commit refs/heads/main\nmark :%d\n", i
		printf "committer bench <bench@example.com> %d +0000\n", 1600000000 + i
		printf "data %d\ncommit %d\n", length("commit " i), i
		if (i > 1) printf "from :%d\n", i - 1
		printf "M 644 inline file%03d.txt\ndata %d\n%s\n", i % 300, length(data), data
	}
	if (i >= n)
		exit
}' | git -C "$W/repo" fast-import --quiet
git -C "$W/repo" reset -q --hard main
git -C "$W/repo" remote add origin "$W/origin.git"
git -C "$W/repo" push -q origin main
git -C "$W/repo" fetch -q origin
git -C "$W/repo" gc -q
git -C "$W/repo" count-objects -vH | awk '/in-pack|size-pack/ {printf "%s %s %s  ", $1, $2, $3} END {print ""}'

reset() { rm -rf "$W/dst"; }
clone_ms=$(median_ms git clone -q --no-hardlinks "$W/repo" "$W/dst")
ws_ms=$(median_ms "$AG" sandbox workspace --from "$W/repo" --head main --base main "$W/dst")
unset -f reset
echo "clone --no-hardlinks:      ${clone_ms} ms"
echo "private workspace:         ${ws_ms} ms"
echo "ratio workspace/clone:     $(ratio "$ws_ms" "$clone_ms")  (budget <= 0.1)"

RUNS=${RUNS_STARTUP:-21}
mkdir -p "$W/ws"
cd "$W/ws"
true_ms=$(median_ms /bin/true)
echo "bare /bin/true:            ${true_ms} ms"
for be in bwrap landlock; do
	if ! "$AG" sandbox run --backend "$be" -- /bin/true 2>/dev/null; then
		echo "sandbox run ($be):        unavailable on this host"
		continue
	fi
	for p in fs-only fs+no-net; do
		ms=$(median_ms "$AG" sandbox run --backend "$be" --policy "$p" -- /bin/true)
		printf 'sandbox run %-8s %-9s %s ms  (%sx bare, +%s ms)\n' "$be" "$p" "$ms" \
			"$(ratio "$ms" "$true_ms")" "$(awk -v a="$ms" -v b="$true_ms" 'BEGIN{printf "%.2f", a-b}')"
	done
done
