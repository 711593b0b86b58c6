/* SPDX-License-Identifier: Apache-2.0 */
/*
 * secret-scan: what a prompt-injected agent would do to find its key, for
 * the secrets tests (t0617), run inside the cage.
 *
 *   secret-scan PREFIX HEXLEN [PATH…]
 *
 * Looks for PREFIX followed by HEXLEN lowercase hex digits (the shape of
 * the test's secret; the pattern itself, which is in this program's own
 * memory, is never followed by them) in: its environment, every
 * /proc/PID/environ and /proc/PID/cmdline it can read, its own memory
 * (every readable mapping, through /proc/self/mem), and every regular
 * file it can read under each PATH (symlinks not followed; /proc, /sys
 * and /dev skipped, and the host's system directories /usr, /lib*, /bin,
 * /sbin and /opt, which the cage binds read-only as they are on the host
 * and agentic-git never writes; /etc is scanned). Prints one "found: WHERE" line per hit and a last
 * line "scanned: N files, M bytes of memory, P processes"; exits 1 when
 * something was found, 0 when nothing was, 2 on bad usage.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_MAX (64L << 20)

static const char *prefix;
static size_t hexlen;
static unsigned long files, procs, hits;
static unsigned long long membytes;

static bool hit_in(const char *buf, size_t len)
{
	size_t pl = strlen(prefix);

	for (const char *p = buf; (size_t)(p - buf) + pl + hexlen <= len;) {
		const char *m = memmem(p, len - (size_t)(p - buf), prefix, pl);
		size_t i;

		if (!m || (size_t)(m - buf) + pl + hexlen > len)
			return false;
		for (i = 0; i < hexlen; i++)
			if (!isxdigit((unsigned char)m[pl + i]) ||
			    isupper((unsigned char)m[pl + i]))
				break;
		if (i == hexlen)
			return true;
		p = m + 1;
	}
	return false;
}

static void report(const char *where)
{
	printf("found: %s\n", where);
	hits++;
}

static void scan_fd(int fd, const char *where)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;

	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			if (cap > FILE_MAX + 65536)
				break;
			char *grown = realloc(buf, cap);
			if (!grown)
				break;
			buf = grown;
		}
		n = read(fd, buf + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (buf && hit_in(buf, len))
		report(where);
	free(buf);
}

static void scan_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return;
	files++;
	scan_fd(fd, path);
	close(fd);
}

static bool skipped(const char *path)
{
	static const char *const dirs[] = { "/proc",  "/sys",	 "/dev",
					    "/usr",   "/lib",	 "/lib32",
					    "/lib64", "/libx32", "/bin",
					    "/sbin",  "/opt" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strcmp(path, dirs[i]))
			return true;
	return false;
}

static void scan_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISREG(st.st_mode) && st.st_size <= FILE_MAX) {
		scan_file(path);
		return;
	}
	if (!S_ISDIR(st.st_mode) || skipped(path))
		return;
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (asprintf(&sub, "%s/%s", strcmp(path, "/") ? path : "",
			     de->d_name) < 0)
			break;
		scan_tree(sub);
		free(sub);
	}
	if (d)
		closedir(d);
}

static void scan_procs(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char p[300];

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		procs++;
		snprintf(p, sizeof(p), "/proc/%s/environ", de->d_name);
		scan_file(p);
		snprintf(p, sizeof(p), "/proc/%s/cmdline", de->d_name);
		scan_file(p);
	}
	if (d)
		closedir(d);
}

/* Every readable mapping of this process, read through /proc/self/mem. */
static void scan_self(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	int mem = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
	char line[512];

	while (maps && mem >= 0 && fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;
		char perms[5], *buf;
		ssize_t n;

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3 ||
		    perms[0] != 'r' || strstr(line, "[vvar]") ||
		    hi - lo > (256UL << 20))
			continue;
		buf = malloc(hi - lo);
		n = buf ? pread(mem, buf, hi - lo, (off_t)lo) : -1;
		if (n > 0) {
			membytes += (unsigned long long)n;
			if (hit_in(buf, (size_t)n))
				report("own memory");
		}
		free(buf);
	}
	if (maps)
		fclose(maps);
	if (mem >= 0)
		close(mem);
}

int main(int argc, char **argv)
{
	extern char **environ;

	if (argc < 3 || !*argv[1] || atoi(argv[2]) <= 0) {
		fprintf(stderr, "usage: secret-scan PREFIX HEXLEN [PATH...]\n");
		return 2;
	}
	prefix = argv[1];
	hexlen = (size_t)atoi(argv[2]);
	for (char **e = environ; *e; e++)
		if (hit_in(*e, strlen(*e)))
			report("environment");
	scan_procs();
	scan_self();
	for (int i = 3; i < argc; i++)
		scan_tree(argv[i]);
	printf("scanned: %lu files, %llu bytes of memory, %lu processes\n",
	       files, membytes, procs);
	return hits ? 1 : 0;
}
