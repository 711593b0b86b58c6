/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the binding contract: ag_binding_decode, ag_binding_encode and
 * ag_hmac_verify.
 *
 * Input: <binding json> NUL <signature tag>. Invariants:
 *  1. decode never crashes, whatever the bytes;
 *  2. decode(encode(x)) == x for every x that decoded, and encode is a fixed
 *     point (encode(decode(encode(x))) == encode(x));
 *  3. verify(sign(msg)) is OK, bare or in the v1 envelope, in any case;
 *  4. an arbitrary tag verifies only when its hex is the MAC of the message.
 */
#include <ctype.h>
#include <string.h>
#include "agentic-git/core.h"
#include "fuzz.h"

static const uint8_t key[AG_KEY_LEN] = "0123456789abcdef0123456789abcdef";

static bool same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static void round_trip(const char *buf, size_t len)
{
	struct ag_binding x, y;
	char *e1 = NULL, *e2 = NULL;
	size_t n1 = 0, n2 = 0;

	if (ag_binding_decode(buf, len, &x) != AG_BINDING_BOUND)
		return;
	FUZZ_CHECK(x.version == 1, "version %d", x.version);
	FUZZ_CHECK(!ag_binding_encode(&x, &e1, &n1), "encode failed");
	FUZZ_CHECK(ag_binding_decode(e1, n1, &y) == AG_BINDING_BOUND,
		   "re-decode failed: %s", e1);
	FUZZ_CHECK(same(x.agent, y.agent) && same(x.task_id, y.task_id) &&
			   same(x.branch, y.branch) &&
			   same(x.worktree, y.worktree) &&
			   same(x.source_repo, y.source_repo) &&
			   same(x.issued_at, y.issued_at) &&
			   same(x.extra_json, y.extra_json),
		   "round trip changed the binding: %s", e1);
	FUZZ_CHECK(!ag_binding_encode(&y, &e2, &n2), "encode failed");
	FUZZ_CHECK(n1 == n2 && !memcmp(e1, e2, n1), "encode not stable");
	free(e1);
	free(e2);
	ag_binding_release(&x);
	ag_binding_release(&y);
}

/* The 64 hex characters a trimmed tag carries at its end, lower-cased. */
static bool tag_hex(const char *tag, size_t n, char out[AG_MAC_HEX_LEN + 1])
{
	while (n && isspace((unsigned char)tag[n - 1]))
		n--;
	if (n < AG_MAC_HEX_LEN)
		return false;
	for (size_t i = 0; i < AG_MAC_HEX_LEN; i++)
		out[i] = (char)tolower((unsigned char)tag[n - AG_MAC_HEX_LEN + i]);
	out[AG_MAC_HEX_LEN] = '\0';
	return true;
}

static void signatures(const char *msg, size_t mlen, const char *tag,
		       size_t tlen)
{
	char good[AG_MAC_HEX_LEN + 1], env[128], hex[AG_MAC_HEX_LEN + 1];
	char scheme[64];
	enum ag_verify v;

	ag_hmac_sign_hex(key, sizeof(key), msg, mlen, good);
	FUZZ_CHECK(ag_hmac_verify(key, sizeof(key), msg, mlen, good,
				  AG_MAC_HEX_LEN, NULL, 0) == AG_VERIFY_OK,
		   "own signature rejected");
	snprintf(env, sizeof(env), " %s:%s\n", AG_SCHEME_CURRENT, good);
	FUZZ_CHECK(ag_hmac_verify(key, sizeof(key), msg, mlen, env,
				  strlen(env), NULL, 0) == AG_VERIFY_OK,
		   "own enveloped signature rejected");
	FUZZ_CHECK(ag_hmac_verify(NULL, 0, msg, mlen, good, AG_MAC_HEX_LEN,
				  NULL, 0) == AG_VERIFY_MISSING_KEY,
		   "verified without a key");

	v = ag_hmac_verify(key, sizeof(key), msg, mlen, tag, tlen, scheme,
			   sizeof(scheme));
	if (v == AG_VERIFY_OK) {
		FUZZ_CHECK(tag_hex(tag, tlen, hex) && !strcmp(hex, good),
			   "a foreign tag verified");
	}
	if (v == AG_VERIFY_UNSUPPORTED_SCHEME)
		FUZZ_CHECK(!strncmp(scheme, AG_SCHEME_PREFIX,
				    strlen(AG_SCHEME_PREFIX)),
			   "scheme text '%s'", scheme);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	const char *nul = memchr(buf, '\0', size);
	size_t mlen = nul ? (size_t)(nul - buf) : size;
	const char *tag = nul ? nul + 1 : "";
	size_t tlen = nul ? size - mlen - 1 : 0;

	if (size > AG_BINDING_MAX)
		return 0;
	round_trip(buf, mlen);
	signatures(buf, mlen, tag, tlen);
	return 0;
}
