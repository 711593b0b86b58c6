/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_TARGETS_H
#define AG_FLEET_TARGETS_H

/**
 * Dispatch targets (PRODUCT.md §9): parsing the targets file, keys, shards.
 *
 *   struct target_list tl = TARGET_LIST_INIT;
 *   struct strvec errs = STRVEC_INIT;
 *   if (targets_parse(text, len, "t.yaml", false, &tl, &errs) < 0)
 *           print every errs.v[i] and exit 1;
 *   targets_finish(&tl, &errs);  // derive keys, check uniqueness
 *
 * The file is a mapping with one key, `targets`, a sequence of mappings with
 * the keys repo, head, base (required) and key, profile, prompt,
 * verify_command (optional; verify_command is a list of strings, an argv).
 * YAML and JSON share the shape; both are read by base/yaml-doc.h (JSON
 * checked as strict JSON first, then read as the YAML it also is) because it
 * keeps a line and column for every node, which jansson does not. Strict:
 * unknown keys, duplicate keys, aliases, wrong types, empty values and
 * invalid branch names are errors, each "file:line:col: message".
 *
 * Pure: no I/O. Paths are returned as written; the caller expands `~` and
 * resolves relative paths. Every string in a target is owned by the list.
 */
#include "base/common.h"
#include "base/strvec.h"

struct target {
	char *repo, *head, *base;
	char *key;     /* given or derived; unique; safe as a file name */
	char *profile; /* NULL when absent */
	char *prompt;  /* prompt file, NULL when absent */
	struct strvec verify_command; /* empty when absent */
	bool key_given;
	int line; /* 1-based line of the entry; 0 for --repo flags */
};

struct target_list {
	struct target *v;
	size_t nr, alloc;
};
#define TARGET_LIST_INIT { NULL, 0, 0 }

#define TARGETS_MAX 100000 /* entries per file */
#define TARGET_KEY_MAX 100

/* Parses one document. Returns 0, or -1 with messages added to `errors`. */
int targets_parse(const char *buf, size_t len, const char *name, bool json,
		  struct target_list *out, struct strvec *errors);

/* Appends one target from flags; validates as the file does. 0 or -1. */
int targets_add(struct target_list *tl, const char *repo, const char *head,
		const char *base, const char *key, struct strvec *errors);

/*
 * Derives missing keys (`<repo basename>-<head>`, sanitised, with -2, -3 ...
 * on collisions) and rejects duplicate given keys. 0 or -1.
 */
int targets_finish(struct target_list *tl, struct strvec *errors);

/* True when `key` is usable as a file name: [A-Za-z0-9._-], 1..100 bytes,
 * not starting with '.' or '-'. */
bool target_key_valid(const char *key);

/*
 * Parses "K/N" (1 <= K <= N <= 10000). Returns 0 or -1.
 */
int shard_parse(const char *s, unsigned *k, unsigned *n);

/*
 * Keeps the targets of shard K of N: the ones at positions i (0-based, file
 * order) with i % N == K - 1. Deterministic; the shards are pairwise
 * disjoint and their union is the whole list.
 */
void targets_shard(struct target_list *tl, unsigned k, unsigned n);

void target_list_release(struct target_list *tl);

#endif
