/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes ag_policy_parse (policy.toml). Invariants:
 *  1. never crashes, reads nothing past the buffer (it is not NUL-terminated);
 *  2. an error carries "line:col: message" with line, col >= 1, and leaves
 *     the pattern list as it was (the floor);
 *  3. success keeps the floor (main, master) and every stored pattern
 *     protects the branch it names literally, in any letter case.
 */
#include <ctype.h>
#include <string.h>
#include "agentic-git/core.h"
#include "fuzz.h"

static bool err_has_position(const char *err)
{
	const char *p = err;
	int line = 0, col = 0;

	while (isdigit((unsigned char)*p))
		line = line * 10 + (*p++ - '0');
	if (p == err || *p++ != ':')
		return false;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		col = col * 10 + (*p++ - '0');
	return line >= 1 && col >= 1 && p[0] == ':' && p[1] == ' ' && p[2];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ag_protected p;
	char err[256] = "";
	char *copy;
	int rc;

	if (size > AG_POLICY_MAX)
		return 0;
	/* An exact-size heap copy: ASan sees any read past the end. */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	ag_protected_init(&p);
	rc = ag_policy_parse(copy, size, &p, err, sizeof(err));
	if (rc < 0) {
		FUZZ_CHECK(err_has_position(err), "error without line:col: '%s'", err);
		FUZZ_CHECK(p.nr == 2, "a refused policy added %zu patterns", p.nr - 2);
	} else {
		FUZZ_CHECK(rc == 0, "rc %d", rc);
		FUZZ_CHECK(ag_protected_match(&p, "main") &&
				   ag_protected_match(&p, "refs/heads/MASTER"),
			   "floor lost");
		for (size_t i = 0; i < p.nr; i++) {
			size_t n = strlen(p.patterns[i]);
			char *ref = malloc(n + 12), *up;
			FUZZ_CHECK(n > 0, "empty pattern stored");
			memcpy(ref, "refs/heads/", 11);
			memcpy(ref + 11, p.patterns[i], n + 1);
			FUZZ_CHECK(ag_protected_match(&p, ref),
				   "pattern '%s' does not match itself", p.patterns[i]);
			for (up = ref + 11; *up; up++)
				*up = (char)toupper((unsigned char)*up);
			FUZZ_CHECK(ag_protected_match(&p, ref),
				   "pattern '%s' is case-sensitive", p.patterns[i]);
			free(ref);
		}
	}
	ag_protected_release(&p);
	free(copy);
	return 0;
}
