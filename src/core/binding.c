/* SPDX-License-Identifier: Apache-2.0 */
/*
 * binding.json v1 (reference §2.3).
 *
 * Invariants:
 *  1. Bytes MUST be read bounded (AG_BINDING_MAX) with O_NOFOLLOW, and the
 *     signature MUST be verified over exactly those bytes before any byte
 *     reaches the JSON parser (signify verifymsg).
 *  2. The version gate runs first: absent or integer 1 is v1; anything else
 *     (2, "1", 1.5, null) is BAD_VERSION.
 *  3. Known fields MUST be strings (null counts as absent); any other type
 *     is MALFORMED. Duplicate keys are MALFORMED.
 *  4. A binding whose `agent` differs from the caller is FORGED (a copy of
 *     another agent's signed binding must not bind this agent).
 *  5. A `worktree` naming a missing path is ORPHAN (unbound).
 *  6. Unknown keys are preserved through decode/encode.
 */
#include "base/common.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/path.h"
#include "core/binding-seen.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static const char *const known[] = {
	"version", "agent", "task_id", "branch", "worktree", "source_repo",
	"issued_at", "bypass",
};

const char *ag_binding_state_str(enum ag_binding_state s)
{
	switch (s) {
	case AG_BINDING_BOUND: return "bound";
	case AG_BINDING_PARTIAL: return "unbound (binding has no task_id)";
	case AG_BINDING_NONE: return "unbound (no binding)";
	case AG_BINDING_FORGED: return "unbound (binding signature does not verify)";
	case AG_BINDING_NO_KEY: return "unbound (integrity key missing or not 32 bytes)";
	case AG_BINDING_SCHEME: return "unbound (unsupported signature scheme)";
	case AG_BINDING_BAD_VERSION: return "unbound (binding format version not supported)";
	case AG_BINDING_MALFORMED: return "unbound (binding is not valid v1 JSON)";
	case AG_BINDING_ORPHAN: return "unbound (bound worktree no longer exists)";
	case AG_BINDING_BAD_AGENT: return "unbound (invalid agent name)";
	}
	return "unbound";
}

void ag_binding_release(struct ag_binding *b)
{
	free(b->agent);
	free(b->task_id);
	free(b->branch);
	free(b->worktree);
	free(b->source_repo);
	free(b->issued_at);
	free(b->extra_json);
	free(b->bypass);
	memset(b, 0, sizeof(*b));
}

static int get_str(json_t *root, const char *key, char **out)
{
	json_t *v = json_object_get(root, key);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = xstrdup(json_string_value(v));
	return 0;
}

enum ag_binding_state ag_binding_decode(const char *buf, size_t len,
					struct ag_binding *b)
{
	json_error_t jerr;
	json_t *root, *ver, *extra;
	const char *key;
	json_t *val;
	enum ag_binding_state st = AG_BINDING_BOUND;

	memset(b, 0, sizeof(*b));
	/* A fixed hash seed: the input is small, size-capped and already
	 * authenticated, and seeding from /dev/urandom costs the hot path. */
	json_object_seed(0x61677431);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return AG_BINDING_MALFORMED;
	if (!json_is_object(root)) {
		json_decref(root);
		return AG_BINDING_MALFORMED;
	}
	ver = json_object_get(root, "version");
	if (ver && !(json_is_integer(ver) && json_integer_value(ver) == 1)) {
		json_decref(root);
		return AG_BINDING_BAD_VERSION;
	}
	b->version = 1;
	if (get_str(root, "agent", &b->agent) ||
	    get_str(root, "task_id", &b->task_id) ||
	    get_str(root, "branch", &b->branch) ||
	    get_str(root, "worktree", &b->worktree) ||
	    get_str(root, "source_repo", &b->source_repo) ||
	    get_str(root, "issued_at", &b->issued_at) ||
	    get_str(root, "bypass", &b->bypass)) {
		st = AG_BINDING_MALFORMED;
		goto out;
	}
	extra = json_object();
	json_object_foreach(root, key, val)
	{
		bool is_known = false;
		for (size_t i = 0; i < ARRAY_SIZE(known); i++)
			is_known |= !strcmp(key, known[i]);
		if (!is_known)
			json_object_set(extra, key, val);
	}
	if (json_object_size(extra))
		b->extra_json = json_dumps(extra, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(extra);
out:
	json_decref(root);
	if (st != AG_BINDING_BOUND)
		ag_binding_release(b);
	return st;
}

int ag_binding_encode(const struct ag_binding *b, char **out, size_t *len)
{
	json_t *root = json_object();
	json_t *extra = NULL;
	const char *key;
	json_t *val;

	json_object_set_new(root, "version", json_integer(1));
#define PUT(f)                                                                 \
	if (b->f)                                                              \
		json_object_set_new(root, #f, json_string(b->f));
	PUT(agent)
	PUT(task_id)
	PUT(branch)
	PUT(worktree)
	PUT(source_repo)
	PUT(issued_at)
	PUT(bypass)
#undef PUT
	if (b->extra_json) {
		extra = json_loads(b->extra_json, 0, NULL);
		if (json_is_object(extra))
			json_object_foreach(extra, key, val)
			{
				if (!json_object_get(root, key))
					json_object_set(root, key, val);
			}
		json_decref(extra);
	}
	*out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!*out)
		return -1;
	*len = strlen(*out);
	return 0;
}

enum ag_binding_state ag_binding_load(const char *home, const char *agent,
				      struct ag_binding *b)
{
	return binding_load_seen(home, agent, NULL, b);
}

enum ag_binding_state binding_load_seen(const char *home, const char *agent,
					const char *seen, struct ag_binding *b)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT, sig = STRBUF_INIT;
	uint8_t key[AG_KEY_LEN];
	bool have_key, in_cage = false;
	enum ag_binding_state st;
	enum ag_verify v;
	struct stat sb;
	const char *why, *rel;

	memset(b, 0, sizeof(*b));
	if (!ag_agent_name_valid(agent, &why))
		return AG_BINDING_BAD_AGENT;
	strbuf_addpath(&path, home, "runtime/");
	strbuf_addpath(&path, agent, "binding.json");
	if (read_small_regular(path.buf, AG_BINDING_MAX, &data) < 0) {
		st = errno == ENOENT ? AG_BINDING_NONE : AG_BINDING_MALFORMED;
		goto out;
	}
	/* the fleet key; inside a cage, where it is out of reach, the
	 * session's own sandbox key and its signature */
	have_key = !ag_key_load(home, key);
	if (!have_key && (errno == ENOENT || errno == EACCES))
		in_cage = have_key = !ag_sandbox_key_load(home, agent, key);
	strbuf_addstr(&path, in_cage ? AG_SANDBOX_SIG_SUFFIX : ".sig");
	if (read_small_regular(path.buf, AG_SIG_MAX, &sig) < 0)
		strbuf_reset(&sig); /* a missing sig is an empty tag */
	v = ag_hmac_verify(have_key ? key : NULL, AG_KEY_LEN, data.buf,
			   data.len, sig.buf, sig.len, NULL, 0);
	if (have_key)
		ag_key_wipe(key);
	switch (v) {
	case AG_VERIFY_OK: break;
	case AG_VERIFY_MISSING_KEY: st = AG_BINDING_NO_KEY; goto out;
	case AG_VERIFY_UNSUPPORTED_SCHEME: st = AG_BINDING_SCHEME; goto out;
	default: st = AG_BINDING_FORGED; goto out;
	}
	st = ag_binding_decode(data.buf, data.len, b);
	if (st != AG_BINDING_BOUND)
		goto out;
	if (b->agent && strcmp(b->agent, agent)) {
		st = AG_BINDING_FORGED;
		goto out_release;
	}
	/* a literal parent of a directory just seen exists: no stat */
	if (b->worktree &&
	    !(seen && b->worktree[0] == '/' &&
	      path_inside(seen, b->worktree, &rel)) &&
	    stat(b->worktree, &sb) < 0) {
		st = AG_BINDING_ORPHAN;
		goto out_release;
	}
	if (!b->task_id)
		st = AG_BINDING_PARTIAL;
	goto out;
out_release:
	ag_binding_release(b);
out:
	strbuf_release(&path);
	strbuf_release(&data);
	strbuf_release(&sig);
	return st;
}
