// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-write SEED ROUNDS DATA_FILE... -- TARGET_FILE...
 *
 * Throws bad input at writable files: random bytes, empty writes, one byte
 * per write, 1 MiB, huge and negative numbers, embedded NULs. Every write
 * must be answered with an error or accepted; after every rejected one the
 * DATA_FILEs (stats files) must read as before, "since_reset_ns" aside.
 * Prints one TAP line per target and exits non-zero on the first breach.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (1024 * 1024)

static char *snapshot(char **files, int n)
{
	static char buf[BIG];
	size_t len = 0;
	int i;

	for (i = 0; i < n; i++) {
		FILE *f = fopen(files[i], "r");
		char line[512];

		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			size_t n = strlen(line);

			if (strncmp(line, "since_reset_ns ", 15) &&
			    len + n < sizeof(buf) - 1) {
				memcpy(buf + len, line, n);
				len += n;
			}
		}
		fclose(f);
	}
	buf[len] = '\0';
	return strdup(buf);
}

/* Fills @buf with one kind of bad input; returns its length. */
static size_t make_input(char *buf, int kind)
{
	static const char *const words[] = {
		"18446744073709551616", "-1", "-9223372036854775808",
		"99999999999999999999999", "0x1", "1e3", " 1", "1 ", "+1",
		"\n", "\n\n", "1\n1", "!", "!!", "a b", "\t", "\x7f", "\xff",
	};
	size_t len, i;

	switch (kind) {
	case 0:	/* random bytes, short */
		len = rand() % 16;
		break;
	case 1:	/* random bytes, around the write limit */
		len = 240 + rand() % 40;
		break;
	case 2:	/* a word that looks almost right */
		i = rand() % (sizeof(words) / sizeof(*words));
		len = strlen(words[i]);
		memcpy(buf, words[i], len);
		return len;
	case 3:	/* a digit, a NUL, more */
		buf[0] = '0' + rand() % 2;
		buf[1] = '\0';
		buf[2] = '0' + rand() % 10;
		return 3;
	default: /* 1 MiB */
		memset(buf, '1', BIG);
		return BIG;
	}
	for (i = 0; i < len; i++)
		buf[i] = rand();
	return len;
}

static int write_once(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

/* One byte per write(), as a slow writer would send "1\n". */
static void write_bytewise(const char *path)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, "1", 1) < 0 || write(fd, "\n", 1) < 0)
		errno = 0;
	close(fd);
}

int main(int argc, char **argv)
{
	char **data, **targets, *buf = malloc(BIG + 1);
	int rounds, nd = 0, nt = 0, i, t;

	if (argc < 5 || !buf) {
		fprintf(stderr, "usage: fuzz-write SEED ROUNDS DATA... -- TARGET...\n");
		return 2;
	}
	srand(atoi(argv[1]));
	rounds = atoi(argv[2]);
	data = argv + 3;
	while (3 + nd < argc && strcmp(data[nd], "--"))
		nd++;
	targets = data + nd + 1;
	nt = argc - 4 - nd;

	for (t = 0; t < nt; t++) {
		int accepted = 0, rejected = 0;
		char *before = snapshot(data, nd);

		for (i = 0; i < rounds; i++) {
			size_t len = make_input(buf, i % 8 == 7 ? 4 : i % 4);
			int err = write_once(targets[t], buf, len);
			char *after = snapshot(data, nd);

			if (err && strcmp(before, after)) {
				printf("not ok - fuzz %s: refusal changed data (%d bytes, %s)\n",
				       targets[t], (int)len, strerror(-err));
				return 1;
			}
			if (err)
				rejected++;
			else
				accepted++;
			free(before);
			before = after;
		}
		write_bytewise(targets[t]);
		printf("ok - fuzz %s: %d writes (%d accepted, %d refused), data kept\n",
		       targets[t], rounds, accepted, rejected);
		free(before);
	}
	return 0;
}
