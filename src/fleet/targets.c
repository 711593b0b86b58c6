/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <libfyaml.h>
#include <stdarg.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/yaml-guard.h"
#include "base/xalloc.h"
#include "fleet/targets.h"

#define FIELD_MAX 4096 /* bytes in one scalar */

static int error_add(struct strvec *errors, const char *msg)
{
	strvec_push(errors, msg);
	return -1;
}

struct parse_ctx {
	const char *name;
	bool json;
	struct strvec *errors;
	int nerr;
};

/*
 * libfyaml 0.7 exposes start marks on tokens only: a scalar's own, or for a
 * collection, its first item's (close enough to point a human at it).
 */
static const struct fy_mark *node_mark(struct fy_node *n)
{
	void *it = NULL;

	for (int depth = 0; n && depth < 64; depth++) {
		struct fy_node_pair *p;

		switch (fy_node_get_type(n)) {
		case FYNT_SCALAR:
			return fy_token_start_mark(fy_node_get_scalar_token(n));
		case FYNT_MAPPING:
			it = NULL;
			p = fy_node_mapping_iterate(n, &it);
			n = p ? fy_node_pair_key(p) : NULL;
			break;
		default:
			it = NULL;
			n = fy_node_sequence_iterate(n, &it);
			break;
		}
	}
	return NULL;
}

static AG_PRINTF(3, 4) void perr(struct parse_ctx *c, struct fy_node *n,
				 const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	const struct fy_mark *m = node_mark(n);
	va_list ap;

	strbuf_addf(&sb, "%s:%d:%d: ", c->name, m ? m->line + 1 : 1,
		    m ? m->column + 1 : 1);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(c->errors, sb.buf);
	strbuf_release(&sb);
	c->nerr++;
}

static struct target *target_new(struct target_list *tl)
{
	struct target *t;

	if (tl->nr == tl->alloc) {
		tl->alloc = tl->alloc ? 2 * tl->alloc : 16;
		if (tl->alloc > SIZE_MAX / sizeof(*tl->v))
			BUG("target list overflow");
		tl->v = xrealloc(tl->v, tl->alloc * sizeof(*tl->v));
	}
	t = &tl->v[tl->nr++];
	memset(t, 0, sizeof(*t));
	strvec_init(&t->verify_command);
	return t;
}

static bool node_quoted(struct fy_node *n)
{
	enum fy_node_style st = fy_node_get_style(n);

	return st == FYNS_SINGLE_QUOTED || st == FYNS_DOUBLE_QUOTED ||
	       st == FYNS_LITERAL || st == FYNS_FOLDED;
}

/* A non-empty scalar without NUL or control characters, or NULL + error. */
static char *get_str(struct parse_ctx *c, struct fy_node *n, const char *what)
{
	const char *s;
	size_t len;

	if (!n || fy_node_get_type(n) != FYNT_SCALAR) {
		perr(c, n, "'%s' must be a string", what);
		return NULL;
	}
	s = fy_node_get_scalar(n, &len);
	/* JSON: only "strings"; YAML: a plain null/~/true/false is not one. */
	if (!node_quoted(n) && s &&
	    (c->json || (len == 4 && !memcmp(s, "null", 4)) ||
	     (len == 1 && s[0] == '~') || (len == 4 && !memcmp(s, "true", 4)) ||
	     (len == 5 && !memcmp(s, "false", 5)))) {
		perr(c, n, "'%s' must be a string", what);
		return NULL;
	}
	if (!s || !len) {
		perr(c, n, "'%s' must not be empty", what);
		return NULL;
	}
	if (len > FIELD_MAX) {
		perr(c, n, "'%s' is longer than %d bytes", what, FIELD_MAX);
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			perr(c, n, "'%s' contains a control character", what);
			return NULL;
		}
	}
	return xstrndup(s, len);
}

static void check_branch(struct parse_ctx *c, struct fy_node *n,
			 const char *what, const char *v)
{
	const char *why = NULL;

	if (v && (v[0] == '-' || !ag_branch_name_valid(v, &why)))
		perr(c, n, "'%s' is not a valid branch name '%s': %s", what, v,
		     why ? why : "must not start with '-'");
}

static void parse_argv(struct parse_ctx *c, struct fy_node *n,
		       struct strvec *out)
{
	void *it = NULL;
	struct fy_node *e;

	if (!n || fy_node_get_type(n) != FYNT_SEQUENCE || !fy_node_sequence_item_count(n)) {
		perr(c, n, "'verify_command' must be a non-empty list of strings (an argv, never a shell line)");
		return;
	}
	while ((e = fy_node_sequence_iterate(n, &it))) {
		char *s = get_str(c, e, "verify_command");
		if (s)
			strvec_push(out, s);
		free(s);
	}
}

static void parse_entry(struct parse_ctx *c, struct fy_node *n,
			struct target_list *tl)
{
	static const char *const keys[] = { "repo", "head", "base", "key",
					    "profile", "prompt" };
	struct fy_node_pair *p;
	void *it = NULL;
	struct target *t;
	char **slots[6];

	if (fy_node_get_type(n) != FYNT_MAPPING) {
		perr(c, n, "each target must be a mapping with repo, head and base");
		return;
	}
	t = target_new(tl);
	t->line = node_mark(n) ? node_mark(n)->line + 1 : 0;
	slots[0] = &t->repo, slots[1] = &t->head, slots[2] = &t->base;
	slots[3] = &t->key, slots[4] = &t->profile, slots[5] = &t->prompt;
	while ((p = fy_node_mapping_iterate(n, &it))) {
		struct fy_node *k = fy_node_pair_key(p), *v = fy_node_pair_value(p);
		const char *ks = k ? fy_node_get_scalar0(k) : NULL;
		size_t i;

		if (!ks) {
			perr(c, k, "target keys must be strings");
			continue;
		}
		if (!strcmp(ks, "verify_command")) {
			parse_argv(c, v, &t->verify_command);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(keys) && strcmp(ks, keys[i]); i++)
			;
		if (i == ARRAY_SIZE(keys)) {
			perr(c, k, "unknown key '%s' (known: repo, head, base, key, profile, prompt, verify_command)", ks);
			continue;
		}
		free(*slots[i]);
		*slots[i] = get_str(c, v, ks);
		if (i == 1 || i == 2)
			check_branch(c, v, ks, *slots[i]);
		if (i == 3 && *slots[i] && !target_key_valid(*slots[i]))
			perr(c, v, "'key' must be 1-%d characters of [A-Za-z0-9._-], not starting with '.' or '-'",
			     TARGET_KEY_MAX);
	}
	t->key_given = t->key != NULL;
	for (size_t i = 0; i < 3; i++)
		if (!*slots[i])
			perr(c, n, "target is missing '%s'", keys[i]);
}

static void parse_root(struct parse_ctx *c, struct fy_node *root,
		       struct target_list *tl)
{
	struct fy_node_pair *p;
	struct fy_node *seq = NULL, *e;
	void *it = NULL;

	if (!root || fy_node_get_type(root) != FYNT_MAPPING) {
		perr(c, root, "the top level must be a mapping with a 'targets' list");
		return;
	}
	while ((p = fy_node_mapping_iterate(root, &it))) {
		struct fy_node *k = fy_node_pair_key(p);
		const char *ks = k ? fy_node_get_scalar0(k) : NULL;

		if (ks && !strcmp(ks, "targets"))
			seq = fy_node_pair_value(p);
		else
			perr(c, k, "unknown key '%s' (known: targets)", ks ? ks : "?");
	}
	if (!seq || fy_node_get_type(seq) != FYNT_SEQUENCE) {
		perr(c, seq ? seq : root, "'targets' must be a list");
		return;
	}
	if (fy_node_sequence_item_count(seq) > TARGETS_MAX) {
		perr(c, seq, "more than %d targets", TARGETS_MAX);
		return;
	}
	it = NULL;
	while ((e = fy_node_sequence_iterate(seq, &it)))
		parse_entry(c, e, tl);
}

static void syntax_errors(struct parse_ctx *c, struct fy_diag *diag)
{
	struct fy_diag_error *de;
	void *it = NULL;
	int before = c->nerr;

	while ((de = fy_diag_errors_iterate(diag, &it))) {
		strvec_pushf(c->errors, "%s:%d:%d: %s", c->name, de->line,
			     de->column, de->msg);
		c->nerr++;
	}
	if (c->nerr == before) {
		strvec_pushf(c->errors, "%s: not a valid document", c->name);
		c->nerr++;
	}
}

int targets_parse(const char *buf, size_t len, const char *name, bool json,
		  struct target_list *out, struct strvec *errors)
{
	struct parse_ctx c = { name, json, errors, 0 };
	struct fy_diag_cfg dcfg;
	struct fy_parse_cfg cfg = { 0 };
	struct fy_document *doc;
	struct fy_diag *diag;
	struct target_list tl = TARGET_LIST_INIT;
	int line, col;
	const char *why = yaml_guard(buf, len, &line, &col);

	if (why) {
		strvec_pushf(errors, "%s:%d:%d: %s", name, line, col, why);
		return -1;
	}
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.colorize = false;
	diag = fy_diag_create(&dcfg);
	if (!diag)
		BUG("fy_diag_create failed");
	fy_diag_set_collect_errors(diag, true);
	cfg.flags = FYPCF_QUIET | FYPCF_DISABLE_RECYCLING |
		    (json ? FYPCF_JSON_FORCE : FYPCF_JSON_NONE);
	cfg.diag = diag;
	doc = fy_document_build_from_string(&cfg, buf, len);
	if (!doc)
		syntax_errors(&c, diag);
	else
		parse_root(&c, fy_document_root(doc), &tl);
	fy_document_destroy(doc);
	fy_diag_destroy(diag);
	if (c.nerr) {
		target_list_release(&tl);
		return -1;
	}
	for (size_t i = 0; i < tl.nr; i++)
		*target_new(out) = tl.v[i];
	free(tl.v);
	return 0;
}

int targets_add(struct target_list *tl, const char *repo, const char *head,
		const char *base, const char *key, struct strvec *errors)
{
	const char *what[] = { "--head", "--base" }, *val[] = { head, base };
	int bad = 0;
	struct target *t;

	if (!repo || !*repo || !head || !base)
		return error_add(errors, "a target from flags needs --repo, --head and --base");
	for (size_t i = 0; i < 2; i++) {
		const char *why = NULL;
		if (val[i][0] == '-' || !ag_branch_name_valid(val[i], &why)) {
			strvec_pushf(errors, "%s: not a valid branch name '%s': %s",
				     what[i], val[i], why ? why : "must not start with '-'");
			bad = 1;
		}
	}
	if (key && !target_key_valid(key)) {
		strvec_pushf(errors, "--key: must be 1-%d characters of [A-Za-z0-9._-], not starting with '.' or '-'",
			     TARGET_KEY_MAX);
		bad = 1;
	}
	if (bad)
		return -1;
	t = target_new(tl);
	t->repo = xstrdup(repo);
	t->head = xstrdup(head);
	t->base = xstrdup(base);
	t->key = key ? xstrdup(key) : NULL;
	t->key_given = key != NULL;
	return 0;
}

bool target_key_valid(const char *key)
{
	size_t n = strlen(key);

	if (!n || n > TARGET_KEY_MAX || key[0] == '.' || key[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = key[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
		      ch == '-'))
			return false;
	}
	return true;
}

static bool key_taken(const struct target_list *tl, const char *key)
{
	for (size_t i = 0; i < tl->nr; i++)
		if (tl->v[i].key && !strcmp(tl->v[i].key, key))
			return true;
	return false;
}

/* "<repo basename>-<head>" with every byte outside [A-Za-z0-9._-] as '-'. */
static void derive_key(const struct target *t, struct strbuf *sb)
{
	struct strbuf raw = STRBUF_INIT;
	const char *base;

	strbuf_addstr(&raw, t->repo);
	while (raw.len > 1 && raw.buf[raw.len - 1] == '/')
		strbuf_setlen(&raw, raw.len - 1);
	base = path_basename(raw.buf);
	if (ends_with(base, ".git") && strlen(base) > 4)
		strbuf_add(sb, base, strlen(base) - 4);
	else
		strbuf_addstr(sb, base);
	strbuf_addf(sb, "-%s", t->head);
	for (size_t i = 0; i < sb->len; i++) {
		char ch = sb->buf[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
		      ch == '-'))
			sb->buf[i] = '-';
	}
	while (sb->len && (sb->buf[0] == '.' || sb->buf[0] == '-'))
		memmove(sb->buf, sb->buf + 1, sb->len--);
	if (sb->len > TARGET_KEY_MAX - 8)
		strbuf_setlen(sb, TARGET_KEY_MAX - 8);
	if (!sb->len)
		strbuf_addstr(sb, "target");
	strbuf_release(&raw);
}

int targets_finish(struct target_list *tl, struct strvec *errors)
{
	int bad = 0;

	for (size_t i = 0; i < tl->nr; i++) {
		for (size_t j = 0; j < i; j++) {
			if (tl->v[i].key_given && tl->v[j].key_given &&
			    !strcmp(tl->v[i].key, tl->v[j].key)) {
				strvec_pushf(errors, "duplicate target key '%s' (line %d and line %d)",
					     tl->v[i].key, tl->v[j].line, tl->v[i].line);
				bad = 1;
			}
		}
	}
	if (bad)
		return -1;
	for (size_t i = 0; i < tl->nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		size_t len;

		if (tl->v[i].key)
			continue;
		derive_key(&tl->v[i], &sb);
		len = sb.len;
		for (unsigned n = 2; key_taken(tl, sb.buf); n++) {
			strbuf_setlen(&sb, len);
			strbuf_addf(&sb, "-%u", n);
		}
		tl->v[i].key = strbuf_detach(&sb, NULL);
	}
	return 0;
}

int shard_parse(const char *s, unsigned *k, unsigned *n)
{
	const char *slash = strchr(s, '/');
	unsigned long kk, nn;
	char *ks;
	int r;

	if (!slash)
		return -1;
	ks = xstrndup(s, (size_t)(slash - s));
	r = parse_ulong(ks, 10000, &kk) | parse_ulong(slash + 1, 10000, &nn);
	free(ks);
	if (r || !kk || !nn || kk > nn)
		return -1;
	*k = (unsigned)kk;
	*n = (unsigned)nn;
	return 0;
}

static void target_release(struct target *t)
{
	free(t->repo);
	free(t->head);
	free(t->base);
	free(t->key);
	free(t->profile);
	free(t->prompt);
	strvec_clear(&t->verify_command);
}

void targets_shard(struct target_list *tl, unsigned k, unsigned n)
{
	size_t out = 0;

	for (size_t i = 0; i < tl->nr; i++) {
		if (i % n == k - 1)
			tl->v[out++] = tl->v[i];
		else
			target_release(&tl->v[i]);
	}
	tl->nr = out;
}

void target_list_release(struct target_list *tl)
{
	for (size_t i = 0; i < tl->nr; i++)
		target_release(&tl->v[i]);
	free(tl->v);
	tl->v = NULL;
	tl->nr = tl->alloc = 0;
}
