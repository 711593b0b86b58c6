#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Sandbox benchmarks (PRODUCT.md §11), printed as tables of ratios from one
# run:
#  1. provisioning a private workspace (`sandbox workspace`) against a plain
#     checkout of the same tree (`git reset --hard` into an empty work tree:
#     writing the tree's files, the physical limit), for repositories of
#     growing history. Budget: workspace <= 1.15x the checkout, and flat in
#     history. `git clone --no-hardlinks` is printed beside it, for scale:
#     the clone grows with history, the workspace must not;
#  2. sandbox start-up: `sandbox run -- /bin/true` per backend and policy
#     against the bare sandbox of the same command: the bwrap argv agentic-git
#     execs, run directly, and the Landlock helper (`sandbox exec …`) run
#     directly, both taken from strace (`sandbox run` confines itself in
#     process with Landlock; AGENTIC_GIT_SANDBOX_HELPER=exec makes it exec
#     the helper, for strace to see). Budget: <= bare + 2 ms.
# usage: bench/sandbox-bench.sh [path/to/agentic-git] [commits...]
#        (default commits: 5000 20000)
# env: RUNS (7), RUNS_STARTUP (41), PAYLOAD_LINES (200 per commit),
#      ONLY=startup (only part 2, the sandbox start-up)
# The load average is printed; ratios within one run are what count.
set -eu
AG=$(realpath "${1:-build/src/agentic-git}")
shift || true
if [ $# -gt 0 ]; then COMMITS_LIST=("$@"); else COMMITS_LIST=(5000 20000); fi
PAYLOAD_LINES=${PAYLOAD_LINES:-200}
RUNS=${RUNS:-7}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export HOME=$W/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name bench
git config --global user.email bench@example.com
git config --global init.defaultBranch main

load() { cut -d' ' -f1-3 /proc/loadavg; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# verdict VALUE LIMIT: "pass" when VALUE <= LIMIT, else "FAIL"
verdict() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l ? "pass" : "FAIL") }'; }

# make_repo DIR COMMITS: a clone (DIR/repo) of DIR/origin.git with COMMITS
# commits of history.
make_repo() {
	local R=$1 commits=$2
	echo "== generating a repository with $commits commits (git fast-import)"
	git init -q --bare "$R/origin.git"
	git init -q "$R/repo"
	# Each commit rewrites one of 300 files with PAYLOAD_LINES lines of fresh
	# random text (76 bytes each), so history has the weight of a real
	# long-lived repository: about 230 MiB packed for 20000 commits, the size
	# of git.git's pack. The workspace's cost must not depend on it.
	head -c $((commits * PAYLOAD_LINES * 57)) /dev/urandom | base64 -w 76 |
	awk -v n="$commits" -v per="$PAYLOAD_LINES" '{
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
	}' | git -C "$R/repo" fast-import --quiet
	git -C "$R/repo" reset -q --hard main
	git -C "$R/repo" remote add origin "$R/origin.git"
	git -C "$R/repo" push -q origin main
	git -C "$R/repo" fetch -q origin
	git -C "$R/repo" gc -q
	git -C "$R/repo" count-objects -vH | awk '/in-pack|size-pack/ {printf "%s %s %s  ", $1, $2, $3} END {print ""}'
}

# One history size: clone, workspace and the plain checkout (a workspace
# whose work tree and index are removed, `git reset --hard` again),
# interleaved round by round (bench/interleave.c), each from a clean slate
# (the prepare step, untimed).
measure() {
	local commits=$1 R=$W/h$1 clone ws co
	make_repo "$R" "$commits"
	"$AG" sandbox workspace --from "$R/repo" --head main --base main "$W/co" >/dev/null
	cat >"$W/prepare" <<PREP
#!/bin/sh
rm -rf '$W/dst'
find '$W/co' -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
rm -f '$W/co/.git/index'
PREP
	chmod +x "$W/prepare"
	"$W/interleave" -s :: -p "$W/prepare" "$RUNS" 1 \
		"$GIT" clone -q --no-hardlinks "$R/repo" "$W/dst" :: \
		"$AG" sandbox workspace --from "$R/repo" --head main --base main "$W/dst" :: \
		"$GIT" -C "$W/co" reset -q --hard >"$W/t"
	# interleave prints per command: median wall, mean wall, median CPU, faults
	read -ra clone <<<"$(awk 'NR == 1 { print $1, $3 }' "$W/t")"
	read -ra ws <<<"$(awk 'NR == 2 { print $1, $3 }' "$W/t")"
	read -ra co <<<"$(awk 'NR == 3 { print $1, $3 }' "$W/t")"
	rm -rf "$W/dst" "$W/co" "$R"
	printf '%-34s %9s %9s   (medians of %s interleaved rounds)\n' "history $commits commits" "wall ms" "cpu ms" "$RUNS"
	printf '%-34s %9s %9s\n' "  plain checkout of the tree" "${co[@]}" \
		"  private workspace" "${ws[@]}" \
		"  git clone --no-hardlinks (scale)" "${clone[@]}"
	r=$(ratio "${ws[0]}" "${co[0]}")
	printf '%-34s %9s %9s   budget <= 1.15: %s\n' "  workspace / checkout" "$r" \
		"$(ratio "${ws[1]}" "${co[1]}")" "$(verdict "$r" 1.15)"
	printf '%-34s %9s %9s\n' "  workspace / clone" "$(ratio "${ws[0]}" "${clone[0]}")" \
		"$(ratio "${ws[1]}" "${clone[1]}")"
	echo "  load average: $(load)"
	CLONE_MS+=("${clone[0]}") CLONE_CPU+=("${clone[1]}")
	WS_MS+=("${ws[0]}") WS_CPU+=("${ws[1]}")
}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GIT=$(command -v git)
cc -O2 -o "$W/interleave" "$ROOT/bench/interleave.c"
CLONE_MS=() WS_MS=() CLONE_CPU=() WS_CPU=()
[ "${ONLY:-}" != startup ] || COMMITS_LIST=()
for c in "${COMMITS_LIST[@]}"; do
	measure "$c"
done
if [ ${#COMMITS_LIST[@]} -gt 1 ]; then
	n=$((${#COMMITS_LIST[@]} - 1))
	echo "== history ${COMMITS_LIST[0]} -> ${COMMITS_LIST[n]} commits, wall (cpu):" \
		"clone x$(ratio "${CLONE_MS[n]}" "${CLONE_MS[0]}") ($(ratio "${CLONE_CPU[n]}" "${CLONE_CPU[0]}"))," \
		"workspace x$(ratio "${WS_MS[n]}" "${WS_MS[0]}") ($(ratio "${WS_CPU[n]}" "${WS_CPU[0]}")); flat is ~1"
	echo "   (the clone's growth over the workspace's is what history costs; the workspace reads none)"
fi

# Sandbox start-up. The bare sandbox of the same command is what
# agentic-git execs last (bwrap, or the Landlock helper), taken from strace
# and run directly; the two are interleaved round by round
# (bench/interleave.c), so load changes hit both alike.
ROUNDS=${RUNS_STARTUP:-41}
mkdir -p "$W/ws"
cd "$W/ws"
# last_exec STRACE_FILE STRING: the argv (one per line) of the last execve
# whose line contains STRING
last_exec() {
	grep -F "$2" "$1" | grep -F 'execve("' | tail -1 |
		sed -e 's/^[0-9]* *execve("[^"]*", \[//' -e 's/\], 0x.*$//' |
		awk 'BEGIN { RS = "\", \"" } { sub(/^"/, ""); sub(/"\n?$/, ""); print }'
}
echo "sandbox start-up, $ROUNDS rounds (interleaved), median wall ms"
printf '%-22s %9s %9s %9s   %s\n' "backend policy" bare "sandbox" "extra" "budget <= bare + 2 ms"
command -v strace >/dev/null || echo "  (no strace: the bare sandbox cannot be taken, start-up not measured)"
for be in bwrap landlock; do
	command -v strace >/dev/null || break
	if ! "$AG" sandbox run --backend "$be" -- /bin/true 2>/dev/null; then
		printf '%-22s unavailable on this host\n' "$be"
		continue
	fi
	for p in fs-only fs+no-net; do
		# the Landlock helper, which `sandbox run` is in-process, as
		# its own exec (AGENTIC_GIT_SANDBOX_HELPER=exec) to take its argv
		AGENTIC_GIT_SANDBOX_HELPER=exec strace -f -qq -e trace=execve \
			-s 65535 -o "$W/st" \
			"$AG" sandbox run --backend "$be" --policy "$p" -- /bin/true
		if [ "$be" = bwrap ]; then
			mapfile -t bare < <(last_exec "$W/st" '/bwrap", ["')
		else
			mapfile -t bare < <(last_exec "$W/st" '", "sandbox", "exec", "')
		fi
		[ ${#bare[@]} -gt 2 ] || { echo "sandbox-bench: no bare $be argv in strace" >&2; exit 1; }
		"${bare[@]}" || { echo "sandbox-bench: the bare $be sandbox fails:" >&2; printf '  %s\n' "${bare[@]}" >&2; exit 1; }
		"$W/interleave" -s :: "$ROUNDS" 3 "${bare[@]}" :: \
			"$AG" sandbox run --backend "$be" --policy "$p" -- /bin/true >"$W/t"
		awk -v n="$be $p" 'NR == 1 { b = $1 } NR == 2 { s = $1 }
			END { d = s - b
				printf "%-22s %9.2f %9.2f %+9.2f   %s\n", n, b, s, d, d <= 2 ? "pass" : "FAIL" }' "$W/t"
	done
done
echo "  load average: $(load)"
