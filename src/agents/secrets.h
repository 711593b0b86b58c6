/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AGENTS_SECRETS_H
#define AG_AGENTS_SECRETS_H

/**
 * Secrets that stay outside the cage (PRODUCT.md §7, §8). Pure: no I/O.
 *
 * Under fs+api the agent's variable holds a placeholder,
 * "agentic-git-secret-<NAME>-<32 hex>", unique per launch; the proxy,
 * outside, holds the table of (name, placeholder, value, hosts) and puts
 * the value in place of the placeholder in the head of a request to one
 * of that secret's hosts, and nowhere else.
 *
 *   launcher:  secret_placeholder(name, random16, &ph);
 *              secret_table_add(&t, name, ph, value, hosts, nr);
 *              secret_table_encode(&t, &blob);  -> the proxy's fd
 *   proxy:     secret_table_decode(blob, len, &t, &err);
 *              if (secret_table_for(&t, &target)) …terminate TLS…
 *              secret_rewrite_head(&t, &target, head, len, &out, &used);
 *              secret_table_wipe(&t);
 *
 * Security module. Invariants (tests: test-secrets.c, t0617):
 *  1. A value goes only into a request whose target allowhosts_match()es
 *     one of that secret's hosts; for any other target the head is left
 *     byte for byte as it was.
 *  2. Only header values are rewritten, never the request line or a
 *     header name (a value echoed back in a "not found" message would
 *     hand it to the agent).
 *  3. A value that could break the head (CR, LF, NUL or another control
 *     character but TAB) is refused when the table is built
 *     (secret_value_ok()), so injection can never add a header or a
 *     request.
 *  4. secret_table_wipe() overwrites every value (explicit_bzero) before
 *     freeing it; so does the encoder's caller with its buffer.
 */
#include "base/common.h"
#include "agents/allowhosts.h"
#include "base/strbuf.h"
#include "base/strvec.h"

#define SECRET_PREFIX "agentic-git-secret-"
#define SECRET_VALUE_MAX 16384
#define SECRET_TABLE_MAX 64
#define SECRET_BLOB_MAX (SECRET_TABLE_MAX * (SECRET_VALUE_MAX + 4096))

struct secret_entry {
	char *name, *placeholder, *value;
	struct strvec hosts; /* allowhosts.h entries */
	/* the launcher's: a preset's rule, whose variable the allowlist
	 * passes (or drops) as before when the value is not injected */
	bool preset;
};

struct secret_table {
	struct secret_entry *v;
	size_t nr;
};

#define SECRET_TABLE_INIT \
	{                 \
		NULL, 0   \
	}

/* "agentic-git-secret-<name>-<hex of the 16 random bytes>" into out. */
void secret_placeholder(const char *name, const unsigned char random16[16],
			struct strbuf *out);

/* Invariant 3: true when `v` (len bytes) can stand in a header value. */
bool secret_value_ok(const char *v, size_t len);

/* Adds an entry (copies everything). -1 when the value is not ok, the
 * table is full, or a field is empty. */
int secret_table_add(struct secret_table *t, const char *name,
		     const char *placeholder, const char *value,
		     const char *const *hosts, size_t nr_hosts);

/* The table as NUL-separated fields, for the proxy's descriptor. */
void secret_table_encode(const struct secret_table *t, struct strbuf *out);
/* And back; -1 with the reason in err (malformed, a bad value or host). */
int secret_table_decode(const char *buf, size_t len, struct secret_table *t,
			struct strbuf *err);

/* True when some secret is for `target` (invariant 1). */
bool secret_table_for(const struct secret_table *t,
		      const struct allowhost_target *target);

/*
 * Appends to `out` the request head `head` (len bytes: the request line,
 * the header lines and the empty line) with every placeholder of a secret
 * for `target` replaced by its value in header values (invariant 2).
 * The names of the secrets put in are added to `used` (once each; may be
 * NULL). Returns how many replacements were made.
 */
size_t secret_rewrite_head(const struct secret_table *t,
			   const struct allowhost_target *target,
			   const char *head, size_t len, struct strbuf *out,
			   struct strvec *used);

/* Invariant 4. */
void secret_table_wipe(struct secret_table *t);
/* explicit_bzero the buffer's bytes, then release it. */
void strbuf_wipe(struct strbuf *sb);

#endif
