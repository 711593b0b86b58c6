/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the readers of git's push dry run (git/pushplan.h): the first
 * byte chooses push_plan_parse (even) or push_adv_parse (odd). Invariants:
 *  1. never crashes, reads nothing past the exact-size buffer;
 *  2. a parsed plan has at least one URL when it has updates, every
 *     update a known flag and a non-empty destination with no ':', tab or
 *     newline; push_plan_check on it answers an event with a reason, or
 *     NULL with none;
 *  3. every advertised tip is 40 or 64 lowercase hex digits, not all zero.
 */
#include <string.h>
#include "base/strbuf.h"
#include "base/strvec.h"
#include "git/pushplan.h"
#include "fuzz.h"

static bool prot(const char *branch, void *ctx)
{
	(void)ctx;
	return !strcmp(branch, "main");
}

static void plan(const char *buf, size_t n)
{
	struct push_plan p;
	struct strbuf why = STRBUF_INIT;
	const char *ev;

	if (push_plan_parse(&p, buf, n) == 0) {
		FUZZ_CHECK(!p.nr || p.urls, "updates before any URL");
		for (size_t i = 0; i < p.nr; i++) {
			const char *d = p.u[i].dst;
			FUZZ_CHECK(p.u[i].flag && strchr(" +-*!=", p.u[i].flag),
				   "flag '%c'", p.u[i].flag);
			FUZZ_CHECK(*d && !strpbrk(d, ":\t\n"),
				   "destination '%s'", d);
		}
		ev = push_plan_check(&p, "feat/a", prot, NULL, &why);
		FUZZ_CHECK(ev ? why.len > 0 : why.len == 0,
			   "event without reason");
	}
	push_plan_release(&p);
	strbuf_release(&why);
}

static void adv(const char *buf, size_t n)
{
	struct strvec tips = STRVEC_INIT;
	size_t blocks = 0;

	if (push_adv_parse(buf, n, &tips, &blocks) == 0)
		for (size_t i = 0; i < tips.nr; i++) {
			size_t l = strlen(tips.v[i]);
			FUZZ_CHECK(l == 40 || l == 64, "tip '%s'", tips.v[i]);
			FUZZ_CHECK(strspn(tips.v[i], "0123456789abcdef") == l,
				   "tip '%s'", tips.v[i]);
			FUZZ_CHECK(strspn(tips.v[i], "0") != l, "zero tip");
		}
	strvec_clear(&tips);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy;

	if (!size || size > 1 << 20)
		return 0;
	copy = malloc(size - 1 ? size - 1 : 1);
	memcpy(copy, data + 1, size - 1);
	if (data[0] & 1)
		adv(copy, size - 1);
	else
		plan(copy, size - 1);
	free(copy);
	return 0;
}
