/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AGENTIC_GIT_CORE_H
#define AGENTIC_GIT_CORE_H

/**
 * libagentic-git-core: the contract surface for embedders (orchestrators
 * that provision agents themselves) and for the agentic-git binary.
 *
 * - HMAC-SHA256 signatures over binding.json / policy.toml, written as 64
 *   lowercase hex characters, accepted on read as bare hex or as the
 *   `ag-hmac-sha256:v1:raw:<hex>` envelope.
 * - The integrity key: 32 raw bytes at <home>/.config-integrity-key, mode
 *   0600, created exclusively (first writer wins, never replaced).
 * - binding.json v1: decode (any key order, unknown keys kept) and encode.
 * - Protected-ref matching, with policy.toml's `protected_refs` globs.
 * - Agent and branch name validation.
 *
 * Ownership: every char * in a returned struct is owned by that struct and
 * released by its *_release() function. Functions return 0 on success or a
 * negative/enum error; they never print and never exit, except that
 * allocation failure aborts the process.
 *
 * Link with `pkg-config --libs agentic-git-core`.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AG_KEY_LEN 32
#define AG_MAC_HEX_LEN 64
#define AG_BINDING_MAX 65536 /* bytes: larger binding files are refused */
#define AG_SIG_MAX 1024
#define AG_POLICY_MAX 65536
#define AG_SCHEME_PREFIX "ag-hmac-sha256:"
#define AG_SCHEME_CURRENT "ag-hmac-sha256:v1:raw"

/* ---- HMAC ---- */

enum ag_verify {
	AG_VERIFY_OK = 0,
	AG_VERIFY_MISSING_KEY,	      /* key absent or not exactly 32 bytes */
	AG_VERIFY_MALFORMED_TAG,      /* not hex, wrong length, bad envelope */
	AG_VERIFY_UNSUPPORTED_SCHEME, /* envelope names another algo/key format */
	AG_VERIFY_MISMATCH,	      /* MAC differs */
};

const char *ag_verify_str(enum ag_verify v);

/* Writes the HMAC-SHA256 of msg as 64 lowercase hex chars + NUL. */
void ag_hmac_sign_hex(const uint8_t *key, size_t keylen, const void *msg,
		      size_t len, char out[AG_MAC_HEX_LEN + 1]);

/*
 * Verifies `tag` (surrounding whitespace ignored) over msg, in constant time.
 * `key` may be NULL (MISSING_KEY). When the scheme is unsupported and
 * `scheme_out` is non-NULL, the tag's scheme text is copied there.
 */
enum ag_verify ag_hmac_verify(const uint8_t *key, size_t keylen,
			      const void *msg, size_t len, const char *tag,
			      size_t taglen, char *scheme_out,
			      size_t scheme_len);

/* ---- key ---- */

/*
 * Loads <home>/.config-integrity-key. Returns 0, or -1 with errno set:
 * ENOENT when missing, EINVAL when it is not exactly 32 bytes or not a
 * regular file.
 */
int ag_key_load(const char *home, uint8_t key[AG_KEY_LEN]);

/*
 * Creates the key when it does not exist (exclusive create with mode 0600,
 * fsync, hard link; first writer wins). An existing key of the wrong size
 * is never overwritten: -1 with errno EEXIST.
 */
int ag_key_ensure(const char *home);

/*
 * The key of one sandboxed session, so that the fleet's key never enters a
 * cage: <home>/runtime/<agent>/sandbox.key. ag_sandbox_key_issue() draws a
 * fresh one for each sandboxed launch and signs the agent's binding.json
 * with it into binding.json.sandbox.sig (both 0600); the runtime directory
 * is bound read-only into the cage, the fleet key is not, and
 * ag_binding_load() falls back to this key only when the fleet key cannot
 * be opened (missing or not readable). A holder of it can sign only this
 * agent's binding, and only a shim that cannot read the fleet key accepts
 * that. 0, or -1 with errno set (EINVAL for an invalid agent name).
 */
#define AG_SANDBOX_KEY_NAME "sandbox.key"
#define AG_SANDBOX_SIG_SUFFIX ".sandbox.sig"
int ag_sandbox_key_issue(const char *home, const char *agent);
int ag_sandbox_key_load(const char *home, const char *agent,
			uint8_t key[AG_KEY_LEN]);

/* Signs `len` bytes with the home's key into `out`. 0 or -1 (errno). */
int ag_sign_with_home(const char *home, const void *msg, size_t len,
		      char out[AG_MAC_HEX_LEN + 1]);

/* Wipes key material (explicit_bzero). */
void ag_key_wipe(uint8_t key[AG_KEY_LEN]);

/* ---- binding ---- */

struct ag_binding {
	int version;
	char *agent;
	char *task_id;
	char *branch;
	char *worktree;
	char *source_repo;
	char *issued_at;
	char *extra_json; /* unknown keys, as a JSON object text, or NULL */
	/*
	 * Whether the operator allowed the bypass variables for this agent:
	 * AG_BYPASS_ALLOWED or AG_BYPASS_DENIED (any other value counts as
	 * denied), or NULL when the binding does not say (an embedder's
	 * binding: the original contract, bypass honoured). Written by
	 * agentic-git's own sessions and dispatch. Added in 0.4.
	 */
	char *bypass;
};

#define AG_BYPASS_ALLOWED "allowed"
#define AG_BYPASS_DENIED "denied"

enum ag_binding_state {
	AG_BINDING_BOUND = 0,	/* verified, v1, task_id present, worktree ok */
	AG_BINDING_PARTIAL,	/* verified but no task_id: counts as unbound */
	AG_BINDING_NONE,	/* no binding file */
	AG_BINDING_FORGED,	/* signature missing, malformed or wrong */
	AG_BINDING_NO_KEY,	/* integrity key missing or wrong size */
	AG_BINDING_SCHEME,	/* signature scheme not supported */
	AG_BINDING_BAD_VERSION, /* version other than 1 */
	AG_BINDING_MALFORMED,	/* not JSON / wrong types / too large */
	AG_BINDING_ORPHAN,	/* worktree field names a missing path */
	AG_BINDING_BAD_AGENT,	/* agent name fails validation */
};

const char *ag_binding_state_str(enum ag_binding_state s);

/*
 * Decodes binding JSON bytes (already verified). Returns AG_BINDING_BOUND on
 * success (whatever task_id says), or BAD_VERSION/MALFORMED. On failure
 * `b` is released.
 */
enum ag_binding_state ag_binding_decode(const char *buf, size_t len,
					struct ag_binding *b);

/*
 * Encodes in the reference writer's form: 2-space pretty JSON, fields in
 * contract order, then extra keys, no trailing newline. *out is malloc'd.
 */
int ag_binding_encode(const struct ag_binding *b, char **out, size_t *len);

/*
 * Reads <home>/runtime/<agent>/binding.json and .sig, verifies the
 * signature over the exact bytes, then decodes, then checks the worktree
 * exists. On anything but BOUND/PARTIAL, `b` is left released.
 */
enum ag_binding_state ag_binding_load(const char *home, const char *agent,
				      struct ag_binding *b);

void ag_binding_release(struct ag_binding *b);

/* ---- names ---- */

/*
 * Agent names: 1-64 bytes of [a-z0-9._-], first [a-z0-9], not ending in
 * '.', no Windows device name before the first '.'. On failure returns false
 * and sets *why to a static rule description.
 */
bool ag_agent_name_valid(const char *name, const char **why);

/*
 * Branch names: git check-ref-format rules for refs/heads/<name>
 * (base/refname.h), and not "@", "HEAD", longer than 255 bytes or starting
 * with '-'. On failure returns false and sets *why to a static phrase.
 */
bool ag_branch_name_valid(const char *name, const char **why);

/* ---- protected refs ---- */

struct ag_protected {
	char **patterns; /* lowercased glob patterns */
	size_t nr, alloc;
};

/* The floor: main and master. */
void ag_protected_init(struct ag_protected *p);
void ag_protected_release(struct ag_protected *p);
int ag_protected_add(struct ag_protected *p, const char *pattern);

/*
 * True when `ref` (a branch name, or refs/heads/<name>) matches a protected
 * pattern, case-insensitively. Patterns may use `*` (any run of characters,
 * '/' included) and `?`.
 */
bool ag_protected_match(const struct ag_protected *p, const char *ref);

/*
 * Strict parser for policy.toml: blank lines, `#` comments, and one key,
 * `protected_refs = [ "glob", ... ]` (one or more lines, trailing comma
 * allowed, basic strings with \" \\ escapes). Anything else is an error:
 * returns -1 and writes "line:col: message" into err.
 */
int ag_policy_parse(const char *buf, size_t len, struct ag_protected *p,
		    char *err, size_t errlen);

/*
 * Loads <home>/policy.toml if present and its .sig verifies; otherwise the
 * floor only. Returns 0 when the policy was applied or absent, -1 when it
 * exists but was refused (bad signature or parse error; err says why).
 */
int ag_policy_load(const char *home, struct ag_protected *p, char *err,
		   size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
