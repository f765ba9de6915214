// SPDX-License-Identifier: GPL-2.0
/*
 * Finding, reading and writing tpstat's files, and saying in one line why
 * they cannot be: every file is root's only, debugfs may not be mounted,
 * the core may not be loaded, and under kernel lockdown debugfs refuses
 * any file with a write bit, even to read it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "tpstat.h"

#define DEBUGFS_MAGIC	0x64626720
#define LOCKDOWN	"/sys/kernel/security/lockdown"

const char *tpstat_debugfs(void)
{
	const char *dir = getenv("TPSTAT_DEBUGFS");

	return dir && *dir ? dir : "/sys/kernel/debug";
}

const char *tpstat_control_file(void)
{
	const char *file = getenv("TPSTAT_CONTROL");

	return file && *file ? file : "/sys/kernel/tpstat/control";
}

/* "<debugfs>/tpstat/<rel>", to free. */
static char *tpstat_path(const char *rel)
{
	struct tpstat_buf b = { 0 };

	tpstat_buf_printf(&b, "%s/tpstat%s%s", tpstat_debugfs(), *rel ? "/" : "",
			  rel);
	return b.s;
}

/* stat() of tpstat/@rel. */
static int tpstat_path_stat(const char *rel, struct stat *st)
{
	char *path = tpstat_path(rel);
	int ret = stat(path, st);

	free(path);
	return ret;
}

bool tpstat_exists(const char *rel)
{
	struct stat st;

	return !tpstat_path_stat(rel, &st);
}

static void tpstat_not_root(const char *path)
{
	tpstat_err("%s: permission denied: tpstat's files are root's only; run tpstat as root",
		   path);
}

int tpstat_check_root(void)
{
	char *dir = tpstat_path("");
	struct statfs fs;
	struct stat st;
	int err;

	if (!stat(dir, &st) && S_ISDIR(st.st_mode)) {
		free(dir);
		return 0;
	}
	err = errno;
	if (err == EACCES || err == EPERM)
		tpstat_not_root(dir);
	else if (err != ENOENT && err != ENOTDIR)
		tpstat_err("%s: %s", dir, strerror(err));
	else if (statfs(tpstat_debugfs(), &fs) || fs.f_type != DEBUGFS_MAGIC)
		tpstat_err("debugfs is not mounted on %s: mount -t debugfs none %s",
			   tpstat_debugfs(), tpstat_debugfs());
	else
		tpstat_err("tpstat is not loaded (no %s): modprobe tpstat, or insmod core/tpstat.ko",
			   dir);
	free(dir);
	return -1;
}

/* tpstat/@rel opened with @flags: a descriptor, or a negative errno. */
static int tpstat_open(const char *rel, int flags)
{
	char *path = tpstat_path(rel);
	int fd = open(path, flags | O_CLOEXEC);

	free(path);
	return fd < 0 ? -errno : fd;
}

int tpstat_read(const char *rel, char **text, size_t *len)
{
	struct tpstat_buf b = { 0 };
	char chunk[65536];
	ssize_t n;
	int fd, err = 0;

	fd = tpstat_open(rel, O_RDONLY);
	if (fd < 0)
		return fd;
	tpstat_buf_add(&b, "", 0);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		tpstat_buf_add(&b, chunk, n);
	}
	close(fd);
	if (err) {
		tpstat_buf_free(&b);
		return err;
	}
	*text = b.s;
	*len = b.len;
	return 0;
}

int tpstat_read_version(char **version)
{
	size_t len;
	int err = tpstat_read("version", version, &len);

	if (!err)
		(*version)[strcspn(*version, "\n")] = '\0';
	return err;
}

int tpstat_write(const char *rel, const char *line)
{
	struct tpstat_buf b = { 0 };
	ssize_t n;
	int fd, err = 0;

	/* One line, in one write, as the files want it. */
	fd = tpstat_open(rel, O_WRONLY);
	if (fd == -EPERM || (fd == -ENOENT && !tpstat_exists(""))) {
		/*
		 * Lockdown's refusal, or no debugfs tree to write to: the
		 * same line, through the twin; an empty line is the path
		 * alone, as the twin takes it.
		 */
		int refused = fd;

		/* No twin: the file's refusal is the news. */
		fd = open(tpstat_control_file(), O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return errno == ENOENT ? refused : -errno;
		tpstat_buf_printf(&b, "%s%s%s\n", rel, *line ? " " : "", line);
	} else if (fd >= 0) {
		tpstat_buf_printf(&b, "%s\n", line);
	} else {
		return fd;
	}
	do {
		n = write(fd, b.s, b.len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != b.len)
		err = -EIO;
	close(fd);
	tpstat_buf_free(&b);
	return err;
}

/*
 * The lockdown mode in force, from "none [integrity] confidentiality";
 * "?" when securityfs, which shows it, is not mounted.
 */
static char *tpstat_lockdown(void)
{
	char line[256], *open, *close;
	FILE *f = fopen(LOCKDOWN, "re");

	if (!f)
		return tpstat_strdup("?");
	open = fgets(line, sizeof(line), f) ? strchr(line, '[') : NULL;
	fclose(f);
	close = open ? strchr(open, ']') : NULL;
	if (!close)
		return tpstat_strdup("?");
	return tpstat_strndup(open + 1, close - open - 1);
}

/*
 * Why @rel could not be read, or with @writing written: a write refused by
 * lockdown went to the sysfs twin if this kernel's tpstat has it, so a
 * writer hears of it only when it has not; a reader, where to write.
 */
static void tpstat_access_error(const char *rel, int err, bool writing)
{
	char *path = tpstat_path(rel);
	/* Root is refused a debugfs file by lockdown only. */
	char *mode = err == -EPERM ? tpstat_lockdown() : NULL;
	bool locked = mode && strcmp(mode, "none") && strcmp(mode, "?");

	if (err == -EACCES)
		tpstat_not_root(path);
	else if (locked && writing)
		tpstat_err("%s: refused by kernel lockdown (%s): debugfs opens no file with a write bit, and this tpstat has no %s to take the write instead",
			   path, mode, tpstat_control_file());
	else if (locked)
		tpstat_err("%s: refused by kernel lockdown (%s): debugfs opens no file with a write bit, even to read it; read-only files (stats, probes, the sets' tables) still work, and writes go to %s as '%s LINE'",
			   path, mode, tpstat_control_file(), rel);
	else if (mode && !strcmp(mode, "?"))
		tpstat_err("%s: %s: under kernel lockdown debugfs refuses files with a write bit (securityfs on /sys/kernel/security would say which mode); writes go to %s as '%s LINE'",
			   path, strerror(-err), tpstat_control_file(), rel);
	else
		tpstat_err("%s: %s", path, strerror(-err));
	free(mode);
	free(path);
}

void tpstat_file_error(const char *rel, int err)
{
	tpstat_access_error(rel, err, false);
}

void tpstat_write_error(const char *rel, int err)
{
	tpstat_access_error(rel, err, true);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of tpstat/@rel; with @dirs only directories, else files. */
static int tpstat_dir(const char *rel, bool dirs, char ***names,
		      unsigned int **modes, size_t *nr)
{
	char *path = tpstat_path(rel);
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	*names = NULL;
	*nr = 0;
	d = opendir(path);
	if (!d) {
		int err = -errno;

		free(path);
		return err;
	}
	free(path);
	fd = dirfd(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || fstatat(fd, e->d_name, &st, 0) ||
		    !!S_ISDIR(st.st_mode) != dirs)
			continue;
		*names = tpstat_realloc(*names, (*nr + 1) * sizeof(**names));
		(*names)[*nr] = tpstat_strdup(e->d_name);
		if (modes) {
			*modes = tpstat_realloc(*modes, (*nr + 1) * sizeof(**modes));
			(*modes)[*nr] = st.st_mode & 07777;
		}
		(*nr)++;
	}
	closedir(d);
	return 0;
}

/* How deep sets may lie inside sets: the stack set's entries are one down. */
#define TPSTAT_NESTING_MAX	8

/* tpstat/@rel/stats exists: @rel, a directory under a set's, is a set. */
static bool tpstat_has_stats(const char *rel)
{
	struct tpstat_buf b = { 0 };
	struct stat st;
	bool found;

	tpstat_buf_printf(&b, "%s/stats", rel);
	found = !tpstat_path_stat(b.s, &st) && !S_ISDIR(st.st_mode);
	tpstat_buf_free(&b);
	return found;
}

/*
 * Appends the sets inside @set (those whose directories have a stats
 * file), each followed by those inside it. A directory that goes while
 * it is read (a set unloaded) holds none.
 */
static void tpstat_nested_sets(const char *set, unsigned int depth,
			       char ***names, size_t *nr)
{
	char **dirs;
	size_t i, n;

	if (depth == TPSTAT_NESTING_MAX || tpstat_dir(set, true, &dirs, NULL, &n))
		return;
	qsort(dirs, n, sizeof(*dirs), cmp_name);
	for (i = 0; i < n; i++) {
		struct tpstat_buf path = { 0 };

		tpstat_buf_printf(&path, "%s/%s", set, dirs[i]);
		free(dirs[i]);
		if (!tpstat_has_stats(path.s)) {
			tpstat_buf_free(&path);
			continue;
		}
		*names = tpstat_realloc(*names, (*nr + 1) * sizeof(**names));
		(*names)[(*nr)++] = path.s;
		tpstat_nested_sets(path.s, depth + 1, names, nr);
	}
	free(dirs);
}

int tpstat_set_names(char ***names, size_t *nr)
{
	char **top;
	size_t i, n;
	int err = tpstat_dir("", true, &top, NULL, &n);

	if (err) {
		tpstat_file_error("", err);
		return -1;
	}
	qsort(top, n, sizeof(*top), cmp_name);
	*names = NULL;
	*nr = 0;
	for (i = 0; i < n; i++) {
		*names = tpstat_realloc(*names, (*nr + 1) * sizeof(**names));
		(*names)[(*nr)++] = top[i];
		tpstat_nested_sets(top[i], 1, names, nr);
	}
	free(top);
	return 0;
}

void tpstat_free_names(char **names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/*
 * A set is a directory under tpstat/, or, inside one, a directory with a
 * stats file of its own; each part of its path a name, not . or .. .
 */
bool tpstat_set_exists(const char *set)
{
	const char *part = set, *slash;
	struct stat st;
	size_t depth = 0;
	bool found = true;
	char *prefix;

	for (;;) {
		slash = strchr(part, '/');
		if (part == slash || !*part || *part == '.' ||
		    ++depth > TPSTAT_NESTING_MAX)
			return false;
		prefix = tpstat_strndup(set, (slash ? slash : part + strlen(part)) - set);
		if (depth == 1)
			found = !tpstat_path_stat(prefix, &st) && S_ISDIR(st.st_mode);
		else
			found = !tpstat_path_stat(prefix, &st) && S_ISDIR(st.st_mode) &&
				tpstat_has_stats(prefix);
		free(prefix);
		if (!found || !slash)
			return found;
		part = slash + 1;
	}
}

bool tpstat_set_within(const char *set, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(set, name, n) && (!set[n] || set[n] == '/');
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct tpstat_file *)a)->name,
		      ((const struct tpstat_file *)b)->name);
}

int tpstat_set_files(const char *set, struct tpstat_file **files, size_t *nr)
{
	unsigned int *modes = NULL;
	char **names;
	size_t i;
	int err;

	err = tpstat_dir(set, false, &names, &modes, nr);
	if (err)
		return err;
	*files = tpstat_alloc(*nr * sizeof(**files));
	for (i = 0; i < *nr; i++) {
		(*files)[i].name = names[i];
		(*files)[i].mode = modes[i];
	}
	free(names);
	free(modes);
	qsort(*files, *nr, sizeof(**files), cmp_file);
	return 0;
}

void tpstat_free_files(struct tpstat_file *files, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(files[i].name);
	free(files);
}

/* "set tracepoint state hits dropped" rows; "#" starts the header. */
int tpstat_read_probes(struct tpstat_probes *probes)
{
	char *text, *line, *save = NULL;
	size_t len;
	int err;

	probes->p = NULL;
	probes->nr = 0;
	err = tpstat_read("probes", &text, &len);
	if (err) {
		tpstat_file_error("probes", err);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char set[256], tp[256], state[64];
		unsigned long long hits, dropped;
		struct tpstat_probe *p;

		if (line[0] == '#' ||
		    sscanf(line, "%255s %255s %63s %llu %llu", set, tp, state,
			   &hits, &dropped) != 5)
			continue;
		probes->p = tpstat_realloc(probes->p,
					   (probes->nr + 1) * sizeof(*probes->p));
		p = &probes->p[probes->nr++];
		p->set = tpstat_strdup(set);
		p->tracepoint = tpstat_strdup(tp);
		p->state = tpstat_strdup(state);
		p->hits = hits;
		p->dropped = dropped;
	}
	free(text);
	return 0;
}

void tpstat_free_probes(struct tpstat_probes *probes)
{
	size_t i;

	for (i = 0; i < probes->nr; i++) {
		free(probes->p[i].set);
		free(probes->p[i].tracepoint);
		free(probes->p[i].state);
	}
	free(probes->p);
	probes->p = NULL;
	probes->nr = 0;
}
