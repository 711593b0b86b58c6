/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_ALLOWHOSTS_H
#define AG_ALLOWHOSTS_H

/**
 * The `fs+api` allow-list (PRODUCT.md §8): which host:port the network
 * proxy may connect to. Pure: no I/O, no DNS.
 *
 * Entries (a profile's `allow_hosts`):
 *   api.example.com        that name, port 443
 *   api.example.com:8443   that name, that port
 *   *.example.com          any name below example.com (not example.com
 *                          itself), port 443; `*.example.com:80` too
 *   127.0.0.1:8080         an IPv4 literal, exactly (never by wildcard)
 *   [::1]:8080             an IPv6 literal, exactly
 *
 *   if (allowhost_check(entry, &err) < 0) …config error…
 *   struct allowhost_target t;
 *   if (allowhost_target(host, port, &t) < 0) …400…
 *   if (!allowhosts_match(list, nr, &t)) …403…
 *
 * Security invariants (tests cite the numbers):
 *  1. Matching is on the normalised name (lowercase, one trailing dot
 *     dropped) and the port; nothing matches without an exact port.
 *  2. An IP literal matches only an entry that is the same address
 *     (compared as bytes, so "::1" and "0::1" are one); a wildcard never
 *     matches an address.
 *  3. A host that looks numeric (its last label is all digits, or a label
 *     starts with "0x") is an address or it is refused: inet_aton-style
 *     forms such as "2130706433" or "0x7f.1" never reach the resolver as
 *     names.
 *  4. Names hold only letters, digits, '-', '_' and '.', with no empty
 *     label, at most 253 bytes; anything else (NUL, '%', '@', spaces) is
 *     refused.
 */
#include "base/common.h"
#include "base/strbuf.h"

#define ALLOWHOST_DEFAULT_PORT 443
#define ALLOWHOST_NAME_MAX 253

enum allowhost_kind { AH_NAME, AH_IPV4, AH_IPV6 };

/* A normalised host: `host` is lowercase, an IPv6 one without brackets. */
struct allowhost_target {
	enum allowhost_kind kind;
	char host[ALLOWHOST_NAME_MAX + 1];
	unsigned char addr[16]; /* AH_IPV4 / AH_IPV6 */
	unsigned port;
};

/*
 * Normalises `host` (an IPv6 literal with or without brackets) and `port`
 * into *out. Returns 0, or -1 with the reason in `err` (may be NULL).
 */
int allowhost_target(const char *host, size_t host_len, unsigned port,
		     struct allowhost_target *out, struct strbuf *err);

/*
 * Parses "host[:port]" (an IPv6 literal in brackets) as a proxy request's
 * authority; `need_port` refuses an authority without one. A missing port
 * is `default_port`. 0, or -1 with the reason in `err`.
 */
int allowhost_authority(const char *s, size_t len, bool need_port,
			unsigned default_port, struct allowhost_target *out,
			struct strbuf *err);

/* Validates one allow_hosts entry: 0, or -1 with the reason in `err`. */
int allowhost_check(const char *entry, struct strbuf *err);

/* True when `t` is allowed by one of the `nr` entries (invalid ones never
 * match). */
bool allowhosts_match(const char *const *entries, size_t nr,
		      const struct allowhost_target *t);

/* "host:port", or "[v6]:port", for messages and events. */
void allowhost_format(const struct allowhost_target *t, struct strbuf *out);

#endif
