/* SPDX-License-Identifier: Apache-2.0 */
/* Config git reads from the environment; see config-env.h. */
#include "base/common.h"
#include <string.h>
#include "base/envvar.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/argv.h"
#include "git/config-env.h"

/*
 * One sq-quoted word at *p, as git's sq_quote_buf() writes it: 'a' with
 * '\'' for a quote and '\!' for a bang. Advances *p; -1 when malformed.
 */
static int sq_word(const char **p, struct strbuf *out)
{
	const char *s = *p;

	if (*s != '\'')
		return -1;
	for (;;) {
		const char *end = strchr(++s, '\'');
		if (!end)
			return -1;
		strbuf_add(out, s, (size_t)(end - s));
		s = end + 1;
		if (s[0] != '\\')
			break;
		if (!s[1] || s[2] != '\'')
			return -1;
		strbuf_addch(out, s[1]);
		s += 2; /* at the quote that reopens */
	}
	*p = s;
	return 0;
}

/* GIT_CONFIG_PARAMETERS: `'key'='value'`, `'key'` or the old `'key=value'`. */
static int read_parameters(struct config_env *ce, const char *s)
{
	struct strbuf w = STRBUF_INIT;
	int ret = 0;

	while (*s && !ret) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		strbuf_reset(&w);
		ret = sq_word(&s, &w);
		if (!ret && *s == '=') {
			s++;
			strbuf_addch(&w, '=');
			ret = sq_word(&s, &w);
		}
		if (!ret && *s && *s != ' ' && *s != '\t' && *s != '\n')
			ret = -1;
		if (!ret) {
			strvec_push(&ce->kv, w.buf);
			strvec_push(&ce->from, "GIT_CONFIG_PARAMETERS");
		}
	}
	strbuf_release(&w);
	return ret;
}

static int read_count(struct config_env *ce, const char *count,
		      const char *(*get)(const char *))
{
	struct strbuf name = STRBUF_INIT, kv = STRBUF_INIT;
	unsigned long n;
	int ret = 0;

	if (!*count)
		return 0;
	if (parse_ulong(count, CONFIG_ENV_MAX, &n) < 0)
		return -1;
	for (unsigned long i = 0; i < n && !ret; i++) {
		const char *k, *v;
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_KEY_%lu", i);
		k = get(name.buf);
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_VALUE_%lu", i);
		v = get(name.buf);
		if (!k || !*k || !v) {
			ret = -1;
			break;
		}
		strbuf_reset(&kv);
		strbuf_addf(&kv, "%s=%s", k, v);
		strvec_push(&ce->kv, kv.buf);
		strvec_pushf(&ce->from, "GIT_CONFIG_KEY_%lu", i);
	}
	strbuf_release(&name);
	strbuf_release(&kv);
	return ret;
}

void config_env_read(struct config_env *ce, const char *(*get)(const char *))
{
	static const char *const files[] = { "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
					     "GIT_CONFIG_SYSTEM" };
	const char *params = get("GIT_CONFIG_PARAMETERS");
	const char *count = get("GIT_CONFIG_COUNT");

	memset(ce, 0, sizeof(*ce));
	strvec_init(&ce->kv);
	strvec_init(&ce->from);
	if (params && read_parameters(ce, params) < 0)
		ce->error = "GIT_CONFIG_PARAMETERS cannot be read (not git's quoting)";
	else if (count && read_count(ce, count, get) < 0)
		ce->error = "GIT_CONFIG_COUNT cannot be read (not a number up to 1000, or a GIT_CONFIG_KEY_<n>/VALUE_<n> is missing)";
	for (size_t i = 0; i < ARRAY_SIZE(files) && !ce->file_var; i++) {
		const char *f = get(files[i]);
		if (f && *f && strcmp(f, "/dev/null"))
			ce->file_var = files[i];
	}
}

void config_env_release(struct config_env *ce)
{
	strvec_clear(&ce->kv);
	strvec_clear(&ce->from);
}

bool config_env_hooks_off(const struct config_env *ce, size_t i)
{
	char key[32];
	const char *val;

	if (i >= ce->kv.nr || !starts_with(ce->from.v[i], "GIT_CONFIG_KEY_"))
		return false;
	val = git_config_split(ce->kv.v[i], key, sizeof(key));
	return git_config_value_disables(key, val);
}

size_t config_env_drop_hooks_off(const struct config_env *ce)
{
	struct strvec keep = STRVEC_INIT; /* key, value, key, value … */
	struct strbuf name = STRBUF_INIT;
	size_t dropped = 0, n = 0;

	if (ce->error)
		goto out;
	for (size_t i = 0; i < ce->kv.nr; i++) {
		const char *k;
		if (!starts_with(ce->from.v[i], "GIT_CONFIG_KEY_"))
			continue;
		n++;
		if (config_env_hooks_off(ce, i)) {
			dropped++;
			continue;
		}
		k = getenv(ce->from.v[i]);
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_VALUE_%s",
			    ce->from.v[i] + strlen("GIT_CONFIG_KEY_"));
		strvec_push(&keep, k);
		strvec_push(&keep, getenv(name.buf));
	}
	if (!dropped)
		goto out;
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_KEY_%zu", i);
		unsetenv(name.buf);
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_VALUE_%zu", i);
		unsetenv(name.buf);
	}
	for (size_t i = 0; i + 1 < keep.nr; i += 2) {
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_KEY_%zu", i / 2);
		setenv(name.buf, keep.v[i], 1);
		strbuf_reset(&name);
		strbuf_addf(&name, "GIT_CONFIG_VALUE_%zu", i / 2);
		setenv(name.buf, keep.v[i + 1], 1);
	}
	strbuf_reset(&name);
	strbuf_addf(&name, "%zu", keep.nr / 2);
	if (keep.nr)
		setenv("GIT_CONFIG_COUNT", name.buf, 1);
	else
		unsetenv("GIT_CONFIG_COUNT");
out:
	strvec_clear(&keep);
	strbuf_release(&name);
	return dropped;
}

bool git_trace_writes(const char *value)
{
	return value[0] == '/' || starts_with(value, "af_unix:");
}
