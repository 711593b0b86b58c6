/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libyaml's events into a positioned tree (yaml-doc.h). The numbers below
 * are those of the header's list.
 *
 * Invariants:
 *  1. MUST NOT read past buf + len: the text is not NUL-terminated, and
 *     libyaml is given the length.
 *  2. MUST NOT build more than max_nodes nodes or nest deeper than
 *     max_depth, whatever the text: both stop the parse at once, so memory
 *     is bounded by the text's size.
 *  3. An alias MUST NOT be followed (header 3): the first one is an error
 *     that ends the parse, so even a "billion laughs" costs one line.
 *  4. On any error the tree is dropped: no caller sees a half-read file.
 */
#include "base/common.h"
#include <jansson.h>
#include <stdarg.h>
#include <yaml.h>
#include "base/die.h"
#include "base/utf8.h"
#include "base/xalloc.h"
#include "base/yaml-doc.h"

#define CHUNK_BYTES (64 * 1024)
#define KEY_SHOWN 100 /* bytes of a key quoted in a message */

struct ydoc_chunk {
	struct ydoc_chunk *next;
	size_t used, cap;
	max_align_t data[];
};

struct frame {
	struct ynode *coll, *last;
	size_t count; /* children so far (keys and values) */
};

struct build {
	struct ydoc *d;
	const struct ydoc_limits *lim;
	const char *noun;
	struct frame *stack;
	unsigned depth;
	bool docs, stop;
	const struct ynode **keys; /* scratch for the duplicate check */
	size_t keys_alloc;
};

static void *arena(struct ydoc *d, size_t n)
{
	struct ydoc_chunk *c = d->chunks;
	size_t a = sizeof(max_align_t);
	void *p;

	n = st_add(n, a - 1) / a * a;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_BYTES / 4 ? n : CHUNK_BYTES;
		struct ydoc_chunk *nc = xmalloc(st_add(sizeof(*nc), cap));
		nc->used = 0;
		nc->cap = cap;
		if (c && cap == n) { /* a big one: keep filling the current */
			nc->next = c->next;
			c->next = nc;
		} else {
			nc->next = c;
			d->chunks = nc;
		}
		c = nc;
	}
	p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

static AG_PRINTF(4, 0) void verror_at(struct ydoc *d, int line, int col,
				      const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	size_t start;

	strbuf_addf(&sb, "%s:%d:%d: ", d->name, line, col);
	start = sb.len;
	strbuf_vaddf(&sb, fmt, ap);
	/* one error, one line: quoted user text may hold any byte */
	for (size_t i = start; i < sb.len; i++)
		if ((unsigned char)sb.buf[i] < 0x20 || sb.buf[i] == 0x7f)
			sb.buf[i] = '?';
	strvec_push(d->errors, sb.buf);
	strbuf_release(&sb);
	d->nerr++;
}

static AG_PRINTF(4, 5) void error_at(struct ydoc *d, int line, int col,
				     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(d, line, col, fmt, ap);
	va_end(ap);
}

static const struct ynode *pick(const struct ynode *at,
				const struct ynode *fallback)
{
	if (fallback && (!at || at->implicit))
		return fallback;
	return at;
}

void ydoc_error(struct ydoc *d, const struct ynode *at,
		const struct ynode *fallback, const char *fmt, ...)
{
	const struct ynode *n = pick(at, fallback);
	va_list ap;

	va_start(ap, fmt);
	verror_at(d, n ? n->line : 1, n ? n->col : 1, fmt, ap);
	va_end(ap);
}

void ydoc_where(const struct ydoc *d, const struct ynode *n, struct strbuf *out)
{
	strbuf_addf(out, "%s:%d:%d", d->name, n ? n->line : 1, n ? n->col : 1);
}

/* Header 1: strict UTF-8, no NUL, not too long; positions as libyaml's. */
static int check_text(struct ydoc *d, const char *buf, size_t len, size_t max)
{
	const unsigned char *s = (const unsigned char *)buf;
	int line = 1, col = 1;
	size_t i, n;

	for (i = 0; i < len; i += n, col++) {
		if (i >= max) {
			error_at(d, line, col, "larger than %zu bytes", max);
			return -1;
		}
		if (!s[i]) {
			error_at(d, line, col, "contains a NUL byte");
			return -1;
		}
		n = utf8_seq_len(s + i, len - i);
		if (!n) {
			error_at(d, line, col, "not valid UTF-8 text");
			return -1;
		}
		if (s[i] == '\n') {
			line++;
			col = 0;
		}
	}
	return 0;
}

/* Header 7. jansson's column counts characters, as libyaml's does. */
static int check_json(struct ydoc *d, const char *buf, size_t len)
{
	json_error_t je;
	json_t *j = json_loadb(buf, len,
			       JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);

	if (j) {
		json_decref(j);
		return 0;
	}
	error_at(d, je.line > 0 ? je.line : 1, je.column > 0 ? je.column : 1,
		 "invalid JSON: %s", je.text);
	return -1;
}

/* The byte where libyaml's character index `idx` starts, or NULL. */
static const char *char_at(const char *buf, size_t len, size_t idx)
{
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)buf[i] & 0xc0) != 0x80 && !idx--)
			return buf + i;
	return NULL;
}

static void syntax_error(struct build *b, const yaml_parser_t *p,
			 const char *buf, size_t len)
{
	const yaml_mark_t *m = &p->problem_mark;
	const char *at, *problem = p->problem ? p->problem : "cannot parse";
	struct strbuf ctx = STRBUF_INIT;

	if (p->error == YAML_MEMORY_ERROR) {
		error_at(b->d, 1, 1, "out of memory while reading YAML");
		return;
	}
	if (p->error == YAML_READER_ERROR) {
		int line = 1, col = 1;
		for (size_t i = 0; i < p->problem_offset && i < len; i++) {
			if (buf[i] == '\n')
				line++, col = 1;
			else if (((unsigned char)buf[i] & 0xc0) != 0x80)
				col++;
		}
		if (p->problem_value >= 0)
			strbuf_addf(&ctx, " (U+%04X)",
				    (unsigned)p->problem_value);
		error_at(b->d, line, col, "invalid YAML: %s%s", problem,
			 ctx.buf);
		strbuf_release(&ctx);
		return;
	}
	if (p->context)
		strbuf_addf(&ctx, " (%s at %zu:%zu)", p->context,
			    p->context_mark.line + 1,
			    p->context_mark.column + 1);
	at = char_at(buf, len, m->index);
	if (at && *at == '\t')
		strbuf_addstr(&ctx, "; YAML indents with spaces, not tabs");
	error_at(b->d, (int)m->line + 1, (int)m->column + 1,
		 "invalid YAML: %s%s", problem, ctx.buf);
	strbuf_release(&ctx);
}

/* An error at the start of event `ev`: the parse ends there. */
static AG_PRINTF(3, 4) void error_ev(struct build *b, const yaml_event_t *ev,
				     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(b->d, (int)ev->start_mark.line + 1,
		  (int)ev->start_mark.column + 1, fmt, ap);
	va_end(ap);
	b->stop = true;
}

static struct ynode *new_node(struct build *b, const yaml_event_t *ev,
			      enum ynode_type type)
{
	struct ynode *n;

	if (b->d->nodes >= b->lim->max_nodes) {
		error_ev(b, ev, "more than %zu YAML nodes", b->lim->max_nodes);
		return NULL;
	}
	b->d->nodes++;
	n = arena(b->d, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->type = (unsigned char)type;
	n->line = (int)ev->start_mark.line + 1;
	n->col = (int)ev->start_mark.column + 1;
	return n;
}

static void attach(struct build *b, struct ynode *n)
{
	struct frame *f;

	if (!b->depth) {
		b->d->root = n;
		return;
	}
	f = &b->stack[b->depth - 1];
	if (f->last)
		f->last->next = n;
	else
		f->coll->u.first = n;
	f->last = n;
	f->count++;
	if (f->coll->type == YN_SEQ) {
		f->coll->len = (uint32_t)f->count;
		return;
	}
	f->coll->len = (uint32_t)(f->count / 2);
	if (f->count % 2 && n->type != YN_SCALAR) {
		ydoc_error(b->d, n, NULL,
			   "invalid YAML: a key must be a scalar, not a %s",
			   n->type == YN_SEQ ? "list" : "mapping");
		b->stop = true;
	}
}

static bool before(const struct ynode *x, const struct ynode *y)
{
	return x->line < y->line || (x->line == y->line && x->col < y->col);
}

static int cmp_key(const void *a, const void *b)
{
	const struct ynode *x = *(const struct ynode *const *)a;
	const struct ynode *y = *(const struct ynode *const *)b;
	int c;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	c = memcmp(x->u.text, y->u.text, x->len);
	if (c)
		return c;
	return before(x, y) ? -1 : before(y, x);
}

/*
 * Header 5: sorted, so a mapping of many keys costs n log n. Reports the
 * repeat that comes first in the file.
 */
static int check_duplicates(struct build *b, const struct ynode *map)
{
	const struct ynode *k, *v, *dup = NULL, *orig = NULL;
	size_t nr = 0;

	ALLOC_GROW(b->keys, map->len, b->keys_alloc);
	ynode_for_each_pair (k, v, map)
		b->keys[nr++] =
			k; /* attach() stops at a key that is no scalar */
	qsort(b->keys, nr, sizeof(*b->keys), cmp_key);
	for (size_t first = 0, i = 1; i < nr; i++) {
		const struct ynode *a = b->keys[first], *c = b->keys[i];

		if (a->len != c->len || memcmp(a->u.text, c->u.text, a->len))
			first = i;
		else if (!dup || before(c, dup))
			dup = c, orig = a;
	}
	if (!dup)
		return 0;
	ydoc_error(b->d, dup, NULL,
		   "invalid YAML: duplicate key '%.*s' (first at %d:%d)",
		   (int)(dup->len > KEY_SHOWN ? KEY_SHOWN : dup->len),
		   dup->u.text, orig->line, orig->col);
	return -1;
}

static const yaml_char_t *tag_of(const yaml_event_t *ev)
{
	if (ev->type == YAML_SCALAR_EVENT)
		return ev->data.scalar.tag;
	if (ev->type == YAML_SEQUENCE_START_EVENT)
		return ev->data.sequence_start.tag;
	return ev->data.mapping_start.tag;
}

static void scalar(struct build *b, const yaml_event_t *ev)
{
	struct ynode *n = new_node(b, ev, YN_SCALAR);
	size_t len = ev->data.scalar.length;
	char *text;

	if (!n)
		return;
	switch (ev->data.scalar.style) {
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		n->style = YS_QUOTED;
		break;
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE:
		n->style = YS_BLOCK;
		break;
	default:
		n->style = YS_PLAIN;
		n->implicit = !len;
		break;
	}
	text = arena(b->d, st_add(len, 1));
	memcpy(text, ev->data.scalar.value, len);
	text[len] = '\0';
	n->u.text = text;
	n->len = (uint32_t)len; /* len <= max_bytes <= UINT32_MAX */
	attach(b, n);
}

static void collection(struct build *b, const yaml_event_t *ev,
		       enum ynode_type type)
{
	struct ynode *n;

	if (b->depth >= b->lim->max_depth) {
		error_ev(b, ev, "nested deeper than %u levels",
			 b->lim->max_depth);
		return;
	}
	n = new_node(b, ev, type);
	if (!n)
		return;
	attach(b, n);
	b->stack[b->depth++] = (struct frame){ n, NULL, 0 };
}

/* One event into the tree; sets b->stop when the parse must end. */
static void event(struct build *b, const yaml_event_t *ev)
{
	struct ynode *n;

	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (!b->docs) {
			b->docs = true;
			return;
		}
		/* header 2, at the second document's first line */
		error_ev(b, ev, "only one YAML document is allowed in the %s",
			 b->noun);
		return;
	case YAML_ALIAS_EVENT: /* invariant 3: the first one ends the parse */
		error_ev(b, ev, "aliases are not supported in the %s", b->noun);
		return;
	case YAML_SCALAR_EVENT:
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (tag_of(ev)) {
			error_ev(
				b, ev,
				"explicit YAML tags are not supported in the %s",
				b->noun);
			return;
		}
		if (ev->type == YAML_SCALAR_EVENT)
			scalar(b, ev);
		else
			collection(b, ev,
				   ev->type == YAML_SEQUENCE_START_EVENT
					   ? YN_SEQ
					   : YN_MAP);
		return;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (!b->depth)
			BUG("libyaml ended a collection it did not start");
		n = b->stack[--b->depth].coll;
		if (n->type == YN_MAP && check_duplicates(b, n))
			b->stop = true;
		return;
	default:
		return;
	}
}

int ydoc_parse(struct ydoc *d, const char *buf, size_t len,
	       const struct ydoc_limits *lim_in)
{
	struct ydoc_limits lim = *lim_in;
	struct build b = { .d = d, .lim = &lim };
	yaml_parser_t p;
	yaml_event_t ev;
	int nerr0 = d->nerr;

	if (!lim.max_bytes || lim.max_bytes > YDOC_MAX_BYTES)
		lim.max_bytes = YDOC_MAX_BYTES;
	if (!lim.max_depth)
		lim.max_depth = YDOC_MAX_DEPTH;
	if (!lim.max_nodes)
		lim.max_nodes = YDOC_MAX_NODES;
	if (lim.max_nodes > UINT32_MAX)
		lim.max_nodes = UINT32_MAX;
	b.noun = lim.noun ? lim.noun : "document";
	d->root = NULL;
	if (check_text(d, buf, len, lim.max_bytes) ||
	    (lim.json && check_json(d, buf, len)))
		return -1;
	if (!len)
		return 0; /* no document (libyaml wants a non-NULL buffer) */
	b.stack = xcalloc(lim.max_depth, sizeof(*b.stack));
	if (!yaml_parser_initialize(&p))
		BUG("yaml_parser_initialize failed");
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	while (!b.stop) {
		if (!yaml_parser_parse(&p, &ev)) {
			syntax_error(&b, &p, buf, len);
			break;
		}
		event(&b, &ev);
		if (ev.type == YAML_STREAM_END_EVENT)
			b.stop = true;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	free(b.stack);
	free(b.keys);
	if (d->nerr == nerr0)
		return 0;
	d->root = NULL; /* invariant 4 */
	return -1;
}

void ydoc_release(struct ydoc *d)
{
	while (d->chunks) {
		struct ydoc_chunk *c = d->chunks;
		d->chunks = c->next;
		free(c);
	}
	d->root = NULL;
	d->nodes = 0;
}
