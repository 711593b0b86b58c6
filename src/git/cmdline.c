// SPDX-License-Identifier: Apache-2.0
/*
 * The subcommand's words, read once as git's parse-options reads them
 * (git/argv.h), against the option table generated from git itself
 * (git/optable.h). Pure: no I/O.
 *
 * Invariants:
 *  1. A word is read as git reads it: an option's value (stuck, `-bX`,
 *     `--opt=X`, or the next word for an option that takes one) is never
 *     an option or a positional, and a positional is never a value; a
 *     unique prefix of a long option is that option, a prefix of several
 *     is known to be git's error (GOPT_AMBIGUOUS); a short cluster is
 *     split where git splits it, a letter that takes a value ending it.
 *  2. `--` and `--end-of-options` end the options; the first `--` splits
 *     the positionals (pos_dd). A subcommand's verb is the first
 *     positional when it is one of git's own words for it; what follows
 *     is read with the verb's table.
 *  3. Without a table nothing is guessed: every `-…` word is one option,
 *     known by its spelling, and takes no value.
 *  4. Nothing here decides anything: the rules (git/rules.h) read the
 *     result. Only this file and git/argv.c read the words.
 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/argv.h"
#include "git/optable.h"

/* What git does with no verb, or with an option first (git's own code,
 * not its lists): `git stash -q` pushes, `git reflog HEAD` shows. */
static const struct implied {
	const char *sub, *verb;
	bool only_option_first; /* else also when the first word is no verb */
} implied[] = {
	{ "stash", "push", true },
	{ "reflog", "show", false },
};

struct reader {
	struct git_argv *ga;
	const char *const *w; /* the subcommand's words */
	size_t n;
	const struct git_optable *t, *next; /* own table, then next's */
	size_t cap_opts, cap_pos;
	bool ended; /* after `--` or `--end-of-options` */
};

static struct git_optuse *add_opt(struct reader *r, size_t word)
{
	struct git_argv *ga = r->ga;
	struct git_optuse *u;

	ALLOC_GROW(ga->opts, ga->nopts + 1, r->cap_opts);
	u = &ga->opts[ga->nopts++];
	memset(u, 0, sizeof(*u));
	u->word = word;
	return u;
}

static void add_pos(struct reader *r, const char *a)
{
	struct git_argv *ga = r->ga;

	ALLOC_GROW(ga->pos, ga->npos + 1, r->cap_pos);
	ga->pos[ga->npos++] = a;
}

static void note_unknown(struct reader *r, const char *word)
{
	if (!r->ga->unknown && r->t && !git_optable_partial(r->t))
		r->ga->unknown = word;
}

/* The value of an option that takes one: stuck, else the next word. */
static void take_value(struct reader *r, struct git_optuse *u,
		       const char *stuck, size_t *i)
{
	if (stuck) {
		u->value = stuck;
	} else if (*i + 1 < r->n) {
		u->value = r->w[++*i];
	} else {
		u->flags |= GOPT_MISSING;
	}
}

static const struct git_opt *resolve_long(struct reader *r, const char *name,
					  size_t len, unsigned *flags)
{
	enum git_opt_match m;
	const struct git_opt *o = git_opt_resolve(r->t, name, len, &m);

	if (!o && m != OPTM_AMBIGUOUS && r->next)
		o = git_opt_resolve(r->next, name, len, &m);
	if (m == OPTM_AMBIGUOUS)
		*flags |= GOPT_AMBIGUOUS;
	if (m == OPTM_ABBREV)
		*flags |= GOPT_ABBREV;
	return o;
}

static void read_long(struct reader *r, size_t *i)
{
	const char *a = r->w[*i];
	const char *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	struct git_optuse *u = add_opt(r, *i);

	u->spelled = name;
	u->spelled_len = len;
	if (len == 4 && !strncmp(name, "help", 4))
		return; /* git's own usage */
	u->def = r->t || r->next ? resolve_long(r, name, len, &u->flags) : NULL;
	if (!u->def) {
		u->flags |= GOPT_UNKNOWN;
		u->value = eq ? eq + 1 : NULL;
		note_unknown(r, a);
		return;
	}
	if (starts_with(u->def->lng, "no-"))
		u->flags |= GOPT_NEG;
	if (u->def->arg == OPT_ARG)
		take_value(r, u, eq ? eq + 1 : NULL, i);
	else if (eq)
		u->value = eq + 1; /* optional value; a flag's is git's error */
}

static const struct git_opt *find_short(const struct reader *r, char c)
{
	const struct git_opt *o = r->t ? git_opt_short(r->t, c) : NULL;

	return o ? o : r->next ? git_opt_short(r->next, c) : NULL;
}

/* A single-dash word: split where git splits it (invariant 1). */
static void read_short(struct reader *r, size_t *i)
{
	const char *a = r->w[*i];

	if (!r->t && !r->next) {
		/* invariant 3: one option, by its spelling */
		struct git_optuse *u = add_opt(r, *i);
		u->spelled = a;
		u->spelled_len = strlen(a);
		u->flags = GOPT_UNKNOWN | GOPT_SHORT;
		return;
	}
	for (const char *c = a + 1; *c; c++) {
		struct git_optuse *u = add_opt(r, *i);

		u->spelled = c;
		u->spelled_len = 1;
		u->flags = GOPT_SHORT;
		if (*c == 'h' && c == a + 1 && !c[1])
			return; /* git's own usage */
		if (isdigit((unsigned char)*c) &&
		    (u->def = find_short(r, '#'))) {
			/* -NUM: the digits are its value, the rest goes on */
			size_t n = strspn(c, "0123456789");
			u->value = c;
			u->spelled_len = n;
			c += n - 1;
			continue;
		}
		u->def = find_short(r, *c);
		if (!u->def) {
			u->flags |= GOPT_UNKNOWN;
			note_unknown(r, a);
			continue;
		}
		if (u->def->lng && starts_with(u->def->lng, "no-"))
			u->flags |= GOPT_NEG;
		if (u->def->arg == OPT_ARG) {
			take_value(r, u, c[1] ? c + 1 : NULL, i);
			return;
		}
		if (u->def->arg == OPT_OPTARG) {
			u->value = c[1] ? c + 1 : NULL;
			return;
		}
	}
}

static const struct implied *implied_for(const char *sub)
{
	for (size_t i = 0; i < ARRAY_SIZE(implied); i++)
		if (!strcmp(implied[i].sub, sub))
			return &implied[i];
	return NULL;
}

static bool is_verb(const struct git_optable *t, const char *a)
{
	for (const char *const *v = t && t->verbs ? t->verbs : NULL; v && *v;
	     v++)
		if (!strcmp(*v, a))
			return true;
	return false;
}

/* Switches to the verb's table: `<sub> <verb>`, diff's after it. */
static void enter_verb(struct reader *r, const char *verb, bool implied_)
{
	struct git_argv *ga = r->ga;
	char cmd[80];
	size_t ls = strlen(ga->sub), lv = strlen(verb);

	ga->verb = verb;
	ga->verb_implied = implied_;
	r->t = r->next = NULL;
	if (ls + lv + 2 > sizeof(cmd))
		return;
	memcpy(cmd, ga->sub, ls);
	cmd[ls] = ' ';
	memcpy(cmd + ls + 1, verb, lv + 1);
	r->t = git_optable_named(cmd);
	r->next = git_optable_next(cmd);
	if (r->t)
		ga->table = r->t;
}

static void read_positional(struct reader *r, const char *a)
{
	struct git_argv *ga = r->ga;
	const struct git_optable *top = ga->table;

	if (!ga->verb && !ga->npos && top && top->verbs && is_verb(top, a)) {
		enter_verb(r, a, false);
		return;
	}
	if (!ga->verb && !ga->npos) {
		const struct implied *im = implied_for(ga->sub);
		if (im && !im->only_option_first) {
			ga->verb = im->verb;
			ga->verb_implied = true;
		}
	}
	if (r->w[0] == a)
		ga->pos_leads = true;
	add_pos(r, a);
	if (r->t && git_optable_stops_at_positional(r->t->cmd))
		r->ended = true;
}

static void end_options(struct reader *r, size_t i, bool dashdash)
{
	r->ended = true;
	r->ga->opts_end = i;
	if (dashdash) {
		r->ga->dashdash = true;
		r->ga->pos_dd = r->ga->npos;
	}
}

void git_cmdline_parse(struct git_argv *ga)
{
	struct reader r = { .ga = ga };
	const struct implied *im;

	ga->opts = NULL;
	ga->pos = NULL;
	ga->nopts = ga->npos = 0;
	if (!ga->sub)
		return;
	r.w = ga->words_.argv + ga->words_.sub_idx + 1;
	r.n = ga->words_.argc - ga->words_.sub_idx - 1;
	ga->opts_end = r.n;
	/* git's other name for init */
	ga->table = r.t = git_optable_named(
		strcmp(ga->sub, "init-db") ? ga->sub : "init");
	r.next = git_optable_next(ga->sub);
	im = implied_for(ga->sub);
	if (im && (!r.n || r.w[0][0] == '-'))
		enter_verb(&r, im->verb, true);
	for (size_t i = 0; i < r.n; i++) {
		const char *a = r.w[i];

		if (r.ended) {
			if (!ga->dashdash && !strcmp(a, "--")) {
				ga->dashdash = true;
				ga->pos_dd = ga->npos;
				continue;
			}
			add_pos(&r, a);
		} else if (!strcmp(a, "--")) {
			end_options(&r, i, true);
		} else if (!strcmp(a, "--end-of-options")) {
			end_options(&r, i, false);
		} else if (a[0] != '-' || !a[1]) {
			read_positional(&r, a);
		} else if (a[1] == '-') {
			read_long(&r, &i);
		} else {
			read_short(&r, &i);
		}
	}
	if (!ga->dashdash)
		ga->pos_dd = ga->npos;
}

/* ---- reading the result ---- */

bool git_optuse_is(const struct git_optuse *u, const char *name)
{
	const char *l;

	if (!u->def) {
		/* invariant 3: by its spelling */
		if (name[0] == '-')
			return (u->flags & GOPT_SHORT) &&
			       u->spelled_len == strlen(name) &&
			       !strncmp(u->spelled, name, u->spelled_len);
		return !(u->flags & GOPT_SHORT) &&
		       u->spelled_len == strlen(name) &&
		       !strncmp(u->spelled, name, u->spelled_len);
	}
	if (name[0] == '-')
		return u->def->shrt == name[1] && !name[2];
	l = u->def->lng;
	if (!l)
		return false;
	skip_prefix(l, "no-", &l);
	return !strcmp(l, name);
}

const struct git_optuse *git_opt_last(const struct git_argv *ga,
				      const char *name)
{
	for (size_t i = ga->nopts; i-- > 0;)
		if (git_optuse_is(&ga->opts[i], name))
			return &ga->opts[i];
	return NULL;
}

bool git_opt_on(const struct git_argv *ga, const char *name)
{
	const struct git_optuse *u = git_opt_last(ga, name);

	return u && !(u->flags & GOPT_NEG);
}

bool git_opt_any_on(const struct git_argv *ga, const char *const *names)
{
	for (; *names; names++)
		if (git_opt_on(ga, *names))
			return true;
	return false;
}

size_t git_opt_count(const struct git_argv *ga, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < ga->nopts; i++) {
		if (!git_optuse_is(&ga->opts[i], name))
			continue;
		n = ga->opts[i].flags & GOPT_NEG ? 0 : n + 1;
	}
	return n;
}

const char *git_opt_value(const struct git_argv *ga, const char *name)
{
	for (size_t i = ga->nopts; i-- > 0;)
		if (git_optuse_is(&ga->opts[i], name) && ga->opts[i].value)
			return ga->opts[i].value;
	return NULL;
}

const char *git_pos(const struct git_argv *ga, size_t i)
{
	return i < ga->npos ? ga->pos[i] : NULL;
}

const char *git_optuse_spelling(const struct git_optuse *u, char *buf,
				size_t len)
{
	size_t n = u->spelled_len;

	if ((u->flags & GOPT_SHORT) && u->def) {
		n = n + 1 < len ? n : len - 2;
		buf[0] = '-';
		memcpy(buf + 1, u->spelled, n);
		buf[n + 1] = '\0';
		return buf;
	}
	if (u->flags & GOPT_SHORT) {
		n = n < len ? n : len - 1;
		memcpy(buf, u->spelled, n);
		buf[n] = '\0';
		return buf;
	}
	n = n + 2 < len ? n : len - 3;
	buf[0] = buf[1] = '-';
	memcpy(buf + 2, u->spelled, n);
	buf[n + 2] = '\0';
	return buf;
}
