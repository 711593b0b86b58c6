/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AGENTS_CONFIG_PARSE_H
#define AG_AGENTS_CONFIG_PARSE_H

/**
 * Internal to the config loader (config.c, config-agents.c): typed access
 * to libfyaml nodes with positions, and error collection. Not for other
 * modules. Every error is appended to `errs` as "<name>:<line>:<col>: msg";
 * parsing continues so that all errors are reported (config.h invariant 4).
 */
#include "base/common.h"
#include <libfyaml.h>
#include "agents/config.h"

struct cparse {
	const char *name;
	struct strbuf *errs;
	int nerr;
	const struct config_parse_opts *opts;
	const char *base_dir; /* for relative command paths */
	const char *home;     /* for ~ expansion, may be NULL */
	struct agent_config *cfg;
};

enum ykind { YK_NULL, YK_BOOL, YK_INT, YK_FLOAT, YK_STR, YK_SEQ, YK_MAP };

/* The YAML 1.2 core-schema type of a node (quoted scalars are strings). */
enum ykind ynode_kind(struct fy_node *n);
const char *ykind_name(enum ykind k);

/* Error at node `at` (or `fallback` when `at` has no position). */
AG_PRINTF(4, 5)
void cp_error(struct cparse *cp, struct fy_node *at, struct fy_node *fallback,
	      const char *fmt, ...);

/* Appends "<name>:<line>:<col>" of node `n`. */
void cp_where(struct cparse *cp, struct fy_node *n, struct strbuf *out);

/* A fresh copy of a scalar's text; NULL (with an error) when it is not a
 * string or holds a NUL byte. */
char *cp_string(struct cparse *cp, struct fy_node *n, struct fy_node *key,
		const char *where);
/* Key text of a pair (NULL with an error when the key is not a string). */
char *cp_key(struct cparse *cp, struct fy_node *key, const char *where);

/*
 * A YAML sequence of strings into `out`. A scalar is refused with the
 * "would imply a shell" message when `argv_like`, else "expected a list of
 * strings". Returns 0 or -1.
 */
int cp_string_list(struct cparse *cp, struct fy_node *v, struct fy_node *key,
		   const char *where, bool argv_like, struct strvec *out);
/* A positive number (int or float, not bool) <= max. */
int cp_positive_number(struct cparse *cp, struct fy_node *v,
		       struct fy_node *key, const char *where, double max,
		       double *out);
/* One of `allowed` (NULL-terminated): returns its index, or -1. */
int cp_enum(struct cparse *cp, struct fy_node *v, struct fy_node *key,
	    const char *where, const char *const *allowed, const char *intro);
/* An absolute path or ~/path, ~-expanded and normalised; NULL on error. */
char *cp_path(struct cparse *cp, struct fy_node *v, struct fy_node *key,
	      const char *where);
/* Unknown-key error listing the allowed keys (sorted as given). */
void cp_unknown_key(struct cparse *cp, struct fy_node *key, const char *where,
		    const char *k, const char *const *allowed);
/* Index of `k` in `allowed`, or -1. */
int key_index(const char *k, const char *const *allowed);

/* config-agents.c: the agents: block. */
void cp_agents(struct cparse *cp, struct fy_node *v, struct fy_node *key);

#endif
