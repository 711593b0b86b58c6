/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AGENTS_CONFIG_PARSE_H
#define AG_AGENTS_CONFIG_PARSE_H

/**
 * Internal to the config loader (config.c, config-agents.c): the config's
 * typed reads over the YAML tree (base/yaml-doc.h, base/yaml-read.h). Not
 * for other modules. Every error goes to the ydoc's list as
 * "<name>:<line>:<col>: msg" and is counted in doc->nerr; parsing
 * continues so that all errors are reported (config.h invariant 4).
 */
#include "base/common.h"
#include "agents/config.h"
#include "base/yaml-doc.h"
#include "base/yaml-read.h"

struct cparse {
	struct ydoc *doc; /* name, errors and their count */
	const struct config_parse_opts *opts;
	const char *base_dir; /* for relative command paths */
	const char *home;     /* for ~ expansion, may be NULL */
	struct agent_config *cfg;
};

/* Error at node `at` (or at `fallback`, a key, when `at` is an implicit
 * null); "<name>:<line>:<col>" of a node; a string value (yaml-read.h). */
#define cp_error(cp, at, fallback, ...) \
	ydoc_error((cp)->doc, (at), (fallback), __VA_ARGS__)
#define cp_where(cp, n, out) ydoc_where((cp)->doc, (n), (out))
#define cp_string(cp, n, key, where) ydoc_str((cp)->doc, (n), (key), (where))

/* Key text of a pair (NULL with an error when the key is not a string). */
char *cp_key(struct cparse *cp, const struct ynode *key, const char *where);

/*
 * A YAML sequence of strings into `out`. A scalar is refused with the
 * "would imply a shell" message when `argv_like`, else "expected a list of
 * strings". Returns 0 or -1.
 */
int cp_string_list(struct cparse *cp, const struct ynode *v,
		   const struct ynode *key, const char *where, bool argv_like,
		   struct strvec *out);
/* A positive number (int or float, not bool) <= max. */
int cp_positive_number(struct cparse *cp, const struct ynode *v,
		       const struct ynode *key, const char *where, double max,
		       double *out);
/* One of `allowed` (NULL-terminated): returns its index, or -1. */
int cp_enum(struct cparse *cp, const struct ynode *v, const struct ynode *key,
	    const char *where, const char *const *allowed, const char *intro);
/* An absolute path or ~/path, ~-expanded and normalised; NULL on error. */
char *cp_path(struct cparse *cp, const struct ynode *v, const struct ynode *key,
	      const char *where);
/* config-secrets.c: a profile's `secrets:` (replaces the preset's), and
 * the check of its hosts against allow_hosts (config.h invariant 6). */
void cp_secrets(struct cparse *cp, struct agent_profile *p,
		const struct ynode *v, const struct ynode *key, const char *w);
void cp_secrets_check_hosts(struct cparse *cp, const struct agent_profile *p,
			    const struct ynode *at, const char *w);
/* config-agents.c: the agents: block. */
void cp_agents(struct cparse *cp, const struct ynode *v,
	       const struct ynode *key);

#endif
