/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Invariants (tests: tests/unit/test-pushplan.c,
 * tests/e2e/t0151-push-real.bats):
 *  1. Only lines of git's documented porcelain format are accepted; any
 *     other line makes the whole plan unreadable (-1): fail-closed.
 *  2. The destination is split off at the last ':' (a ref name has none),
 *     so a source expression cannot shift it.
 *  3. An object id counts as "the remote has it" only when every
 *     advertisement lists it (smart HTTP shows each one twice: the
 *     helper's discovery and the send-pack it feeds; more blocks only
 *     shrink the set).
 */
#include "base/common.h"
#include <string.h>
#include "base/xalloc.h"
#include "git/pushplan.h"

static const char flags[] = " +-*!=";

static int parse_update(struct push_plan *p, const char *line, size_t n)
{
	const char *tab2, *colon = NULL;

	if (n < 3 || memchr(line, '\0', n) ||
	    !memchr(flags, line[0], sizeof(flags) - 1) || line[1] != '\t')
		return -1;
	tab2 = memchr(line + 2, '\t', n - 2);
	if (!tab2)
		return -1;
	for (const char *c = line + 2; c < tab2; c++)
		if (*c == ':')
			colon = c;
	if (!colon || colon + 1 == tab2)
		return -1;
	p->u = xrealloc(p->u, st_mult(p->nr + 1, sizeof(*p->u)));
	p->u[p->nr].flag = line[0];
	p->u[p->nr].src = xstrndup(line + 2, (size_t)(colon - line - 2));
	p->u[p->nr].dst = xstrndup(colon + 1, (size_t)(tab2 - colon - 1));
	p->nr++;
	return 0;
}

int push_plan_parse(struct push_plan *p, const char *out, size_t len)
{
	const char *end = out + len;

	memset(p, 0, sizeof(*p));
	for (const char *l = out; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l);

		if (n > 3 && !strncmp(l, "To ", 3))
			p->urls++;
		else if ((n == 4 && !strncmp(l, "Done", 4)) ||
			 (n > 22 && !strncmp(l, "Would set upstream of ", 22)))
			; /* -u under --dry-run */
		else if (!p->urls || parse_update(p, l, n) < 0)
			return -1;
		l += n + 1;
	}
	return 0;
}

void push_plan_release(struct push_plan *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->u[i].src);
		free(p->u[i].dst);
	}
	free(p->u);
	memset(p, 0, sizeof(*p));
}

/*
 * "...packet: <spaces><ident>< <payload>" for what the push client reads:
 * `push` over a native transport (file, ssh, git), `git` over smart HTTP
 * (git-remote-http's discovery and the send-pack it feeds).
 */
static const char *adv_payload(const char *l, size_t n, size_t *plen)
{
	static const char *const idents[] = { "push< ", "git< ", "send-pack< ",
					      NULL };
	const char *p = memmem(l, n, "packet: ", 8), *end = l + n;

	if (!p)
		return NULL;
	for (p += 8; p < end && *p == ' '; p++)
		;
	for (const char *const *id = idents; *id; id++) {
		size_t il = strlen(*id);
		if ((size_t)(end - p) >= il && !strncmp(p, *id, il)) {
			*plen = (size_t)(end - p - (ptrdiff_t)il);
			return p + il;
		}
	}
	return NULL;
}

static size_t hex_len(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n &&
	       ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
		i++;
	return i;
}

static bool all_zero(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != '0')
			return false;
	return true;
}

/* Keeps in `tips` only what `block` also has. */
static void intersect(struct strvec *tips, const struct strvec *block)
{
	for (size_t i = tips->nr; i-- > 0;) {
		bool found = false;
		for (size_t j = 0; j < block->nr && !found; j++)
			found = !strcmp(tips->v[i], block->v[j]);
		if (!found)
			strvec_remove(tips, i);
	}
}

int push_adv_parse(const char *trace, size_t len, struct strvec *tips,
		   size_t *blocks)
{
	struct strvec cur = STRVEC_INIT;
	const char *end = trace + len;
	bool open = false;

	*blocks = 0;
	for (const char *l = trace; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		size_t n = nl ? (size_t)(nl - l) : (size_t)(end - l), pl = 0, h;
		const char *pay = adv_payload(l, n, &pl);

		l += n + 1;
		if (!pay)
			continue;
		if (pl == 4 && !strncmp(pay, "0000", 4)) {
			if (!open)
				continue; /* a flush outside an advertisement */
			if (!(*blocks)++)
				strvec_pushv(tips, cur.v);
			else
				intersect(tips, &cur);
			strvec_clear(&cur);
			open = false;
			continue;
		}
		h = hex_len(pay, pl);
		if ((h != 40 && h != 64) || h >= pl || pay[h] != ' ')
			continue; /* "version 1", "shallow <id>", HTTP's
				     "# service=…", refspecs handed on */
		open = true;
		if (!all_zero(pay, h)) {
			char *id = xstrndup(pay, h);
			strvec_push(&cur, id);
			free(id);
		}
	}
	strvec_clear(&cur);
	return open ? -1 : 0; /* an advertisement cut short */
}

const char *push_plan_check(const struct push_plan *p, const char *assigned,
			    bool (*is_protected)(const char *branch, void *ctx),
			    void *ctx, struct strbuf *why)
{
	const char *own = assigned ? assigned : "<branch>";

	for (size_t i = 0; i < p->nr; i++) {
		const struct push_update *u = &p->u[i];
		const char *br = NULL;
		bool head;

		if (starts_with(u->dst, "refs/agentic-git/")) {
			strbuf_addf(
				why,
				"SNAPSHOT_REF_PUSH: this push would update '%s' in "
				"the refs/agentic-git/ snapshot namespace, which "
				"never leaves this machine",
				u->dst);
			return "deny_snapshot_ref_push";
		}
		if (u->flag == '-' || !*u->src) {
			strbuf_addf(
				why,
				"this push would delete '%s' on the remote; "
				"deleting remote refs is not allowed for agents",
				u->dst);
			return "deny_cross_branch_push";
		}
		if (starts_with(u->dst, "refs/tags/"))
			continue;
		head = skip_prefix(u->dst, "refs/heads/", &br);
		if (head && is_protected(br, ctx)) {
			strbuf_addf(
				why,
				"protected ref — this push would update '%s' "
				"(git's own expansion of the command and of the "
				"push configuration: push.default, "
				"remote.<name>.push, remote.<name>.mirror); push "
				"your branch only: git push <remote> HEAD:%s",
				u->dst, own);
			return "deny_protected_ref";
		}
		if (!head || !assigned || strcmp(br, assigned)) {
			strbuf_addf(
				why,
				"cross-branch push — you are bound to '%s', but "
				"this push would update '%s' (git's own expansion "
				"of the command and of the push configuration); "
				"push your branch only: git push <remote> HEAD:%s",
				own, u->dst, own);
			return "deny_cross_branch_push";
		}
	}
	return NULL;
}
