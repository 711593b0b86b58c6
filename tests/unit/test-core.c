/* SPDX-License-Identifier: Apache-2.0 */
/* libagentic-git-core: HMAC vectors, key rules, binding codec, names,
 * protected refs and the policy.toml grammar. */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "core/binding-seen.h"

static void test_golden_vectors(void **state)
{
	const char *k1 = "agend-1934-cross-version-fixture-key";
	const char *m1 = "agend-1934 fixture content: integrity_core HMAC-SHA256 cross-version pin";
	uint8_t k2[32];
	const char *m2 = "agend-p1a byte-identical fixture: sign_binding emits bare hex (implicit scheme v1)";
	char out[65];

	ag_hmac_sign_hex((const uint8_t *)k1, strlen(k1), m1, strlen(m1), out);
	assert_string_equal(out, "80af9c21c0615da7849c54f1ba3ff9572061ac329d5f56455406b9317e8cc3fb");
	memset(k2, 7, sizeof(k2));
	ag_hmac_sign_hex(k2, 32, m2, strlen(m2), out);
	assert_string_equal(out, "38a831c3949dfecc48223256eab15f9c59022454a822e95546450d3b7c8c20c3");
}

static void test_verify_forms(void **state)
{
	uint8_t key[32];
	const char *msg = "hello binding";
	char hex[65], tag[200];

	memset(key, 7, 32);
	ag_hmac_sign_hex(key, 32, msg, strlen(msg), hex);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), hex, 64, NULL, 0), AG_VERIFY_OK);
	/* trailing newline tolerated */
	snprintf(tag, sizeof(tag), "%s\n", hex);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), NULL, 0), AG_VERIFY_OK);
	/* upper-case hex accepted */
	for (char *c = tag; *c; c++)
		if (*c >= 'a' && *c <= 'f')
			*c = (char)(*c - 32);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), NULL, 0), AG_VERIFY_OK);
	/* envelope */
	snprintf(tag, sizeof(tag), "ag-hmac-sha256:v1:raw:%s", hex);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), NULL, 0), AG_VERIFY_OK);
	/* unsupported scheme reported before MAC */
	{
		char scheme[64];
		snprintf(tag, sizeof(tag), "ag-hmac-sha256:v2:raw:%s", hex);
		assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), scheme, sizeof(scheme)),
				 AG_VERIFY_UNSUPPORTED_SCHEME);
		assert_string_equal(scheme, "ag-hmac-sha256:v2:raw");
		snprintf(tag, sizeof(tag), "ag-hmac-sha256:v1:b64:%s", hex);
		assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), NULL, 0),
				 AG_VERIFY_UNSUPPORTED_SCHEME);
	}
	/* malformed envelopes never fall back to bare hex */
	snprintf(tag, sizeof(tag), "ag-hmac-sha256:v1:%s", hex);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), NULL, 0), AG_VERIFY_MALFORMED_TAG);
	snprintf(tag, sizeof(tag), "ag-hmac-sha256:v1:raw:x:%s", hex);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), NULL, 0), AG_VERIFY_MALFORMED_TAG);
	snprintf(tag, sizeof(tag), "other:%s", hex);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, strlen(tag), NULL, 0), AG_VERIFY_MALFORMED_TAG);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), "", 0, NULL, 0), AG_VERIFY_MALFORMED_TAG);
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), hex, 63, NULL, 0), AG_VERIFY_MALFORMED_TAG);
	/* one flipped byte in the message or the tag */
	assert_int_equal(ag_hmac_verify(key, 32, "hello bindinG", 13, hex, 64, NULL, 0), AG_VERIFY_MISMATCH);
	snprintf(tag, sizeof(tag), "%s", hex);
	tag[10] = tag[10] == '0' ? '1' : '0';
	assert_int_equal(ag_hmac_verify(key, 32, msg, strlen(msg), tag, 64, NULL, 0), AG_VERIFY_MISMATCH);
	/* missing or short key */
	assert_int_equal(ag_hmac_verify(NULL, 32, msg, strlen(msg), hex, 64, NULL, 0), AG_VERIFY_MISSING_KEY);
	assert_int_equal(ag_hmac_verify(key, 31, msg, strlen(msg), hex, 64, NULL, 0), AG_VERIFY_MISSING_KEY);
}

static char *mkhome(void)
{
	char tmpl[] = "/tmp/ag-unit-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	return strdup(d);
}

static void test_key_rules(void **state)
{
	char *home = mkhome();
	uint8_t key[32], key2[32];
	struct stat st;
	struct strbuf p = STRBUF_INIT;

	assert_int_equal(ag_key_load(home, key), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ag_key_ensure(home), 0);
	strbuf_addf(&p, "%s/.config-integrity-key", home);
	assert_int_equal(stat(p.buf, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, 32);
	assert_int_equal(ag_key_load(home, key), 0);
	/* first writer wins: a second ensure keeps the key */
	assert_int_equal(ag_key_ensure(home), 0);
	assert_int_equal(ag_key_load(home, key2), 0);
	assert_memory_equal(key, key2, 32);
	/* a short key is refused and never overwritten */
	assert_int_equal(truncate(p.buf, 16), 0);
	assert_int_equal(ag_key_load(home, key), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ag_key_ensure(home), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(stat(p.buf, &st), 0);
	assert_int_equal(st.st_size, 16);
	strbuf_release(&p);
	free(home);
}

static void test_binding_decode(void **state)
{
	struct ag_binding b;
	const char *ok = "{\"branch\":\"feat/a\",\"task_id\":\"t1\",\"version\":1,\"x-ext\":{\"k\":1}}";
	char *enc;
	size_t len;

	assert_int_equal(ag_binding_decode(ok, strlen(ok), &b), AG_BINDING_BOUND);
	assert_string_equal(b.branch, "feat/a");
	assert_string_equal(b.task_id, "t1");
	assert_non_null(b.extra_json);
	assert_int_equal(ag_binding_encode(&b, &enc, &len), 0);
	assert_non_null(strstr(enc, "\"x-ext\""));
	assert_non_null(strstr(enc, "\n  \"version\": 1"));
	assert_int_not_equal(enc[len - 1], '\n');
	free(enc);
	ag_binding_release(&b);

	/* absent version is legacy v1 */
	assert_int_equal(ag_binding_decode("{\"task_id\":\"t\"}", 15, &b), AG_BINDING_BOUND);
	ag_binding_release(&b);
	/* any other version fails closed */
	const char *bad_versions[] = {
		"{\"version\":2}", "{\"version\":\"1\"}", "{\"version\":1.5}",
		"{\"version\":\"x\"}", "{\"version\":null}", "{\"version\":true}",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad_versions); i++)
		assert_int_equal(ag_binding_decode(bad_versions[i], strlen(bad_versions[i]), &b),
				 AG_BINDING_BAD_VERSION);
	const char *malformed[] = {
		"", "{", "[]", "\"x\"", "{\"task_id\":5}", "{\"branch\":[]}",
		"{\"task_id\":\"a\",\"task_id\":\"b\"}", "{\"version\":1}x",
	};
	for (size_t i = 0; i < ARRAY_SIZE(malformed); i++)
		assert_int_equal(ag_binding_decode(malformed[i], strlen(malformed[i]), &b),
				 AG_BINDING_MALFORMED);
}

static void write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write_all(fd, data, len), 0);
	close(fd);
}

static void test_binding_load(void **state)
{
	char *home = mkhome();
	struct strbuf p = STRBUF_INIT, json = STRBUF_INIT;
	struct ag_binding b;
	char sig[65];

	assert_int_equal(ag_key_ensure(home), 0);
	strbuf_addf(&p, "%s/runtime/ag1", home);
	assert_int_equal(mkdir_p(p.buf, 0700), 0);
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_NONE);
	strbuf_addf(&json, "{\"version\":1,\"agent\":\"ag1\",\"task_id\":\"t\",\"branch\":\"feat/x\",\"worktree\":\"%s\"}", home);
	strbuf_addstr(&p, "/binding.json");
	write_file(p.buf, json.buf, json.len);
	/* no signature: forged */
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_FORGED);
	assert_int_equal(ag_sign_with_home(home, json.buf, json.len, sig), 0);
	strbuf_addstr(&p, ".sig");
	write_file(p.buf, sig, 64);
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_BOUND);
	assert_string_equal(b.branch, "feat/x");
	ag_binding_release(&b);
	/* the shim's seen directory spares the stat of a worktree above it,
	 * not of another: a worktree that is gone is still an orphan */
	assert_int_equal(binding_load_seen(home, "ag1", home, &b),
			 AG_BINDING_BOUND);
	ag_binding_release(&b);
	assert_int_equal(binding_load_seen(home, "ag1", "/", &b),
			 AG_BINDING_BOUND);
	ag_binding_release(&b);
	/* invalid agent names never reach the filesystem */
	assert_int_equal(ag_binding_load(home, "../ag1", &b), AG_BINDING_BAD_AGENT);
	/* flip one byte of the signature */
	sig[0] = sig[0] == 'a' ? 'b' : 'a';
	write_file(p.buf, sig, 64);
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_FORGED);
	/* a bound worktree that is gone, seen from elsewhere: orphan */
	{
		struct strbuf gone = STRBUF_INIT, bp = STRBUF_INIT;
		strbuf_addf(
			&gone,
			"{\"version\":1,\"agent\":\"ag1\",\"task_id\":\"t\",\"worktree\":\"%s/gone\"}",
			home);
		strbuf_addf(&bp, "%s/runtime/ag1/binding.json", home);
		write_file(bp.buf, gone.buf, gone.len);
		assert_int_equal(
			ag_sign_with_home(home, gone.buf, gone.len, sig), 0);
		strbuf_addstr(&bp, ".sig");
		write_file(bp.buf, sig, 64);
		assert_int_equal(binding_load_seen(home, "ag1", home, &b),
				 AG_BINDING_ORPHAN);
		strbuf_release(&gone);
		strbuf_release(&bp);
	}
	/* a key that is no regular file (read with no fstat): no key */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/.config-integrity-key", home);
	assert_int_equal(unlink(p.buf), 0);
	assert_int_equal(mkfifo(p.buf, 0600), 0);
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_NO_KEY);
	/* a binding that is none: refused, not waited on */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/runtime/ag1/binding.json", home);
	assert_int_equal(unlink(p.buf), 0);
	assert_int_equal(mkfifo(p.buf, 0600), 0);
	assert_int_equal(ag_binding_load(home, "ag1", &b),
			 AG_BINDING_MALFORMED);
	strbuf_release(&p);
	strbuf_release(&json);
	free(home);
}

/*
 * The sandbox key: the shim in a cage (no fleet key) verifies with the
 * session's own key; where the fleet key is readable the sandbox
 * signature counts for nothing.
 */
static void test_binding_load_sandbox_key(void **state)
{
	char *home = mkhome();
	struct strbuf p = STRBUF_INIT, json = STRBUF_INIT, key = STRBUF_INIT;
	struct ag_binding b;
	uint8_t k[AG_KEY_LEN];
	char sig[65];

	(void)state;
	assert_int_equal(ag_key_ensure(home), 0);
	strbuf_addf(&p, "%s/runtime/ag1", home);
	assert_int_equal(mkdir_p(p.buf, 0700), 0);
	strbuf_addf(&json, "{\"version\":1,\"agent\":\"ag1\",\"task_id\":\"t\",\"worktree\":\"%s\"}", home);
	strbuf_addstr(&p, "/binding.json");
	write_file(p.buf, json.buf, json.len);
	/* no binding signed with the fleet key: only the sandbox sig */
	assert_int_equal(ag_sandbox_key_issue(home, "ag1"), 0);
	assert_int_equal(ag_sandbox_key_load(home, "ag1", k), 0);
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_FORGED);
	/* the cage: the fleet key is out of reach */
	strbuf_addf(&key, "%s/.config-integrity-key.away", home);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/.config-integrity-key", home);
	assert_int_equal(rename(p.buf, key.buf), 0);
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_BOUND);
	ag_binding_release(&b);
	/* a sandbox sig of another key, or for other bytes: forged */
	ag_hmac_sign_hex(k, AG_KEY_LEN, "x", 1, sig);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/runtime/ag1/binding.json.sandbox.sig", home);
	write_file(p.buf, sig, 64);
	assert_int_equal(ag_binding_load(home, "ag1", &b), AG_BINDING_FORGED);
	/* another agent's name never reaches the filesystem */
	assert_int_equal(ag_sandbox_key_issue(home, "../ag1"), -1);
	assert_int_equal(ag_sandbox_key_load(home, "a/b", k), -1);
	ag_key_wipe(k);
	strbuf_release(&p);
	strbuf_release(&json);
	strbuf_release(&key);
	free(home);
}

static void test_names(void **state)
{
	const char *why;
	assert_true(ag_agent_name_valid("ag1", &why));
	assert_true(ag_agent_name_valid("run-0123456789ab", &why));
	const char *bad[] = { "", "Ag", "-a", "a/b", "..", "a..b", "a.", "con", "com1.x", "lpt9",
			      "a b", "a\n", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_false(ag_agent_name_valid(bad[i], &why));
	assert_true(ag_branch_name_valid("feat/one", &why));
	const char *badb[] = { "", "-x", "/x", "x/", "a..b", "a//b", "a@{b", "x.lock", "a/.b",
			       "a b", "a~b", "a:b", "HEAD", "@", "a.", "a\\b" };
	for (size_t i = 0; i < ARRAY_SIZE(badb); i++)
		assert_false(ag_branch_name_valid(badb[i], &why));
}

static void test_protected(void **state)
{
	struct ag_protected p;
	char err[256];
	const char *pol = "# comment\nprotected_refs = [\n  \"release/*\", # keep\n  \"Prod\",\n]\n";

	ag_protected_init(&p);
	assert_true(ag_protected_match(&p, "main"));
	assert_true(ag_protected_match(&p, "Main"));
	assert_true(ag_protected_match(&p, "refs/heads/MASTER"));
	assert_false(ag_protected_match(&p, "mainline"));
	assert_false(ag_protected_match(&p, "feat/main"));
	assert_int_equal(ag_policy_parse(pol, strlen(pol), &p, err, sizeof(err)), 0);
	assert_true(ag_protected_match(&p, "release/1.0"));
	assert_true(ag_protected_match(&p, "release/a/b"));
	assert_true(ag_protected_match(&p, "prod"));
	assert_false(ag_protected_match(&p, "releases"));
	ag_protected_release(&p);

	struct { const char *src; const char *pos; } bad[] = {
		{ "protected = []\n", "1:1" },
		{ "protected_refs = [\"a\"]\nprotected_refs = []\n", "2:1" },
		{ "protected_refs = [\"a\" \"b\"]\n", "1:23" },
		{ "protected_refs [\"a\"]\n", "1:16" },
		{ "protected_refs = \"a\"\n", "1:18" },
		{ "protected_refs = [\"a]\n", "1:22" },
		{ "protected_refs = [\"\"]\n", "1:21" },
		{ "protected_refs = [\"a\"] x\n", "1:24" },
		{ "[section]\n", "1:1" },
		{ "protected_refs = [\"a\\n\"]\n", "1:22" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		ag_protected_init(&p);
		assert_int_equal(ag_policy_parse(bad[i].src, strlen(bad[i].src), &p, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].pos, strlen(bad[i].pos)))
			fail_msg("case %zu: got '%s', want position %s", i, err, bad[i].pos);
		/* nothing half-applied */
		assert_int_equal(p.nr, 2);
		ag_protected_release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_vectors),
		cmocka_unit_test(test_verify_forms),
		cmocka_unit_test(test_key_rules),
		cmocka_unit_test(test_binding_decode),
		cmocka_unit_test(test_binding_load),
		cmocka_unit_test(test_binding_load_sandbox_key),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_protected),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
