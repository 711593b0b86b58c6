/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the fs+api proxy's request parser (proxyreq_parse) and, through
 * it, the allow-list's authority parser. Invariants:
 *  1. never crashes, reads nothing past the buffer;
 *  2. MORE only below the head limit; BAD carries 400 or 431 and a reason;
 *  3. OK: the head fits the buffer and the limit, the target is a host
 *     with a port from 1 to 65535, and it is allowed by an allow-list that
 *     lists exactly its formatted host:port (and by no other port);
 *  4. OK plain HTTP: the head sent upstream holds no NUL, names the
 *     target in its Host line and ends with "Connection: close" and the
 *     empty line.
 */
#include <string.h>
#include "agents/allowhosts.h"
#include "agents/proxyreq.h"
#include "base/strbuf.h"
#include "fuzz.h"

static void check_target(const struct allowhost_target *t)
{
	struct strbuf hp = STRBUF_INIT;
	struct allowhost_target other = *t;
	const char *list[1];

	FUZZ_CHECK(t->host[0] && t->port >= 1 && t->port <= 65535,
		   "target '%s' port %u", t->host, t->port);
	allowhost_format(t, &hp);
	list[0] = hp.buf;
	FUZZ_CHECK(allowhosts_match(list, 1, t), "'%s' does not match itself",
		   hp.buf);
	other.port = t->port == 1 ? 2 : t->port - 1;
	FUZZ_CHECK(!allowhosts_match(list, 1, &other), "'%s' matches port %u",
		   hp.buf, other.port);
	strbuf_release(&hp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proxyreq rq = PROXYREQ_INIT;
	enum proxyreq_result r;
	char *copy;

	if (size > 2 * PROXYREQ_HEAD_MAX)
		return 0;
	copy = malloc(size ? size : 1); /* exact size: no NUL after it */
	memcpy(copy, data, size);
	r = proxyreq_parse(copy, size, &rq);
	switch (r) {
	case PROXYREQ_MORE:
		FUZZ_CHECK(size < PROXYREQ_HEAD_MAX, "more after %zu bytes",
			   size);
		break;
	case PROXYREQ_BAD:
		FUZZ_CHECK((rq.status == 400 || rq.status == 431) && rq.why.len,
			   "status %d why '%s'", rq.status, rq.why.buf);
		break;
	case PROXYREQ_OK:
		FUZZ_CHECK(rq.head_len <= size &&
				   rq.head_len <= PROXYREQ_HEAD_MAX,
			   "head %zu of %zu", rq.head_len, size);
		check_target(&rq.target);
		if (!rq.connect) {
			FUZZ_CHECK(strlen(rq.fwd.buf) == rq.fwd.len,
				   "NUL upstream");
			static const char tail[] =
				"\r\nConnection: close\r\n\r\n";
			FUZZ_CHECK(rq.fwd.len >= sizeof(tail) - 1 &&
					   !strcmp(rq.fwd.buf + rq.fwd.len -
							   (sizeof(tail) - 1),
						   tail),
				   "no Connection: close");
			FUZZ_CHECK(strstr(rq.fwd.buf, "\r\nHost: ") != NULL,
				   "no Host upstream");
		}
		break;
	}
	proxyreq_release(&rq);
	free(copy);
	return 0;
}
