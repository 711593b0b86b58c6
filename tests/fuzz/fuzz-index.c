/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzzes the index reader and tree builder (git/snapshot-index.h): the
 * bytes of an index file, as the snapshot maps them from the agent's git
 * dir. Invariants:
 *  1. never crashes, reads out of bounds or leaks;
 *  2. an answer is a tree id of the hash's length in lowercase hex, and
 *     "unknown" appends nothing;
 *  3. the builder agrees with the cache reader: where git's cached root
 *     answers, building gives the same id and formats no tree;
 *  4. building twice gives the same id (no hidden state).
 */
#include <string.h>
#include "base/strbuf.h"
#include "git/packw.h"
#include "git/snapshot-index.h"
#include "fuzz.h"

static void check_hex(const struct strbuf *hex, size_t hash_len,
		      enum snapshot_index_tree r)
{
	if (r != SNAPSHOT_INDEX_TREE_VALID) {
		FUZZ_CHECK(!hex->len, "unknown, yet %zu bytes appended",
			   hex->len);
		return;
	}
	FUZZ_CHECK(hex->len == 2 * hash_len && is_lower_hex(hex->buf, hex->len),
		   "bad tree id '%s'", hex->buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf cached = STRBUF_INIT, built = STRBUF_INIT,
		      again = STRBUF_INIT;
	struct packw pw = PACKW_INIT;
	enum snapshot_index_tree rc, rb, ra;

	rc = snapshot_index_build(data, size, 32, NULL, &cached);
	check_hex(&cached, 32, rc);
	strbuf_reset(&cached);
	rc = snapshot_index_build(data, size, 20, NULL, &cached);
	check_hex(&cached, 20, rc);
	rb = snapshot_index_build(data, size, 20, &pw, &built);
	check_hex(&built, 20, rb);
	if (rc == SNAPSHOT_INDEX_TREE_VALID) {
		FUZZ_CHECK(rb == rc && !strcmp(cached.buf, built.buf),
			   "builder disagrees with the cache");
		FUZZ_CHECK(!packw_count(&pw), "trees formatted for a cached root");
	}
	ra = snapshot_index_build(data, size, 20, &pw, &again);
	FUZZ_CHECK(ra == rb && !strcmp(built.buf, again.buf),
		   "a second build differs");
	packw_release(&pw);
	strbuf_release(&cached);
	strbuf_release(&built);
	strbuf_release(&again);
	return 0;
}
