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

int argtable_parse(int argc, const char **argv, const struct argspec *specs,
		   arg_cb cb, void *data, int *rest)
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
			s = find(specs, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0);
			if (eq)
				val = eq + 1;
		} else if (a[0] == '-' && a[1]) {
			s = find(specs, NULL, 0, a[1]);
			if (a[2])
				val = a + 2;
		} else {
			return error("unexpected argument '%s' (see --help)", a);
		}
		if (!s)
			return error("unknown option '%s' (see --help)", a);
		if (s->kind == ARG_FLAG && val)
			return error("option '--%s' takes no value", s->name);
		if (s->kind == ARG_VALUE && !val) {
			if (i + 1 >= argc)
				return error("option '--%s' needs a value", s->name);
			val = argv[++i];
		}
		if (cb(data, s->id, val) < 0)
			return -1;
	}
	*rest = i;
	return 0;
}
