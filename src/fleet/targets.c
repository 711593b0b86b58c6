/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <string.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/strset.h"
#include "base/xalloc.h"
#include "base/yaml-doc.h"
#include "fleet/targets.h"

#define FIELD_MAX 4096 /* bytes in one scalar */
/* TARGETS_MAX entries of seven keys, with room for verify_command lists */
#define TARGETS_MAX_NODES (1u << 21)

static int error_add(struct strvec *errors, const char *msg)
{
	strvec_push(errors, msg);
	return -1;
}

struct parse_ctx {
	struct ydoc *doc;
	bool json;
};

/* An error at `n`, or at its key `k` when `n` is an empty value. */
#define perr(c, n, k, ...) ydoc_error((c)->doc, (n), (k), __VA_ARGS__)

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

/*
 * A non-empty scalar without NUL or control characters, or NULL + error.
 * Unlike the config, a plain 123 is a string here (a branch may be named
 * so); a plain null, ~, true or false, and in JSON any unquoted value, is
 * not.
 */
static char *get_str(struct parse_ctx *c, const struct ynode *n,
		     const struct ynode *k, const char *what)
{
	const char *s;
	size_t len;

	if (!n || n->type != YN_SCALAR || n->implicit) {
		perr(c, n, k, "'%s' must be a string", what);
		return NULL;
	}
	s = n->u.text;
	len = n->len;
	if (n->style == YS_PLAIN &&
	    (c->json || (len == 4 && !memcmp(s, "null", 4)) ||
	     (len == 1 && s[0] == '~') || (len == 4 && !memcmp(s, "true", 4)) ||
	     (len == 5 && !memcmp(s, "false", 5)))) {
		perr(c, n, k, "'%s' must be a string", what);
		return NULL;
	}
	if (!len) {
		perr(c, n, k, "'%s' must not be empty", what);
		return NULL;
	}
	if (len > FIELD_MAX) {
		perr(c, n, k, "'%s' is longer than %d bytes", what, FIELD_MAX);
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			perr(c, n, k, "'%s' contains a control character",
			     what);
			return NULL;
		}
	}
	return xstrndup(s, len);
}

static void check_branch(struct parse_ctx *c, const struct ynode *n,
			 const char *what, const char *v)
{
	const char *why = NULL;

	if (v && !ag_branch_name_valid(v, &why))
		perr(c, n, NULL, "'%s' is not a valid branch name '%s': %s",
		     what, v, why);
}

static void parse_argv(struct parse_ctx *c, const struct ynode *n,
		       const struct ynode *k, struct strvec *out)
{
	const struct ynode *e;

	if (n->type != YN_SEQ || !n->len) {
		perr(c, n, k,
		     "'verify_command' must be a non-empty list of strings (an argv, never a shell line)");
		return;
	}
	ynode_for_each_item (e, n) {
		char *s = get_str(c, e, k, "verify_command");
		if (s)
			strvec_push(out, s);
		free(s);
	}
}

/* The key's text, or NULL with an error when it cannot be one of ours. */
static const char *key_text(struct parse_ctx *c, const struct ynode *k,
			    const char *msg)
{
	if (k->type == YN_SCALAR && k->len && !memchr(k->u.text, '\0', k->len))
		return k->u.text;
	perr(c, k, NULL, "%s", msg);
	return NULL;
}

static void parse_entry(struct parse_ctx *c, const struct ynode *n,
			struct target_list *tl)
{
	static const char *const keys[] = { "repo", "head", "base", "key",
					    "profile", "prompt" };
	const struct ynode *k, *v;
	struct target *t;
	char **slots[6];

	if (n->type != YN_MAP) {
		perr(c, n, NULL,
		     "each target must be a mapping with repo, head and base");
		return;
	}
	t = target_new(tl);
	t->line = n->line;
	slots[0] = &t->repo, slots[1] = &t->head, slots[2] = &t->base;
	slots[3] = &t->key, slots[4] = &t->profile, slots[5] = &t->prompt;
	ynode_for_each_pair (k, v, n) {
		const char *ks = key_text(c, k, "target keys must be strings");
		size_t i;

		if (!ks)
			continue;
		if (!strcmp(ks, "verify_command")) {
			parse_argv(c, v, k, &t->verify_command);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(keys) && strcmp(ks, keys[i]); i++)
			;
		if (i == ARRAY_SIZE(keys)) {
			perr(c, k, NULL,
			     "unknown key '%s' (known: repo, head, base, key, profile, prompt, verify_command)",
			     ks);
			continue;
		}
		free(*slots[i]);
		*slots[i] = get_str(c, v, k, ks);
		if (i == 1 || i == 2)
			check_branch(c, v, ks, *slots[i]);
		if (i == 3 && *slots[i] && !target_key_valid(*slots[i]))
			perr(c, v, NULL,
			     "'key' must be 1-%d characters of [A-Za-z0-9._-], not starting with '.' or '-'",
			     TARGET_KEY_MAX);
	}
	t->key_given = t->key != NULL;
	for (size_t i = 0; i < 3; i++)
		if (!*slots[i])
			perr(c, n, NULL, "target is missing '%s'", keys[i]);
}

static void parse_root(struct parse_ctx *c, const struct ynode *root,
		       struct target_list *tl)
{
	const struct ynode *k, *v, *seq = NULL, *seq_key = NULL, *e;

	if (!root || root->type != YN_MAP) {
		perr(c, root, NULL,
		     "the top level must be a mapping with a 'targets' list");
		return;
	}
	ynode_for_each_pair (k, v, root) {
		const char *ks =
			key_text(c, k, "unknown key '?' (known: targets)");

		if (ks && !strcmp(ks, "targets"))
			seq = v, seq_key = k;
		else if (ks)
			perr(c, k, NULL, "unknown key '%s' (known: targets)",
			     ks);
	}
	if (!seq || seq->type != YN_SEQ) {
		perr(c, seq ? seq : root, seq_key, "'targets' must be a list");
		return;
	}
	if (seq->len > TARGETS_MAX) {
		perr(c, seq, NULL, "more than %d targets", TARGETS_MAX);
		return;
	}
	ynode_for_each_item (e, seq)
		parse_entry(c, e, tl);
}

int targets_parse(const char *buf, size_t len, const char *name, bool json,
		  struct target_list *out, struct strvec *errors)
{
	struct ydoc doc = YDOC_INIT(name, errors);
	const struct ydoc_limits lim = {
		.max_nodes = TARGETS_MAX_NODES,
		.noun = "targets file",
		.json = json,
	};
	struct parse_ctx c = { &doc, json };
	struct target_list tl = TARGET_LIST_INIT;

	if (!ydoc_parse(&doc, buf, len, &lim))
		parse_root(&c, doc.root, &tl);
	ydoc_release(&doc);
	if (doc.nerr) {
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
		if (!ag_branch_name_valid(val[i], &why)) {
			strvec_pushf(errors,
				     "%s: not a valid branch name '%s': %s",
				     what[i], val[i], why);
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

/*
 * Every pair of targets with the same given key, as "duplicate target key
 * 'k' (line <earlier> and line <later>)", by the later target, then the
 * earlier, in file order. Linear in the targets plus the messages: the
 * targets of one key are chained first to last (next[], and the chain's
 * last in last[] at its first).
 */
static int check_given_keys(const struct target_list *tl, struct strvec *errors)
{
	struct strset seen = STRSET_INIT;
	size_t *next = xcalloc(tl->nr ? tl->nr : 1, sizeof(*next));
	size_t *last = xcalloc(tl->nr ? tl->nr : 1, sizeof(*last));
	int bad = 0;

	for (size_t i = 0; i < tl->nr; i++) {
		struct strset_entry *e;
		size_t first;
		bool added;

		if (!tl->v[i].key_given)
			continue;
		e = strset_add(&seen, tl->v[i].key, &added);
		if (added) {
			e->value = last[i] = i;
			continue;
		}
		first = e->value;
		for (size_t j = first;; j = next[j]) {
			strvec_pushf(
				errors,
				"duplicate target key '%s' (line %d and line %d)",
				tl->v[i].key, tl->v[j].line, tl->v[i].line);
			if (j == last[first])
				break;
		}
		next[last[first]] = i;
		last[first] = i;
		bad = -1;
	}
	strset_clear(&seen);
	free(next);
	free(last);
	return bad;
}

/*
 * The first of base, base-2, base-3 ... not in `taken`. `tried` keeps, per
 * base, the next suffix to try: every one before it is taken, and keys are
 * only ever added, so a later search for the same base starts there
 * (without it, n targets of one repo and head cost n^2/2 probes).
 */
static void unique_key(struct strset *taken, struct strset *tried,
		       struct strbuf *sb)
{
	struct strset_entry *e;
	size_t len = sb->len;
	bool added;

	if (!strset_find(taken, sb->buf))
		return;
	e = strset_add(tried, sb->buf, &added);
	for (size_t n = added ? 2 : e->value;; n++) {
		strbuf_setlen(sb, len);
		strbuf_addf(sb, "-%zu", n);
		if (!strset_find(taken, sb->buf)) {
			e->value = n + 1;
			return;
		}
	}
}

int targets_finish(struct target_list *tl, struct strvec *errors)
{
	struct strset taken = STRSET_INIT, tried = STRSET_INIT;
	bool added;

	if (check_given_keys(tl, errors) < 0)
		return -1;
	for (size_t i = 0; i < tl->nr; i++)
		if (tl->v[i].key)
			strset_add(&taken, tl->v[i].key, &added);
	for (size_t i = 0; i < tl->nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (tl->v[i].key)
			continue;
		derive_key(&tl->v[i], &sb);
		unique_key(&taken, &tried, &sb);
		strset_add(&taken, sb.buf, &added);
		tl->v[i].key = strbuf_detach(&sb, NULL);
	}
	strset_clear(&taken);
	strset_clear(&tried);
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
