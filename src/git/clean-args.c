/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "git/clean-args.h"

/* Long options of `git clean` and what we do with them. */
/* clang-format off */
static const struct {
	const char *name;
	unsigned flag;
	bool keep;
} long_opts[] = {
	{ "--force", CLEAN_FORCE, true },
	{ "--dry-run", CLEAN_DRY_RUN, false },
	{ "--no-dry-run", 0, false },
	{ "--quiet", 0, false },
	{ "--interactive", CLEAN_INTERACTIVE, false },
	{ "--no-quiet", 0, false },
};
/* clang-format on */

static bool long_opt(const char *a, struct strvec *out, unsigned *flags)
{
	if (!strcmp(a, "--no-dry-run"))
		*flags &= ~(unsigned)CLEAN_DRY_RUN; /* the last one wins */
	for (size_t i = 0; i < ARRAY_SIZE(long_opts); i++) {
		if (!strcmp(a, long_opts[i].name)) {
			*flags |= long_opts[i].flag;
			if (long_opts[i].keep)
				strvec_push(out, a);
			return true;
		}
	}
	return false;
}

/* A -<cluster>; returns how many extra argv elements it consumed or -1. */
static int cluster(const char *a, const char *next, struct strvec *out,
		   unsigned *flags)
{
	struct strbuf kept = STRBUF_INIT;
	int used = 0;

	strbuf_addch(&kept, '-');
	for (const char *p = a + 1; *p; p++) {
		switch (*p) {
		case 'f':
			*flags |= CLEAN_FORCE;
			strbuf_addch(&kept, *p);
			break;
		case 'n':
			*flags |= CLEAN_DRY_RUN;
			break;
		case 'i':
			*flags |= CLEAN_INTERACTIVE;
			break;
		case 'q':
			break;
		case 'd':
			*flags |= CLEAN_DIRS;
			strbuf_addch(&kept, *p);
			break;
		case 'x':
			*flags |= CLEAN_IGNORED;
			strbuf_addch(&kept, *p);
			break;
		case 'X':
			*flags |= CLEAN_ONLY_IGNORED;
			strbuf_addch(&kept, *p);
			break;
		case 'e':
			/* -e takes the rest of the cluster or the next arg */
			if (kept.len > 1)
				strvec_push(out, kept.buf);
			strbuf_release(&kept);
			if (p[1]) {
				strvec_pushf(out, "-e%s", p + 1);
				return 0;
			}
			if (!next)
				return -1;
			strvec_push(out, "-e");
			strvec_push(out, next);
			return 1;
		default:
			strbuf_addch(&kept, *p);
		}
	}
	if (kept.len > 1)
		strvec_push(out, kept.buf);
	strbuf_release(&kept);
	return used;
}

int clean_dry_run_args(const char *const *args, struct strvec *out,
		       unsigned *flags)
{
	*flags = 0;
	for (size_t i = 0; args && args[i]; i++) {
		const char *a = args[i];

		if (!strcmp(a, "--") || !strcmp(a, "--end-of-options")) {
			strvec_pushv(out, args + i);
			break;
		}
		if (!strcmp(a, "--exclude")) {
			if (!args[i + 1])
				return -1;
			strvec_push(out, a);
			strvec_push(out, args[++i]);
		} else if (starts_with(a, "--")) {
			if (!long_opt(a, out, flags))
				strvec_push(out, a);
		} else if (a[0] == '-' && a[1]) {
			int used = cluster(a, args[i + 1], out, flags);
			if (used < 0)
				return -1;
			i += (size_t)used;
		} else {
			strvec_push(out, a);
		}
	}
	return 0;
}

/* A -<cluster> whose -e takes the next token: the first 'e' ends it. */
static bool cluster_takes_next(const char *a)
{
	const char *e = strchr(a + 1, 'e');

	return e && !e[1];
}

size_t clean_options_end(const char *const *args, size_t nargs)
{
	for (size_t i = 0; i < nargs; i++) {
		const char *a = args[i];

		if (!strcmp(a, "--") || !strcmp(a, "--end-of-options"))
			return i;
		if (!strcmp(a, "--exclude") ||
		    (a[0] == '-' && a[1] != '-' && cluster_takes_next(a)))
			i++;
	}
	return nargs;
}

unsigned clean_flags(const char *const *args, size_t nargs)
{
	struct strvec opts = STRVEC_INIT, dry = STRVEC_INIT;
	unsigned flags = 0;

	strvec_pushn(&opts, args, nargs);
	if (clean_dry_run_args(opts.v, &dry, &flags) < 0)
		flags = 0; /* git refuses the command line itself */
	strvec_clear(&opts);
	strvec_clear(&dry);
	return flags;
}

int unquote_c_path(const char *in, size_t len, struct strbuf *out)
{
	size_t i;

	if (!len || in[0] != '"') {
		strbuf_add(out, in, len);
		return 0;
	}
	for (i = 1; i < len && in[i] != '"'; i++) {
		char c = in[i];

		if (c != '\\') {
			strbuf_addch(out, c);
			continue;
		}
		if (++i >= len)
			return -1;
		c = in[i];
		switch (c) {
		case 'a': strbuf_addch(out, '\a'); break;
		case 'b': strbuf_addch(out, '\b'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'n': strbuf_addch(out, '\n'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 't': strbuf_addch(out, '\t'); break;
		case 'v': strbuf_addch(out, '\v'); break;
		case '\\': case '"': strbuf_addch(out, c); break;
		default:
			if (c < '0' || c > '3' || i + 2 >= len ||
			    in[i + 1] < '0' || in[i + 1] > '7' ||
			    in[i + 2] < '0' || in[i + 2] > '7')
				return -1;
			strbuf_addch(out, (char)(((c - '0') << 6) |
						 ((in[i + 1] - '0') << 3) |
						 (in[i + 2] - '0')));
			i += 2;
		}
	}
	return i == len - 1 ? 0 : -1;
}
