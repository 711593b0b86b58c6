/* SPDX-License-Identifier: Apache-2.0 */
/* Reading an agent's `git stash` command line; see stash-map.h. */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include "base/strbuf.h"
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

static void parse_store(const char *const *args, size_t nargs,
			struct stash_plan *p)
{
	for (size_t i = 0; i < nargs && !p->bad; i++) {
		const char *a = args[i], *v;

		if (!strcmp(a, "-m") || !strcmp(a, "--message")) {
			if (i + 1 >= nargs)
				p->bad = "-m needs a message";
			else
				p->message = args[++i];
		} else if (skip_prefix(a, "--message=", &v)) {
			p->message = v;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			strvec_push(&p->opts, a);
		} else if (a[0] == '-' && strcmp(a, "--")) {
			p->bad = "an option git stash store does not take";
		} else if (strcmp(a, "--") && p->commit) {
			p->bad = "more than one commit to store";
		} else if (strcmp(a, "--")) {
			p->commit = a;
		}
	}
	if (!p->bad && !p->commit)
		p->bad = "git stash store needs a commit";
}

void stash_map_parse(const char *const *args, size_t nargs,
		     struct stash_plan *p)
{
	bool dashdash = false;

	p->verb = STASH_PUSH;
	if (nargs && args[0][0] != '-') {
		p->verb = STASH_OTHER;
		for (size_t i = 0; i < ARRAY_SIZE(verbs); i++)
			if (!strcmp(args[0], verbs[i].word))
				p->verb = verbs[i].verb;
		args++;
		nargs--;
	}
	switch (p->verb) {
	case STASH_STORE:
		parse_store(args, nargs, p);
		return;
	case STASH_APPLY:
	case STASH_POP:
	case STASH_DROP:
	case STASH_SHOW:
		for (size_t i = 0; i < nargs && !p->bad; i++) {
			const char *a = args[i];
			if (!dashdash && !strcmp(a, "--"))
				dashdash = true;
			else if (!dashdash && a[0] == '-' && a[1])
				strvec_push(&p->opts, a);
			else
				take_entry(p, a);
		}
		return;
	default:
		strvec_pushn(&p->opts, args, nargs);
		return;
	}
}

void stash_plan_release(struct stash_plan *p)
{
	strvec_clear(&p->opts);
}
