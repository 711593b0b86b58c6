/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The integrity key (reference §2.4 "Key file").
 *
 * Invariants:
 *  1. The key MUST be exactly 32 bytes; any other size is refused, never
 *     truncated or padded.
 *  2. The key file MUST be created with mode 0600 at open time (O_EXCL),
 *     never chmod'ed afterwards.
 *  3. Creation MUST be first-writer-wins: temp file + link(2); never rename.
 *  4. An existing key of the wrong size MUST NOT be overwritten.
 *  5. Key bytes on the stack MUST be wiped after use.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/strbuf.h"

void ag_key_wipe(uint8_t key[AG_KEY_LEN])
{
	sodium_memzero(key, AG_KEY_LEN);
}

static int key_load_path(const struct strbuf *path, uint8_t key[AG_KEY_LEN])
{
	struct strbuf data = STRBUF_INIT;
	int ret = -1, errsv;

	if (read_small_regular(path->buf, 4096, &data) < 0) {
		if (errno == EFBIG)
			errno = EINVAL;
		goto out;
	}
	if (data.len != AG_KEY_LEN) {
		errno = EINVAL;
		goto out;
	}
	memcpy(key, data.buf, AG_KEY_LEN);
	ret = 0;
out:
	errsv = errno;
	if (data.alloc)
		sodium_memzero(data.buf, data.alloc);
	strbuf_release(&data);
	errno = errsv;
	return ret;
}

int ag_key_load(const char *home, uint8_t key[AG_KEY_LEN])
{
	struct strbuf path = STRBUF_INIT;
	int ret, errsv;

	strbuf_addpath(&path, home, ".config-integrity-key");
	ret = key_load_path(&path, key);
	errsv = errno;
	strbuf_release(&path);
	errno = errsv;
	return ret;
}

static void sandbox_path(const char *home, const char *agent,
			 const char *name, struct strbuf *out)
{
	/* the agent name is validated by the callers: no '/', no ".." */
	strbuf_addf(out, "%s/runtime/%s/%s", home, agent, name);
}

int ag_sandbox_key_load(const char *home, const char *agent,
			uint8_t key[AG_KEY_LEN])
{
	struct strbuf path = STRBUF_INIT;
	const char *why;
	int ret, errsv;

	if (!ag_agent_name_valid(agent, &why)) {
		errno = EINVAL;
		return -1;
	}
	sandbox_path(home, agent, AG_SANDBOX_KEY_NAME, &path);
	ret = key_load_path(&path, key);
	errsv = errno;
	strbuf_release(&path);
	errno = errsv;
	return ret;
}

int ag_sandbox_key_issue(const char *home, const char *agent)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	uint8_t key[AG_KEY_LEN];
	char sig[AG_MAC_HEX_LEN + 1];
	const char *why;
	int ret = -1, errsv;

	if (!ag_agent_name_valid(agent, &why)) {
		errno = EINVAL;
		return -1;
	}
	if (sodium_init() < 0) {
		errno = EIO;
		return -1;
	}
	sandbox_path(home, agent, "binding.json", &path);
	if (read_file_bounded(path.buf, AG_BINDING_MAX, RF_REGULAR, &data) < 0)
		goto out;
	randombytes_buf(key, sizeof(key));
	ag_hmac_sign_hex(key, AG_KEY_LEN, data.buf, data.len, sig);
	strbuf_reset(&path);
	sandbox_path(home, agent, AG_SANDBOX_KEY_NAME, &path);
	if (write_file_atomic(path.buf, (const char *)key, AG_KEY_LEN, 0600) < 0)
		goto out;
	strbuf_reset(&path);
	sandbox_path(home, agent, "binding.json" AG_SANDBOX_SIG_SUFFIX, &path);
	ret = write_file_atomic(path.buf, sig, AG_MAC_HEX_LEN, 0600);
out:
	errsv = errno;
	ag_key_wipe(key);
	strbuf_release(&path);
	strbuf_release(&data);
	errno = errsv;
	return ret;
}

int ag_key_ensure(const char *home)
{
	struct strbuf path = STRBUF_INIT, tmp = STRBUF_INIT;
	uint8_t key[AG_KEY_LEN];
	struct stat st;
	int fd = -1, ret = -1, errsv;

	if (sodium_init() < 0) {
		errno = EIO;
		return -1;
	}
	strbuf_addpath(&path, home, ".config-integrity-key");
	if (!lstat(path.buf, &st)) {
		if (S_ISREG(st.st_mode) && st.st_size == AG_KEY_LEN) {
			ret = 0;
		} else {
			errno = EEXIST;
		}
		goto out;
	}
	if (errno != ENOENT)
		goto out;
	strbuf_addf(&tmp, "%s/key.tmp.%ld.%08x%08x", home, (long)getpid(),
		    randombytes_random(), randombytes_random());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		goto out;
	randombytes_buf(key, sizeof(key));
	if (write_all(fd, key, sizeof(key)) < 0 || fsync(fd) < 0)
		goto out_unlink;
	close(fd);
	fd = -1;
	if (link(tmp.buf, path.buf) < 0) {
		if (errno != EEXIST)
			goto out_unlink;
		/* another writer won the race: use theirs if it is sane */
		if (lstat(path.buf, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_size != AG_KEY_LEN) {
			errno = EEXIST;
			goto out_unlink;
		}
	}
	ret = 0;
out_unlink:
	errsv = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp.buf);
	errno = errsv;
out:
	errsv = errno;
	sodium_memzero(key, sizeof(key));
	strbuf_release(&path);
	strbuf_release(&tmp);
	errno = errsv;
	return ret;
}

int ag_sign_with_home(const char *home, const void *msg, size_t len,
		      char out[AG_MAC_HEX_LEN + 1])
{
	uint8_t key[AG_KEY_LEN];

	if (ag_key_load(home, key) < 0)
		return -1;
	ag_hmac_sign_hex(key, AG_KEY_LEN, msg, len, out);
	ag_key_wipe(key);
	return 0;
}
