// SPDX-License-Identifier: GPL-2.0
/*
 * Errors, allocations that cannot fail quietly, growing strings, and the
 * escaping JSON and Prometheus want.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

void tpstat_err(const char *fmt, ...)
{
	va_list ap;

	fputs("tpstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int tpstat_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tpstat %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (tpstat %s --help says how)\n", cmd);
	return TPSTAT_EXIT_USAGE;
}

/* The first write error on stdout. */
static int tpstat_output_errno;

bool tpstat_output_ok(void)
{
	if (fflush(stdout) && !tpstat_output_errno)
		tpstat_output_errno = errno;
	if (ferror(stdout) && !tpstat_output_errno)
		tpstat_output_errno = EIO;
	return !tpstat_output_errno;
}

int tpstat_output_done(int status)
{
	if (tpstat_output_ok())
		return status;
	tpstat_err("cannot write the output: %s", strerror(tpstat_output_errno));
	return status ? status : 1;
}

void tpstat_grouped(char *buf, size_t size, unsigned long long v)
{
	char digits[24], out[32];
	size_t n, i, o = 0;

	n = snprintf(digits, sizeof(digits), "%llu", v);
	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, size, "%s", out);
}

/* Out of memory, a short-lived tool has nothing better to do than stop. */
static void *tpstat_oom(void *p)
{
	if (!p) {
		tpstat_err("out of memory");
		exit(1);
	}
	return p;
}

bool tpstat_parse_number(const char *s, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(s, &end);
	/* Not NaN, which equals nothing. */
	return *s && !*end && !errno && *value == *value;
}

void *tpstat_alloc(size_t size)
{
	return tpstat_oom(calloc(1, size ? size : 1));
}

void *tpstat_realloc(void *p, size_t size)
{
	return tpstat_oom(realloc(p, size ? size : 1));
}

char *tpstat_strdup(const char *s)
{
	return tpstat_oom(strdup(s));
}

char *tpstat_strndup(const char *s, size_t n)
{
	return tpstat_oom(strndup(s, n));
}

void tpstat_buf_add(struct tpstat_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->size) {
		b->size = (b->len + n + 1) * 2;
		b->s = tpstat_realloc(b->s, b->size);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void tpstat_buf_printf(struct tpstat_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + n + 1 > b->size) {
		b->size = (b->len + n + 1) * 2;
		b->s = tpstat_realloc(b->s, b->size);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

void tpstat_buf_free(struct tpstat_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = 0;
	b->size = 0;
}

size_t tpstat_utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/*
 * Both formats are UTF-8, and a command's name is any bytes the task set:
 * a byte that is not part of a UTF-8 sequence becomes U+FFFD.
 */
void tpstat_escape(struct tpstat_buf *b, const char *s, enum tpstat_escape how)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	tpstat_buf_add(b, "", 0);
	while (*p) {
		n = tpstat_utf8_len(p);
		if (*p == '\\' || (*p == '"' && how != TPSTAT_ESCAPE_HELP)) {
			tpstat_buf_printf(b, "\\%c", *p++);
		} else if (*p == '\n') {
			tpstat_buf_add(b, "\\n", 2);
			p++;
		} else if (*p < 0x20 && how == TPSTAT_ESCAPE_JSON) {
			tpstat_buf_printf(b, "\\u%04x", *p++);
		} else if (n) {
			tpstat_buf_add(b, (const char *)p, n);
			p += n;
		} else {
			tpstat_buf_add(b, "\xef\xbf\xbd", 3);
			p++;
		}
	}
}
