/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_LANDLOCK_ABI_H
#define AG_LANDLOCK_ABI_H

/**
 * Landlock kernel ABI, defined here rather than taken from <linux/landlock.h>
 * because Debian 12's headers stop at ABI 2 while the kernels people run
 * offer more. These values are stable kernel ABI (include/uapi/linux/
 * landlock.h); only what we use is defined. The ruleset attribute is our
 * own struct with the newest layout: the kernel accepts a shorter size from
 * older callers and we pass the size that matches the ABI we use.
 */
#include <stdint.h>
#include <sys/syscall.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

#define AG_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)

#define AG_LANDLOCK_RULE_PATH_BENEATH 1
#define AG_LANDLOCK_RULE_NET_PORT 2

/* ABI 1 */
#define AG_LL_FS_EXECUTE (1ULL << 0)
#define AG_LL_FS_WRITE_FILE (1ULL << 1)
#define AG_LL_FS_READ_FILE (1ULL << 2)
#define AG_LL_FS_READ_DIR (1ULL << 3)
#define AG_LL_FS_REMOVE_DIR (1ULL << 4)
#define AG_LL_FS_REMOVE_FILE (1ULL << 5)
#define AG_LL_FS_MAKE_CHAR (1ULL << 6)
#define AG_LL_FS_MAKE_DIR (1ULL << 7)
#define AG_LL_FS_MAKE_REG (1ULL << 8)
#define AG_LL_FS_MAKE_SOCK (1ULL << 9)
#define AG_LL_FS_MAKE_FIFO (1ULL << 10)
#define AG_LL_FS_MAKE_BLOCK (1ULL << 11)
#define AG_LL_FS_MAKE_SYM (1ULL << 12)
/* ABI 2 */
#define AG_LL_FS_REFER (1ULL << 13)
/* ABI 3 */
#define AG_LL_FS_TRUNCATE (1ULL << 14)
/* ABI 5 */
#define AG_LL_FS_IOCTL_DEV (1ULL << 15)
/* ABI 4: TCP only; UDP and other families need seccomp. */
#define AG_LL_NET_BIND_TCP (1ULL << 0)
#define AG_LL_NET_CONNECT_TCP (1ULL << 1)
/* ABI 6 */
#define AG_LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define AG_LL_SCOPE_SIGNAL (1ULL << 1)

struct ag_landlock_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;	     /* ABI 6 */
};

struct ag_landlock_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

/* Rights a rule on a non-directory may carry. */
#define AG_LL_FS_FILE_RIGHTS                                                   \
	(AG_LL_FS_EXECUTE | AG_LL_FS_WRITE_FILE | AG_LL_FS_READ_FILE |         \
	 AG_LL_FS_TRUNCATE | AG_LL_FS_IOCTL_DEV)

#endif
