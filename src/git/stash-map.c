/* SPDX-License-Identifier: Apache-2.0 */
/* Reading an agent's `git stash` command line; see stash-map.h. */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include "base/strbuf.h"
#include "git/argv.h"
#include "git/stash-map.h"

static bool digits(const char *s, const char *end, unsigned long *n)
{
	char *stop;

	if (s == end || *s < '0' || *s > '9' || end - s > 9)
		return false;
	errno = 0;
	*n = strtoul(s, &stop, 10);
	return !errno && stop == end;
}

bool stash_entry_of(const char *arg, unsigned long *n)
{
	const char *rest;
	size_t len;

	if (!strcmp(arg, "stash") || !strcmp(arg, "refs/stash")) {
		*n = 0;
		return true;
	}
	if (digits(arg, arg + strlen(arg), n))
		return true;
	if (!skip_prefix(arg, "refs/stash@{", &rest) &&
	    !skip_prefix(arg, "stash@{", &rest))
		return false;
	len = strlen(rest);
	return len > 1 && rest[len - 1] == '}' &&
	       digits(rest, rest + len - 1, n);
}

static const struct {
	const char *word;
	enum stash_verb verb;
} verbs[] = {
	{ "push", STASH_PUSH },	  { "save", STASH_PUSH },
	{ "list", STASH_LIST },	  { "show", STASH_SHOW },
	{ "apply", STASH_APPLY }, { "pop", STASH_POP },
	{ "drop", STASH_DROP },	  { "clear", STASH_CLEAR },
	{ "store", STASH_STORE }, { "create", STASH_CREATE },
};

/* The one entry, or revision, apply/pop/drop/show name. */
static void take_entry(struct stash_plan *p, const char *a)
{
	unsigned long n;

	if (p->entry_given || p->rev) {
		p->bad = "more than one stash entry named";
	} else if (stash_entry_of(a, &n)) {
		p->entry = n;
		p->entry_given = true;
	} else if (p->verb == STASH_APPLY || p->verb == STASH_SHOW) {
		p->rev = a; /* a stash commit by id: git checks it */
	} else {
		p->bad = "not an entry of this session's stash (stash@{N})";
	}
}

/* store: -m and -q of its own, one commit (git's builtin/stash.c). */
static void parse_store(const struct git_argv *ga, struct stash_plan *p)
{
	for (size_t i = 0; i < ga->nopts && !p->bad; i++) {
		const struct git_optuse *u = &ga->opts[i];

		if (git_optuse_is(u, "message") && (u->flags & GOPT_NEG))
			p->message = NULL;
		else if (git_optuse_is(u, "message") && !u->value)
			p->bad = "-m needs a message";
		else if (git_optuse_is(u, "message"))
			p->message = u->value;
		else if (!git_optuse_is(u, "quiet"))
			p->bad = "an option git stash store does not take";
	}
	if (!p->bad && ga->npos > 1)
		p->bad = "more than one commit to store";
	p->commit = git_pos(ga, 0);
	if (!p->bad && !p->commit)
		p->bad = "git stash store needs a commit";
}

void stash_map_parse(const struct git_argv *ga, struct stash_plan *p)
{
	p->verb = ga->verb ? STASH_OTHER : ga->npos ? STASH_OTHER : STASH_PUSH;
	for (size_t i = 0; ga->verb && i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(ga->verb, verbs[i].word))
			p->verb = verbs[i].verb;
	p->quiet = git_opt_on(ga, "quiet");
	switch (p->verb) {
	case STASH_STORE:
		parse_store(ga, p);
		return;
	case STASH_APPLY:
	case STASH_POP:
	case STASH_DROP:
	case STASH_SHOW:
		git_argv_push_options(ga, &p->opts);
		for (size_t i = 0; i < ga->npos && !p->bad; i++)
			take_entry(p, ga->pos[i]);
		return;
	default:
		git_argv_push_after_verb(ga, &p->opts);
		return;
	}
}

void stash_plan_release(struct stash_plan *p)
{
	strvec_clear(&p->opts);
}
