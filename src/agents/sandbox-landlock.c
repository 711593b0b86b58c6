/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Landlock: the helper argv (pure) and the ruleset (kernel sandboxer.c,
 * landlock.rst "best effort", except that we fail closed).
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agents/landlock-abi.h"
#include "agents/sandbox-landlock.h"

static const char *const sys_dirs[] = SANDBOX_SYS_DIRS;
static const char *const devs[] = SANDBOX_LANDLOCK_DEVS;

void landlock_build(const struct sandbox_request *rq,
		    const struct sandbox_caps *caps, struct sandbox_plan *plan)
{
	struct strvec *argv = &plan->argv;
	struct sandbox_bind *binds;
	size_t nr;

	strvec_clear(argv);
	strvec_clear(&plan->env);
	sandbox_child_env(rq, rq->tmp_dir, rq->private_home, &plan->env);
	strvec_pushl(argv, rq->self_exe, "sandbox", "exec", "--policy",
		     sandbox_policy_name(rq->policy), NULL);
	/* Symlinked system dirs resolve into granted ones (/bin -> usr/bin). */
	for (size_t i = 0; i < SANDBOX_SYS_DIRS_NR; i++)
		if (caps->sys_kind[i] == SYSDIR_DIR)
			strvec_pushl(argv, "--ro", sys_dirs[i], NULL);
	strvec_pushl(argv, "--ro", "/proc", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(devs); i++)
		strvec_pushl(argv, "--dev", devs[i], NULL);
	nr = sandbox_collect_binds(rq, true, &binds);
	for (size_t i = 0; i < nr; i++)
		strvec_pushl(argv, binds[i].kind == BIND_RW ? "--rw" : "--ro",
			     binds[i].path, NULL);
	free(binds);
	strvec_pushl(argv, rq->policy == SANDBOX_FS_NO_NET ? "--no-net"
							   : "--net",
		     "--", NULL);
	plan->prefix_nr = argv->nr;
	strvec_pushn(argv, rq->argv, rq->argc);
	plan->landlock_abi = caps->landlock_abi;
}

int landlock_abi_version(void)
{
	long v = syscall(__NR_landlock_create_ruleset, NULL, 0,
			 AG_LANDLOCK_CREATE_RULESET_VERSION);
	return v < 0 ? 0 : (int)v;
}

static uint64_t fs_rights(int abi)
{
	uint64_t r = (AG_LL_FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0..12 */
	if (abi >= 2)
		r |= AG_LL_FS_REFER;
	if (abi >= 3)
		r |= AG_LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= AG_LL_FS_IOCTL_DEV;
	return r;
}

static size_t attr_size(int abi)
{
	if (abi >= 6)
		return sizeof(struct ag_landlock_ruleset_attr);
	if (abi >= 4)
		return offsetof(struct ag_landlock_ruleset_attr, scoped);
	return offsetof(struct ag_landlock_ruleset_attr, handled_access_net);
}

/*
 * A writable rule is never built through a symbolic link in its last
 * component (`nofollow`): those directories lie in places a cage could
 * write before (the cache's tmp/ and home/, issue 32 W2).
 */
static int add_path(int ruleset, const char *path, uint64_t allowed,
		    bool skip_missing, bool nofollow)
{
	struct ag_landlock_path_beneath_attr pb = { 0 };
	struct stat st;
	int fd = open(path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0)),
	    errsv;

	if (fd < 0)
		return skip_missing && errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (S_ISLNK(st.st_mode)) {
		errno = ELOOP;
		goto fail;
	}
	if (!S_ISDIR(st.st_mode))
		allowed &= AG_LL_FS_FILE_RIGHTS;
	pb.allowed_access = allowed;
	pb.parent_fd = fd;
	if (syscall(__NR_landlock_add_rule, ruleset,
		    AG_LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
		goto fail;
	close(fd);
	return 0;
fail:
	errsv = errno;
	close(fd);
	errno = errsv;
	return -1;
}

static int add_rules(int ruleset, const struct landlock_rules *r,
		     uint64_t all, const char **what)
{
	uint64_t ro = AG_LL_FS_EXECUTE | AG_LL_FS_READ_FILE | AG_LL_FS_READ_DIR;
	uint64_t dev = (AG_LL_FS_READ_FILE | AG_LL_FS_WRITE_FILE |
			AG_LL_FS_TRUNCATE | AG_LL_FS_IOCTL_DEV) & all;

	for (size_t i = 0; i < r->ro_nr; i++)
		if (add_path(ruleset, r->ro[i], ro, false, false) < 0)
			return *what = r->ro[i], -1;
	for (size_t i = 0; i < r->rw_nr; i++)
		if (add_path(ruleset, r->rw[i], all, false, true) < 0)
			return *what = r->rw[i], -1;
	for (size_t i = 0; i < r->dev_nr; i++)
		if (add_path(ruleset, r->dev[i], dev, true, false) < 0)
			return *what = r->dev[i], -1;
	return 0;
}

int landlock_apply(const struct landlock_rules *r, int *abi,
		   const char **what)
{
	struct ag_landlock_ruleset_attr attr = { 0 };
	int v = landlock_abi_version(), fd, errsv;

	*what = "landlock_create_ruleset";
	if (v < 1)
		return -1;
	attr.handled_access_fs = fs_rights(v);
	if (r->no_net && v >= 4)
		attr.handled_access_net = AG_LL_NET_BIND_TCP |
					  AG_LL_NET_CONNECT_TCP;
	if (v >= 6) {
		attr.scoped = AG_LL_SCOPE_SIGNAL;
		if (r->no_net)
			attr.scoped |= AG_LL_SCOPE_ABSTRACT_UNIX_SOCKET;
	}
	fd = (int)syscall(__NR_landlock_create_ruleset, &attr, attr_size(v),
			  0);
	if (fd < 0)
		return -1;
	if (add_rules(fd, r, attr.handled_access_fs, what) < 0)
		goto fail;
	*what = "landlock_restrict_self";
	if (syscall(__NR_landlock_restrict_self, fd, 0) < 0)
		goto fail;
	close(fd);
	*abi = v;
	return 0;
fail:
	errsv = errno;
	close(fd);
	errno = errsv;
	return -1;
}
