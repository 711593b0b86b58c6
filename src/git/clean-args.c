/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "base/strvec.h"
#include "git/argv.h"
#include "git/clean-args.h"

/* The CLEAN_* bits of clean's parse, as git's clean reads its options. */
unsigned clean_flags_of(const struct git_argv *ga)
{
	unsigned f = 0;

	if (git_opt_count(ga, "force"))
		f |= CLEAN_FORCE; /* the last --no-force resets the count */
	if (git_opt_on(ga, "dry-run"))
		f |= CLEAN_DRY_RUN; /* the last of -n and --no-dry-run */
	if (git_opt_on(ga, "interactive"))
		f |= CLEAN_INTERACTIVE;
	if (git_opt_on(ga, "-d"))
		f |= CLEAN_DIRS;
	if (git_opt_on(ga, "-x"))
		f |= CLEAN_IGNORED;
	if (git_opt_on(ga, "-X"))
		f |= CLEAN_ONLY_IGNORED;
	return f;
}

/* Parses `clean <args>`: 0, or -1 when an option lacks its value (git
 * refuses the command line itself). */
static int parse_clean(const char *const *args, struct git_argv *ga,
		       struct strvec *words)
{
	strvec_push(words, "clean");
	for (size_t i = 0; args && args[i]; i++)
		strvec_push(words, args[i]);
	git_argv_parse(ga, (const char *const *)words->v, words->nr);
	for (size_t i = 0; i < ga->nopts; i++)
		if (ga->opts[i].flags & GOPT_MISSING)
			return -1;
	return 0;
}

int clean_dry_run_args(const char *const *args, struct strvec *out,
		       unsigned *flags)
{
	/* -n and -i would change nothing but the output; --no-dry-run
	 * would make the dry run delete: all dropped (-q too) */
	static const char *const drop[] = { "dry-run", "interactive", "quiet",
					    NULL };
	struct strvec words = STRVEC_INIT;
	struct git_argv ga;
	int ret = parse_clean(args, &ga, &words);

	*flags = 0;
	if (!ret) {
		*flags = clean_flags_of(&ga);
		git_argv_push_without(&ga, drop, out);
	}
	git_argv_release(&ga);
	strvec_clear(&words);
	return ret;
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
