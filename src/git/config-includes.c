// SPDX-License-Identifier: Apache-2.0
/* The files a repository's config includes (git/config-includes.h). */
#include "git/config-includes.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define INCLUDE_DEPTH 5

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* `path = value` inside an include section: the value, unquoted */
static const char *path_value(char *line)
{
	char *eq = strchr(line, '='), *key, *v;

	if (!eq)
		return NULL;
	*eq = '\0';
	key = trim(line);
	if (strcasecmp(key, "path"))
		return NULL;
	v = trim(eq + 1);
	if (*v == '"') {
		char *q = strrchr(v + 1, '"');
		if (q)
			*q = '\0';
		v++;
	}
	return v;
}

static void targets(const char *file, const char *home, struct strvec *out,
		    int depth)
{
	struct strbuf buf = STRBUF_INIT;
	bool in_include = false;
	char *dir, *line, *next;

	if (depth > INCLUDE_DEPTH ||
	    read_file_bounded(file, 1 << 20, RF_REGULAR, &buf) < 0) {
		strbuf_release(&buf);
		return;
	}
	dir = path_dirname(file);
	for (line = buf.buf; line && *line; line = next) {
		char *t;
		const char *v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		t = trim(line);
		if (*t == '[') {
			in_include = !strncasecmp(t, "[include]", 9) ||
				     !strncasecmp(t, "[includeif ", 11);
			continue;
		}
		if (!in_include || !(v = path_value(t)) || !*v)
			continue;
		{
			char *p = starts_with(v, "~/") && home
					  ? path_join(home, v + 2)
				  : *v == '/' ? xstrdup(v)
					      : path_join(dir, v);
			char *real = real_path(p);
			if (real && access(real, R_OK) == 0) {
				strvec_push(out, real);
				targets(real, home, out, depth + 1);
			}
			free(real);
			free(p);
		}
	}
	free(dir);
	strbuf_release(&buf);
}

void config_include_targets(const char *config_path, const char *home,
			    struct strvec *out)
{
	targets(config_path, home, out, 0);
}
