/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_YAML_DOC_H
#define AG_YAML_DOC_H

/**
 * The one way agentic-git reads YAML (config.yaml, targets files) and the
 * JSON spelling of a targets file: libyaml's event parser builds a small
 * tree in which every node knows its line and column; base/yaml-read.h
 * reads typed values out of it. Callers apply their own schema (unknown
 * keys are theirs to refuse).
 *
 *   struct strvec errs = STRVEC_INIT;
 *   struct ydoc doc = YDOC_INIT("config.yaml", &errs);
 *   struct ydoc_limits lim = { .max_bytes = ..., .noun = "config" };
 *   if (ydoc_parse(&doc, buf, len, &lim) == 0)
 *           walk doc.root, ydoc_error() for each schema error;
 *   ydoc_release(&doc);
 *   if (doc.nerr) print every errs.v[i] ("<name>:<line>:<col>: <message>")
 *
 * What is accepted (otherwise the parse fails at the first error, so a
 * broken file is one line):
 *  1. at most lim->max_bytes bytes of strict UTF-8 text without NUL bytes
 *     or other control characters (tab, CR and LF aside);
 *  2. one YAML document (none: root is NULL); a second one is an error;
 *  3. no aliases (`*a`): no expansion, so no "billion laughs"; anchors
 *     (`&a`) are ignored, since nothing can refer to them;
 *  4. no explicit tags (`!!str`, `!x`);
 *  5. mapping keys are scalars, each at most once per mapping (the text
 *     compared byte for byte, quoted or not);
 *  6. nesting at most lim->max_depth collections deep, at most
 *     lim->max_nodes nodes in all;
 *  7. with lim->json, the text must first be one strict JSON value
 *     (jansson: no comments, no duplicate names, no "\u0000").
 * Errors are single lines: control characters in them become '?'.
 *
 * Positions are 1-based, columns in characters, as libyaml counts them. A
 * collection is at its first character (`[`, `{`, `-` or its first key);
 * a scalar at its first character, its quote included; a node with an
 * anchor at the anchor. A value left empty (`key:`) is an implicit null
 * whose position is the end of the `:`; ydoc_error() reports it at the key
 * instead when given one.
 *
 * Ownership: the tree and every string in it belong to the ydoc and live
 * until ydoc_release(). `name` and `errors` are the caller's.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

enum ynode_type { YN_SCALAR, YN_SEQ, YN_MAP };
enum yscalar_style { YS_PLAIN, YS_QUOTED, YS_BLOCK };

struct ynode {
	unsigned char type;  /* enum ynode_type */
	unsigned char style; /* enum yscalar_style, scalars only */
	bool implicit;	     /* an empty value not written in the file */
	int line, col;
	uint32_t len; /* scalar: bytes of text; collection: items (pairs) */
	union {
		const char *text;    /* scalar: NUL-terminated, may hold NUL */
		struct ynode *first; /* collection: first item (first key) */
	} u;
	struct ynode *next; /* next item; in a mapping key->next is its value,
			       value->next the next key */
};

/* Items of a sequence, pairs of a mapping, in file order. */
#define ynode_for_each_item(e, seq) \
	for ((e) = (seq)->u.first; (e); (e) = (e)->next)
#define ynode_for_each_pair(k, v, map) \
	for ((k) = (map)->u.first; (k) && ((v) = (k)->next); (k) = (v)->next)

struct ydoc_limits {
	size_t max_bytes;   /* text length; 0 (or more): YDOC_MAX_BYTES */
	unsigned max_depth; /* nested collections; 0: YDOC_MAX_DEPTH */
	size_t max_nodes;   /* nodes in the tree; 0: YDOC_MAX_NODES */
	const char *noun;   /* "config": "aliases are not supported in the
			       config"; NULL: "document" */
	bool json;	    /* the text is JSON (invariant 7) */
};
#define YDOC_MAX_BYTES (16u << 20)
#define YDOC_MAX_DEPTH 32
#define YDOC_MAX_NODES (1u << 16)

struct ydoc_chunk;

struct ydoc {
	const char *name;      /* starts every message */
	struct strvec *errors; /* where messages go */
	int nerr;	       /* messages added through this ydoc */
	struct ynode *root;    /* NULL: no document (empty text) */
	/* private */
	struct ydoc_chunk *chunks;
	size_t nodes;
};
#define YDOC_INIT(name, errors)                    \
	{                                          \
		(name), (errors), 0, NULL, NULL, 0 \
	}

/*
 * Parses buf[0..len) (not NUL-terminated) into d->root. Returns 0, or -1
 * with the first error added to d->errors; on -1 d->root is NULL. Pure:
 * no I/O. May be called once per ydoc.
 */
int ydoc_parse(struct ydoc *d, const char *buf, size_t len,
	       const struct ydoc_limits *lim);

void ydoc_release(struct ydoc *d);

/*
 * Adds "<name>:<line>:<col>: <message>" to d->errors and counts it. The
 * position is `at`'s, or `fallback`'s (a key) when `at` is NULL or an
 * implicit null; 1:1 when neither is given.
 */
AG_PRINTF(4, 5)
void ydoc_error(struct ydoc *d, const struct ynode *at,
		const struct ynode *fallback, const char *fmt, ...);

/* Appends "<name>:<line>:<col>" of `n` (1:1 for NULL). */
void ydoc_where(const struct ydoc *d, const struct ynode *n,
		struct strbuf *out);

#endif
