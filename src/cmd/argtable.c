/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdint.h>
#include <string.h>
#include "base/die.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "cmd/argtable.h"

const struct argspec argtable_no_options[] = { ARGSPEC_END };
const struct argspec argtable_json_only[] = {
	{ "json", 0, ARG_FLAG, 0, 0, 0, 0 },
	ARGSPEC_END,
};

/* The seen-mask of ARGF_REQUIRED is one bit per spec. */
#define ARGT_SPECS_MAX 64

static bool in_sub(const struct argtable *t, const struct argspec *s)
{
	return !s->subs || (s->subs & t->sub);
}

static const struct argspec *find(const struct argtable *t, const char *lng,
				  size_t len, char sh)
{
	for (const struct argspec *s = t->specs; s->name; s++) {
		if (!in_sub(t, s))
			continue;
		if (lng && strlen(s->name) == len && !strncmp(s->name, lng, len))
			return s;
		if (!lng && sh && s->short_name == sh)
			return s;
	}
	return NULL;
}

/* One line: `<cmd>: <what> '<pre><a>' (<hint or help pointer>)`. */
static int fail(const struct argtable *t, const char *what, const char *pre,
		const char *a)
{
	bool positional = !strcmp(what, "unexpected argument");

	if (!t->cmd)
		return error("%s '%s%s' (see --help)", what, pre, a);
	if (positional && t->hint)
		return error("%s: %s '%s%s' (%s)", t->cmd, what, pre, a,
			     t->hint);
	if (t->help)
		return error("%s: %s '%s%s' (see %s)", t->cmd, what, pre, a,
			     t->help);
	return error("%s: %s '%s%s' (see agentic-git %s --help)", t->cmd, what,
		     pre, a, t->cmd);
}

static int store(const struct argtable *t, const struct argspec *s, void *data,
		 const char *val)
{
	char *at = (char *)data + s->off;

	if (t->cb)
		return t->cb(data, s->id, val);
	if (s->kind == ARG_FLAG)
		*(bool *)at = true;
	else if (s->kind == ARG_VALUE)
		*(const char **)at = val;
	else
		strvec_push((struct strvec *)at, val);
	return 0;
}

static int positional(const struct argtable *t, struct argres *res,
		      const char *a)
{
	if (res->pos_nr >= t->max_pos)
		return fail(t, "unexpected argument", "", a);
	res->pos[res->pos_nr++] = a;
	return 0;
}

/* The spec argv[*i] names, its value consumed; NULL when it printed why. */
static const struct argspec *option(const struct argtable *t, int argc,
				    const char **argv, int *i, const char **val)
{
	const char *a = argv[*i], *eq;
	const struct argspec *s;

	*val = NULL;
	if (starts_with(a, "--")) {
		eq = strchr(a + 2, '=');
		s = find(t, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2),
			 0);
		if (eq)
			*val = eq + 1;
	} else {
		s = find(t, NULL, 0, a[1]);
		if (a[2])
			*val = a + 2;
	}
	if (!s)
		return fail(t, "unknown option", "", a), NULL;
	if (s->kind == ARG_FLAG && *val)
		return fail(t, "takes no value:", "", a), NULL;
	if (s->kind != ARG_FLAG && !*val) {
		if (*i + 1 >= argc)
			return fail(t, "needs a value:", "", a), NULL;
		*val = argv[++*i];
	}
	if (s->kind != ARG_FLAG && (s->flags & ARGF_NONEMPTY) && !**val)
		return fail(t, "needs a non-empty value:", "", a), NULL;
	return s;
}

static int check_required(const struct argtable *t, uint64_t seen)
{
	for (size_t k = 0; t->specs[k].name; k++) {
		const struct argspec *s = &t->specs[k];

		if ((s->flags & ARGF_REQUIRED) && in_sub(t, s) &&
		    !(seen & (UINT64_C(1) << k)))
			return fail(t, "missing option", "--", s->name);
	}
	return 0;
}

int argtable_parse_table(const struct argtable *t, int argc, const char **argv,
			 void *data, struct argres *res)
{
	uint64_t seen = 0;
	size_t n = 0;
	int i;

	while (t->specs[n].name)
		n++;
	if (t->max_pos > ARGT_POS_MAX || n > ARGT_SPECS_MAX)
		BUG("argtable '%s': max_pos %zu > %d or %zu options > %d",
		    t->cmd ? t->cmd : "", t->max_pos, ARGT_POS_MAX, n,
		    ARGT_SPECS_MAX);
	memset(res, 0, sizeof(*res));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		const struct argspec *s;

		if (!strcmp(a, "--")) {
			res->dashdash = true;
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (positional(t, res, a) < 0)
				return -1;
			continue;
		}
		s = option(t, argc, argv, &i, &val);
		if (!s)
			return -1;
		seen |= UINT64_C(1) << (s - t->specs);
		if (store(t, s, data, val) < 0)
			return -1;
	}
	for (; (t->flags & ARGT_NO_REST) && i < argc; i++)
		if (positional(t, res, argv[i]) < 0)
			return -1;
	res->rest = i;
	return check_required(t, seen);
}

int argtable_parse_cmd(const char *cmd, const char *hint, int argc,
		       const char **argv, const struct argspec *specs,
		       arg_cb cb, void *data, int *rest)
{
	const struct argtable t = { .cmd = cmd,
				    .hint = hint,
				    .specs = specs,
				    .cb = cb };
	struct argres res;

	if (argtable_parse_table(&t, argc, argv, data, &res) < 0)
		return -1;
	*rest = res.rest;
	return 0;
}

int argtable_parse(int argc, const char **argv, const struct argspec *specs,
		   arg_cb cb, void *data, int *rest)
{
	return argtable_parse_cmd(NULL, NULL, argc, argv, specs, cb, data,
				  rest);
}
