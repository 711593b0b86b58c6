/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HMAC-SHA256 signatures (reference §2.4).
 *
 * Invariants:
 *  1. MUST sign the exact bytes given: no canonicalisation, no trimming.
 *  2. MUST emit bare lowercase hex, no newline.
 *  3. MUST compare MACs in constant time (sodium_memcmp).
 *  4. An `ag-hmac-sha256:` tag MUST have exactly three parts; a tag with any
 *     other ':' MUST NOT fall back to the bare-hex path.
 *  5. An unsupported scheme is reported before the MAC is checked.
 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include <sodium.h>
#include "agentic-git/core.h"

const char *ag_verify_str(enum ag_verify v)
{
	switch (v) {
	case AG_VERIFY_OK: return "ok";
	case AG_VERIFY_MISSING_KEY: return "integrity key missing or not 32 bytes";
	case AG_VERIFY_MALFORMED_TAG: return "malformed signature";
	case AG_VERIFY_UNSUPPORTED_SCHEME: return "unsupported signature scheme";
	case AG_VERIFY_MISMATCH: return "signature does not match";
	}
	return "unknown";
}

static void hmac_raw(const uint8_t *key, size_t keylen, const void *msg,
		     size_t len, uint8_t out[32])
{
	crypto_auth_hmacsha256_state st;
	crypto_auth_hmacsha256_init(&st, key, keylen);
	crypto_auth_hmacsha256_update(&st, msg, len);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

void ag_hmac_sign_hex(const uint8_t *key, size_t keylen, const void *msg,
		      size_t len, char out[AG_MAC_HEX_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	uint8_t mac[32];

	hmac_raw(key, keylen, msg, len, mac);
	for (int i = 0; i < 32; i++) {
		out[2 * i] = hex[mac[i] >> 4];
		out[2 * i + 1] = hex[mac[i] & 15];
	}
	out[AG_MAC_HEX_LEN] = '\0';
	sodium_memzero(mac, sizeof(mac));
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool decode_hex32(const char *s, size_t n, uint8_t out[32])
{
	if (n != AG_MAC_HEX_LEN)
		return false;
	for (size_t i = 0; i < 32; i++) {
		int hi = hexval((unsigned char)s[2 * i]);
		int lo = hexval((unsigned char)s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

enum ag_verify ag_hmac_verify(const uint8_t *key, size_t keylen,
			      const void *msg, size_t len, const char *tag,
			      size_t taglen, char *scheme_out,
			      size_t scheme_len)
{
	const char *t = tag, *end = tag + taglen;
	const char *hexp;
	size_t hexn;
	uint8_t want[32], got[32];
	int diff;

	while (t < end && isspace((unsigned char)*t))
		t++;
	while (end > t && isspace((unsigned char)end[-1]))
		end--;
	if (!key || keylen != AG_KEY_LEN)
		return AG_VERIFY_MISSING_KEY;
	if ((size_t)(end - t) >= strlen(AG_SCHEME_PREFIX) &&
	    !memcmp(t, AG_SCHEME_PREFIX, strlen(AG_SCHEME_PREFIX))) {
		const char *rest = t + strlen(AG_SCHEME_PREFIX);
		const char *c1 = memchr(rest, ':', (size_t)(end - rest));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1))
				    : NULL;
		const char *c3 = c2 ? memchr(c2 + 1, ':', (size_t)(end - c2 - 1))
				    : NULL;
		unsigned long algo = 0;
		const char *p;

		if (!c1 || !c2 || c3)
			return AG_VERIFY_MALFORMED_TAG;
		if (rest[0] != 'v' || c1 == rest + 1)
			return AG_VERIFY_MALFORMED_TAG;
		for (p = rest + 1; p < c1; p++) {
			if (!isdigit((unsigned char)*p) || algo > 1000000)
				return AG_VERIFY_MALFORMED_TAG;
			algo = algo * 10 + (unsigned long)(*p - '0');
		}
		if (algo != 1 || (size_t)(c2 - c1 - 1) != 3 ||
		    memcmp(c1 + 1, "raw", 3)) {
			if (scheme_out && scheme_len) {
				size_t n = (size_t)(c2 - t);
				if (n >= scheme_len)
					n = scheme_len - 1;
				memcpy(scheme_out, t, n);
				scheme_out[n] = '\0';
			}
			return AG_VERIFY_UNSUPPORTED_SCHEME;
		}
		hexp = c2 + 1;
		hexn = (size_t)(end - hexp);
	} else {
		if (memchr(t, ':', (size_t)(end - t)))
			return AG_VERIFY_MALFORMED_TAG;
		hexp = t;
		hexn = (size_t)(end - t);
	}
	if (!decode_hex32(hexp, hexn, want))
		return AG_VERIFY_MALFORMED_TAG;
	hmac_raw(key, keylen, msg, len, got);
	diff = sodium_memcmp(want, got, sizeof(got));
	sodium_memzero(got, sizeof(got));
	return diff ? AG_VERIFY_MISMATCH : AG_VERIFY_OK;
}
