#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Secrets injected against not (PRODUCT.md §11: requests through fs+api
# with a secret injected <= 1.2x fs+api without), as ratios from one run,
# bwrap only. Small HTTPS GETs from inside an fs+api cage (an agent
# session, `run --profile`) to a loopback HTTPS server whose certificate a
# test CA signed: with a profile holding a secret for that host the proxy
# terminates the TLS and puts the key into each request (the session CA,
# the vendor verified through tls_ca_file); with the same profile without
# the secret the requests go through an end-to-end tunnel (the client
# trusting the test CA itself). A new tunnel and TLS session per request
# (`tls-fresh`) and one kept-alive connection (`tls-keep`); the client
# times only its requests, runs alternate, medians are compared.
# usage: bench/secrets-bench.sh [path/to/agentic-git]
# env: REQUESTS (500), RUNS (5)
set -eu
AG=$(realpath "${1:-build/src/agentic-git}")
HERE=$(cd "$(dirname "$0")" && pwd)
REQUESTS=${REQUESTS:-500}
RUNS=${RUNS:-5}
W=$(mktemp -d)
NODE=$(command -v node)
NODE_DIR=$(dirname "$(dirname "$(realpath "$NODE")")")
GIT=$(command -v git)

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$W/ca.key" -out "$W/ca.pem" -days 2 -subj "/CN=bench CA" \
	-addext basicConstraints=critical,CA:TRUE 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$W/srv.key" -out "$W/srv.csr" -subj "/CN=127.0.0.1" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' >"$W/srv.ext"
openssl x509 -req -in "$W/srv.csr" -CA "$W/ca.pem" -CAkey "$W/ca.key" \
	-CAcreateserial -days 2 -extfile "$W/srv.ext" -out "$W/srv.pem" 2>/dev/null
# the server: a small answer to everything, nothing logged
exec 9> >(exec "$NODE" -e '
	const fs = require("fs");
	const s = require("https").createServer({ cert: fs.readFileSync(process.argv[1]),
		key: fs.readFileSync(process.argv[2]) }, (req, res) => {
		req.resume();
		req.on("end", () => { res.writeHead(200, { "content-length": 3 }); res.end("ok\n"); });
	});
	s.keepAliveTimeout = 60000;
	s.listen(0, "127.0.0.1", () => fs.writeFileSync(process.argv[3], String(s.address().port)));
	process.stdin.on("end", () => process.exit(0)); process.stdin.resume();
	setTimeout(() => process.exit(0), 1800000).unref();
' "$W/srv.pem" "$W/srv.key" "$W/port" >/dev/null 2>&1)
trap 'exec 9>&-; [ -z "${KEEP:-}" ] && rm -rf "$W"; [ -z "${KEEP:-}" ] || echo "kept $W"' EXIT
for _ in $(seq 200); do
	[ -s "$W/port" ] && break
	sleep 0.05
done
PORT=$(cat "$W/port")

export HOME=$W/h AGENTIC_GIT_HOME=$W/home BENCH_KEY=sk-bench-0123456789
mkdir -p "$HOME" "$AGENTIC_GIT_HOME/bin" "$W/repo"
ln -s "$(dirname "$AG")/agentic-git-shim" "$AGENTIC_GIT_HOME/bin/git"
"$GIT" -C "$W/repo" init -q
"$GIT" -C "$W/repo" -c user.name=b -c user.email=b@b commit -q --allow-empty -m init
printf '#!/bin/sh\nset -- $1\nexec %s %s/http-client.mjs proxy "$@"\n' "$NODE" "$HERE" >"$W/client.sh"
chmod 755 "$W/client.sh"
cat >"$AGENTIC_GIT_HOME/config.yaml" <<EOF
sandbox_backend: bwrap
tls_ca_file: $W/ca.pem
agents:
  inj:
    command: [$W/client.sh, "{prompt}"]
    env: []
    sandbox: fs+api
    ro_binds: [$HERE, $NODE_DIR]
    allow_hosts: ["127.0.0.1:$PORT"]
    secrets:
      - name: BENCH_KEY
        hosts: ["127.0.0.1:$PORT"]
  tun:
    command: [$W/client.sh, "{prompt}"]
    env: [BENCH_KEY, NODE_EXTRA_CA_CERTS]
    sandbox: fs+api
    ro_binds: [$HERE, $NODE_DIR, $W/ca.pem]
    allow_hosts: ["127.0.0.1:$PORT"]
EOF
chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
if ! "$AG" sandbox run --backend bwrap --policy fs+api -- /bin/true 2>/dev/null; then
	echo "fs+api: unavailable on this host (needs bubblewrap)"
	exit 0
fi

med() { sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
# one PROFILE MODE: ms of $REQUESTS requests, as the client inside timed
# them (each run a session of its own)
one() {
	local a
	a=b$(date +%s%N)
	(cd "$W/repo" && NODE_EXTRA_CA_CERTS=$W/ca.pem "$AG" run --agent "$a" \
		--branch "$a" --profile "$1" --prompt "$2 $PORT $REQUESTS" 2>&1) |
		tee -a "$W/runs.log" | grep -E "^[0-9]+\.[0-9]+$" | tail -1
}

echo "$REQUESTS small HTTPS GETs through fs+api, median of $RUNS runs (ms):"
for mode in tls-fresh tls-keep; do
	tun=() inj=()
	for _ in $(seq "$RUNS"); do
		tun+=("$(one tun "$mode")")
		inj+=("$(one inj "$mode")")
	done
	t=$(printf '%s\n' "${tun[@]}" | med)
	i=$(printf '%s\n' "${inj[@]}" | med)
	r=$(ratio "$i" "$t")
	# a run that printed no figure failed: say so, never a ratio of it
	case " ${tun[*]} ${inj[*]} " in *"  "*) r=missing ;; esac
	printf '  %-9s tunnel (no secret) %9s   key injected %9s   ratio %s  (budget <= 1.2: %s)\n' \
		"$mode" "$t" "$i" "$r" "$(awk -v r="$r" 'BEGIN { print (r + 0 > 0 && r + 0 <= 1.2 ? "pass" : "FAIL") }')"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
