# SPDX-License-Identifier: Apache-2.0
# Helpers for the secrets tests (t0617, t0618): a test CA standing in for
# the public ones, and fake vendors (tests/helper/fake-vendor.mjs) on
# loopback, over HTTPS with it or plain HTTP.
#
#   load lib; load sandbox_cases; load secrets
#   test_ca; vendor V --cert "$T/srv.pem" --key "$T/srv.key"; vendor O

# vendors_stop: closing their stdin stops them (call from teardown)
vendors_stop() {
	for fd in ${VFD:-} ${OFD:-}; do exec {fd}>&-; done
}

# test_ca: a CA standing in for the public ones, and a certificate of
# 127.0.0.1 and localhost it signed.
test_ca() {
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$T/ca.key" -out "$T/ca.pem" -days 2 -subj "/CN=test CA" \
		-addext basicConstraints=critical,CA:TRUE 2>/dev/null
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$T/srv.key" -out "$T/srv.csr" -subj "/CN=127.0.0.1" 2>/dev/null
	printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$T/srv.ext"
	openssl x509 -req -in "$T/srv.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
		-CAcreateserial -days 2 -extfile "$T/srv.ext" -out "$T/srv.pem" 2>/dev/null
}

# vendor NAME [--cert …]: tests/helper/fake-vendor.mjs; sets PORT_NAME.
vendor() {
	local name=$1 fd
	shift
	exec {fd}> >(exec node "$BATS_TEST_DIRNAME/../helper/fake-vendor.mjs" \
		--port-file "$T/$name.port" --log "$T/$name.log" --lifetime 300 \
		"$@" >"$T/$name.out" 2>&1)
	[ "$name" = V ] && VFD=$fd || OFD=$fd
	for _ in $(seq 200); do
		[ -s "$T/$name.port" ] && break
		sleep 0.05
	done
	[ -s "$T/$name.port" ] || fail "vendor $name did not start: $(cat "$T/$name.out")"
	eval "PORT_$name=$(cat "$T/$name.port")"
	touch "$T/$name.log"
}

