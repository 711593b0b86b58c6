/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_YAML_READ_H
#define AG_YAML_READ_H

/**
 * Typed reads from a parsed YAML tree (base/yaml-doc.h).
 *
 * Types follow the YAML 1.2 core schema: a plain null, ~ or empty value is
 * null; plain true/false (also True, TRUE …) are booleans; plain numbers
 * (decimal, 0x hex, 0o octal, floats, .inf, .nan) are numbers; anything
 * else, and anything quoted or in block style, is a string.
 *
 * Each read that fails adds one error through ydoc_error() at the value,
 * or at `key` (may be NULL) when the value is an implicit null, and the
 * message starts with `what` (the dotted path of the value, e.g.
 * "agents.claude.model"):
 *   "<what>: expected <kind>, got <kind>"   kinds: null bool int float str
 *                                           list mapping
 *   "<what>: contains a NUL byte"
 *   "<what>: must be between <min> and <max>"
 *   "<what>: keys must be non-empty strings"
 *   "<what>: unknown key '<k>'; allowed: <a>, <b> …"
 * Returned strings are fresh copies the caller frees.
 */
#include "base/common.h"
#include "base/yaml-doc.h"

enum ykind { YK_NULL, YK_BOOL, YK_INT, YK_FLOAT, YK_STR, YK_SEQ, YK_MAP };

/* The core-schema kind of `n` (NULL is YK_NULL). */
enum ykind ynode_kind(const struct ynode *n);
const char *ykind_name(enum ykind k);

/* A string (YK_STR) without NUL bytes, copied; NULL with an error. */
char *ydoc_str(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	       const char *what);

/* An integer in [min, max] (decimal, 0x, 0o); 0, or -1 with an error. */
int ydoc_int(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	     const char *what, long min, long max, long *out);

/* A boolean; 0, or -1 with an error. */
int ydoc_bool(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	      const char *what, bool *out);

/* True when `n` is of kind `k` (YK_SEQ, YK_MAP …); false with an error. */
bool ydoc_want(struct ydoc *d, const struct ynode *n, const struct ynode *key,
	       const char *what, enum ykind k);

/*
 * The index of mapping key `key` in `allowed` (NULL-terminated). -1 with
 * the unknown-key error, -2 with the non-string-key error.
 */
int ydoc_key(struct ydoc *d, const struct ynode *key, const char *what,
	     const char *const *allowed);

/* Index of `k` in `allowed` (NULL-terminated), or -1. No error. */
int key_index(const char *k, const char *const *allowed);

#endif
