#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# fs+api benchmarks (PRODUCT.md §11), as ratios from one run, bwrap only:
#  1. many small loopback HTTP requests through the fs+api proxy vs the
#     same requests direct (each from inside a cage: fs+api vs fs-only),
#     on a new connection each and on one kept-alive connection (a CONNECT
#     tunnel through the proxy), for scale;
#  2. the same requests, and a large download (BULK MiB on one tunnel),
#     through the proxy vs through the minimal forwarder of the same
#     topology (bench/minforward.c in agentic-git-proxy's place: the
#     cage's listener handed to one outside process that copies bytes):
#     budget <= 1.05x for the requests, >= 0.95x its throughput for the
#     download;
#  3. sandbox start-up: `sandbox run --policy fs+api -- /bin/true` vs
#     fs+no-net (the proxy and the relay are the difference); budget
#     <= fs+no-net + 5 ms.
# (Requests with a secret injected against without: bench/secrets-bench.sh.)
# usage: bench/netproxy-bench.sh [path/to/agentic-git]
# env: REQUESTS (2000), RUNS (5), RUNS_STARTUP (21), BULK (200), ONLY
#      (direct|forwarder|startup: that part alone)
set -eu
AG=$(realpath "${1:-build/src/agentic-git}")
HERE=$(cd "$(dirname "$0")" && pwd)
REQUESTS=${REQUESTS:-2000}
RUNS=${RUNS:-5}
W=$(mktemp -d)
exec 9> >(exec node "$HERE/../tests/helper/http-udp-server.mjs" --name bench \
	--port-file "$W/port" --log /dev/null --lifetime 600 >/dev/null 2>&1)
trap 'exec 9>&-; rm -rf "$W"' EXIT
export AGENTIC_GIT_HOME=$W/home
mkdir -p "$W/ws" "$AGENTIC_GIT_HOME"
cd "$W/ws"
if ! "$AG" sandbox run --backend bwrap --policy fs+api -- /bin/true 2>/dev/null; then
	echo "fs+api: unavailable on this host (needs bubblewrap)"
	exit 0
fi
for _ in $(seq 200); do
	[ -s "$W/port" ] && break
	sleep 0.05
done
PORT=$(cat "$W/port")
NODE=$(command -v node)
NODE_DIR=$(dirname "$(dirname "$(realpath "$NODE")")")

med() { sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# one_client POLICY VIA MODE [N [AGENTIC-GIT]]: ms of N ($REQUESTS)
# requests from inside a cage
one_client() {
	local allow=()
	[ "$1" = fs+api ] && allow=(--allow "127.0.0.1:$PORT")
	"${5:-$AG}" sandbox run --backend bwrap --policy "$1" "${allow[@]}" \
		--env "FWD_PORT=$PORT" --ro "$HERE" --ro "$NODE_DIR" -- \
		"$NODE" "$HERE/http-client.mjs" "$2" "$3" "$PORT" "${4:-$REQUESTS}"
}

part() { [ -z "${ONLY:-}" ] || [ "$ONLY" = "$1" ]; }

# The forwarder in agentic-git-proxy's place: a copy of agentic-git with
# it beside (agentic-git runs the proxy program beside itself).
forwarder_setup() {
	local build lib
	build=$(dirname "$(dirname "$AG")")
	lib=$build/src/libag-internal.a
	# shellcheck disable=SC2046
	cc -O2 -D_GNU_SOURCE -I "$HERE/../src" -I "$HERE/../include" \
		-o "$W/minforward" "$HERE/minforward.c" "$lib" \
		$(pkg-config --libs libsodium jansson yaml-0.1 libseccomp) -lpthread -lm
	mkdir -p "$W/fwd"
	cp "$AG" "$W/fwd/agentic-git"
	cp "$W/minforward" "$W/fwd/agentic-git-proxy"
}

# Direct and proxied runs alternate, so a change in the machine's load
# hits both; the medians are compared.
if part direct; then
echo "$REQUESTS small GETs to a loopback server, median of $RUNS runs (ms):"
for mode in fresh keep; do
	direct=() proxied=()
	for _ in $(seq "$RUNS"); do
		direct+=("$(one_client fs-only direct "$mode")")
		proxied+=("$(one_client fs+api proxy "$mode")")
	done
	d=$(printf '%s\n' "${direct[@]}" | med)
	p=$(printf '%s\n' "${proxied[@]}" | med)
	r=$(ratio "$p" "$d")
	printf '  %-5s direct (fs-only) %9s   through the proxy (fs+api) %9s   ratio %s  (for scale)\n' \
		"$mode" "$d" "$p" "$r"
done
fi

if part forwarder; then
forwarder_setup
echo "through the proxy vs the minimal forwarder, median of $RUNS runs (ms):"
for mode in fresh keep bulk; do
	n=$REQUESTS
	[ "$mode" = bulk ] && n=${BULK:-200}
	fwd=() proxied=()
	for _ in $(seq "$RUNS"); do
		fwd+=("$(one_client fs+api proxy "$mode" "$n" "$W/fwd/agentic-git")")
		proxied+=("$(one_client fs+api proxy "$mode" "$n")")
	done
	f=$(printf '%s\n' "${fwd[@]}" | med)
	p=$(printf '%s\n' "${proxied[@]}" | med)
	r=$(ratio "$p" "$f")
	if [ "$mode" = bulk ]; then
		t=$(ratio "$f" "$p")
		printf '  %-5s %s MiB: forwarder %9s   proxy %9s   throughput ratio %s  (budget >= 0.95: %s)\n' \
			"$mode" "$n" "$f" "$p" "$t" "$(awk -v r="$t" 'BEGIN { print (r >= 0.95 ? "pass" : "FAIL") }')"
	else
		printf '  %-5s forwarder %9s   proxy %9s   ratio %s  (budget <= 1.05: %s)\n' \
			"$mode" "$f" "$p" "$r" "$(awk -v r="$r" 'BEGIN { print (r <= 1.05 ? "pass" : "FAIL") }')"
	fi
done
fi

part startup || { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; exit 0; }

us() {
	local t0 t1
	t0=$(date +%s%N)
	"$AG" sandbox run --backend bwrap --policy "$@" -- /bin/true >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}
nonet=() api=()
for _ in $(seq "${RUNS_STARTUP:-21}"); do
	nonet+=("$(us fs+no-net)")
	api+=("$(us fs+api --allow api.example.com)")
done
n=$(printf '%s\n' "${nonet[@]}" | med | awk '{printf "%.2f", $1 / 1000}')
a=$(printf '%s\n' "${api[@]}" | med | awk '{printf "%.2f", $1 / 1000}')
printf 'start-up wall, median of %s: fs+no-net %s ms, fs+api %s ms: %s ms  (budget <= +5 ms: %s)\n' \
	"${RUNS_STARTUP:-21}" "$n" "$a" "$(awk -v a="$a" -v b="$n" 'BEGIN{printf "%+.2f", a-b}')" \
	"$(awk -v a="$a" -v b="$n" 'BEGIN { print (a - b <= 5 ? "pass" : "FAIL") }')"
# CPU (user+sys of every process of a start, the cage's included: bwrap's
# init reaps them) is less sensitive to other load than wall time.
# cpu_ms POLICY…: the mean per start over RUNS_STARTUP starts.
cpu_ms() {
	bash -c 'for _ in $(seq "$1"); do "${@:2}" >/dev/null 2>&1; done; times' _ \
		"${RUNS_STARTUP:-21}" "$AG" sandbox run --backend bwrap --policy "$@" -- /bin/true |
		awk -v n="${RUNS_STARTUP:-21}" 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
			printf "%.2f", ((u[1] + s[1]) * 60 + u[2] + s[2]) * 1000 / n }'
}
cn=$(cpu_ms fs+no-net)
ca=$(cpu_ms fs+api --allow api.example.com)
printf 'start-up CPU, mean of %s: fs+no-net %s ms, fs+api %s ms: +%s ms\n' \
	"${RUNS_STARTUP:-21}" "$cn" "$ca" "$(awk -v a="$ca" -v b="$cn" 'BEGIN{printf "%.2f", a-b}')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
