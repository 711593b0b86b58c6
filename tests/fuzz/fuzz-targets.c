/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the dispatch target file parser (targets_parse + targets_finish)
 * and shard selection. The first byte chooses YAML or JSON mode and the
 * shard; the rest is the file. Invariants:
 *  1. never crashes or leaks;
 *  2. a refusal carries at least one "t.yaml:<line>:<col>: " error;
 *  3. after a successful finish every target has repo, head and base, and a
 *     key that is valid as a file name and unique in the list;
 *  4. shards are disjoint and cover the list: sizes add up.
 */
#include <string.h>
#include "base/strvec.h"
#include "fleet/targets.h"
#include "fuzz.h"

static void check_list(const struct target_list *tl)
{
	for (size_t i = 0; i < tl->nr; i++) {
		const struct target *t = &tl->v[i];
		FUZZ_CHECK(t->repo && *t->repo && t->head && *t->head && t->base &&
				   *t->base,
			   "target %zu incomplete", i);
		FUZZ_CHECK(t->key && target_key_valid(t->key), "bad key '%s'",
			   t->key ? t->key : "(null)");
		for (size_t j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(t->key, tl->v[j].key), "duplicate key '%s'",
				   t->key);
	}
}

static void check_errors(const struct strvec *errs, const char *name)
{
	FUZZ_CHECK(errs->nr > 0, "refused without an error");
	for (size_t i = 0; i < errs->nr; i++)
		FUZZ_CHECK(!strncmp(errs->v[i], name, strlen(name)),
			   "error without the file name: '%s'", errs->v[i]);
}

static size_t shard_size(const char *buf, size_t len, bool json, unsigned k,
			 unsigned n)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT;
	size_t nr;

	FUZZ_CHECK(!targets_parse(buf, len, "t.yaml", json, &tl, &errs),
		   "second parse differs");
	targets_shard(&tl, k, n);
	nr = tl.nr;
	target_list_release(&tl);
	strvec_clear(&errs);
	return nr;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct target_list tl = TARGET_LIST_INIT;
	struct strvec errs = STRVEC_INIT;
	bool json;
	unsigned n;
	char *copy;

	if (size < 1 || size > 1 << 20)
		return 0;
	json = data[0] & 1;
	n = 1 + (data[0] >> 1) % 4;
	copy = malloc(size);
	memcpy(copy, data + 1, size - 1);
	if (targets_parse(copy, size - 1, "t.yaml", json, &tl, &errs) < 0) {
		check_errors(&errs, "t.yaml");
	} else if (targets_finish(&tl, &errs) < 0) {
		check_errors(&errs, "");
	} else {
		size_t total = 0;
		check_list(&tl);
		for (unsigned k = 1; k <= n; k++)
			total += shard_size(copy, size - 1, json, k, n);
		FUZZ_CHECK(total == tl.nr, "shards cover %zu of %zu", total, tl.nr);
	}
	target_list_release(&tl);
	strvec_clear(&errs);
	free(copy);
	return 0;
}
