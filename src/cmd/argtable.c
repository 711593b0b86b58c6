/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "base/die.h"
#include "base/strbuf.h"
#include "cmd/argtable.h"

static const struct argspec *find(const struct argspec *s, const char *lng,
				  size_t len, char sh)
{
	for (; s->name; s++) {
		if (lng && strlen(s->name) == len && !strncmp(s->name, lng, len))
			return s;
		if (!lng && sh && s->short_name == sh)
			return s;
	}
	return NULL;
}

/* The prefix and the help pointer of every message. */
struct who {
	const char *cmd, *hint;
};

static int fail(const struct who *w, const char *what, const char *a)
{
	bool positional = !strcmp(what, "unexpected argument");

	if (!w->cmd)
		return error("%s '%s' (see --help)", what, a);
	if (positional && w->hint)
		return error("%s: %s '%s' (%s)", w->cmd, what, a, w->hint);
	return error("%s: %s '%s' (see agentic-git %s --help)", w->cmd, what, a,
		     w->cmd);
}

static int parse(const struct who *w, int argc, const char **argv,
		 const struct argspec *specs, arg_cb cb, void *data, int *rest)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		const struct argspec *s;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (starts_with(a, "--")) {
			eq = strchr(a + 2, '=');
			s = find(specs, a + 2,
				 eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0);
			if (eq)
				val = eq + 1;
		} else if (a[0] == '-' && a[1]) {
			s = find(specs, NULL, 0, a[1]);
			if (a[2])
				val = a + 2;
		} else {
			return fail(w, "unexpected argument", a);
		}
		if (!s)
			return fail(w, "unknown option", a);
		if (s->kind == ARG_FLAG && val)
			return fail(w, "takes no value:", a);
		if (s->kind == ARG_VALUE && !val) {
			if (i + 1 >= argc)
				return fail(w, "needs a value:", a);
			val = argv[++i];
		}
		if (cb(data, s->id, val) < 0)
			return -1;
	}
	*rest = i;
	return 0;
}

int argtable_parse(int argc, const char **argv, const struct argspec *specs,
		   arg_cb cb, void *data, int *rest)
{
	const struct who w = { NULL, NULL };

	return parse(&w, argc, argv, specs, cb, data, rest);
}

int argtable_parse_cmd(const char *cmd, const char *hint, int argc,
		       const char **argv, const struct argspec *specs,
		       arg_cb cb, void *data, int *rest)
{
	const struct who w = { cmd, hint };

	return parse(&w, argc, argv, specs, cb, data, rest);
}
