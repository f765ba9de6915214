// SPDX-License-Identifier: GPL-2.0
/*
 * A JSON document read whole into a tree of values (struct json), for
 * tpstat diff, which reads exports back: a reader of our own, as the
 * command links nothing but libc. Numbers are kept as written, so that
 * no 64-bit count passes through a double; nesting is bounded, and the
 * first error is said with its line and column.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

/* Nesting deeper than any export, to keep the reader's stack bounded. */
#define JSON_DEPTH_MAX	16

struct json_reader {
	const char *path;
	const char *text, *p, *end;
	/* Said once; the reader stops at the first. */
	bool failed;
};

void tpstat_json_free(struct json *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++) {
		tpstat_json_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

/* The line and column of @at in the reader's text, from 1. */
static void json_where(const struct json_reader *r, const char *at,
		       unsigned int *line, unsigned int *col)
{
	const char *p;

	*line = 1;
	*col = 1;
	for (p = r->text; p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static bool __printf(2, 3) json_fail(struct json_reader *r, const char *fmt, ...)
{
	struct tpstat_buf b = { 0 };
	unsigned int line, col;
	va_list ap;
	int n;

	if (r->failed)
		return false;
	r->failed = true;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	b.s = tpstat_alloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(b.s, n + 1, fmt, ap);
	va_end(ap);
	json_where(r, r->p, &line, &col);
	if (r->p >= r->end)
		tpstat_err("%s: not JSON: %s at its end", r->path, b.s);
	else
		tpstat_err("%s: not JSON: %s at line %u, column %u", r->path, b.s,
			   line, col);
	free(b.s);
	return false;
}

static void json_skip_space(struct json_reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
				 *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int json_hex(const char *p, const char *end)
{
	int v = 0, i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static void json_add_utf8(struct tpstat_buf *b, unsigned int c)
{
	char u[4];
	size_t n;

	if (c < 0x80) {
		u[0] = c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = 0xc0 | (c >> 6);
		u[1] = 0x80 | (c & 0x3f);
		n = 2;
	} else if (c < 0x10000) {
		u[0] = 0xe0 | (c >> 12);
		u[1] = 0x80 | ((c >> 6) & 0x3f);
		u[2] = 0x80 | (c & 0x3f);
		n = 3;
	} else {
		u[0] = 0xf0 | (c >> 18);
		u[1] = 0x80 | ((c >> 12) & 0x3f);
		u[2] = 0x80 | ((c >> 6) & 0x3f);
		u[3] = 0x80 | (c & 0x3f);
		n = 4;
	}
	tpstat_buf_add(b, u, n);
}

/* The escapes of one character, and the characters they stand for. */
static const char json_escapes[] = "\"\\/bfnrt";
static const char json_unescaped[] = "\"\\/\b\f\n\r\t";

/* The character a \u escape's 4 hex digits at @p name, or -1. */
static int json_low_surrogate(const char *p, const char *end)
{
	int low;

	if (end - p < 6 || p[0] != '\\' || p[1] != 'u')
		return -1;
	low = json_hex(p + 2, end);
	return low >= 0xdc00 && low < 0xe000 ? low : -1;
}

/* A string at r->p, its quote first; its text in *@s. */
static bool json_read_string(struct json_reader *r, char **s)
{
	struct tpstat_buf b = { 0 };
	const char *esc;
	int c, low;

	r->p++;
	tpstat_buf_add(&b, "", 0);
	while (r->p < r->end && *r->p != '"') {
		if ((unsigned char)*r->p < 0x20) {
			tpstat_buf_free(&b);
			return json_fail(r, "a control character in a string");
		}
		if (*r->p != '\\') {
			tpstat_buf_add(&b, r->p++, 1);
			continue;
		}
		r->p++;
		if (r->p >= r->end)
			break;
		esc = strchr(json_escapes, *r->p);
		if (esc && *esc) {
			tpstat_buf_add(&b, &json_unescaped[esc - json_escapes], 1);
			r->p++;
			continue;
		}
		switch (*r->p) {
		case 'u':
			c = json_hex(r->p + 1, r->end);
			if (c <= 0) {
				tpstat_buf_free(&b);
				return json_fail(r, c ? "a \\u escape that is not 4 hex digits" :
						 "a NUL (\\u0000) in a string");
			}
			r->p += 4;
			/* A surrogate pair is one character; half of one, U+FFFD. */
			low = c >= 0xd800 && c < 0xdc00 ?
			      json_low_surrogate(r->p + 1, r->end) : -1;
			if (low >= 0) {
				c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
				r->p += 6;
			} else if (c >= 0xd800 && c < 0xe000) {
				c = 0xfffd;
			}
			json_add_utf8(&b, c);
			break;
		default:
			tpstat_buf_free(&b);
			return json_fail(r, "an unknown escape \\%c", *r->p);
		}
		r->p++;
	}
	if (r->p >= r->end) {
		tpstat_buf_free(&b);
		return json_fail(r, "a string not closed");
	}
	r->p++;
	*s = b.s;
	return true;
}

/* A number as JSON writes one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool json_read_number(struct json_reader *r, struct json *v)
{
	const char *start = r->p, *p = r->p;

	if (p < r->end && *p == '-')
		p++;
	if (p < r->end && *p == '0')
		p++;
	else if (p < r->end && *p >= '1' && *p <= '9')
		while (p < r->end && *p >= '0' && *p <= '9')
			p++;
	else
		return json_fail(r, "a number that is not one");
	if (p < r->end && *p == '.') {
		if (++p >= r->end || *p < '0' || *p > '9')
			return json_fail(r, "a number that is not one");
		while (p < r->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < r->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < r->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= r->end || *p < '0' || *p > '9')
			return json_fail(r, "a number that is not one");
		while (p < r->end && *p >= '0' && *p <= '9')
			p++;
	}
	v->type = JSON_NUMBER;
	v->s = tpstat_strndup(start, p - start);
	r->p = p;
	return true;
}

static bool json_read_value(struct json_reader *r, struct json *v, int depth);

/* An array or an object at r->p, its bracket first. */
static bool json_read_container(struct json_reader *r, struct json *v, int depth)
{
	bool object = *r->p == '{';
	char close = object ? '}' : ']';
	size_t i;

	if (depth >= JSON_DEPTH_MAX)
		return json_fail(r, "nesting deeper than %d", JSON_DEPTH_MAX);
	v->type = object ? JSON_OBJECT : JSON_ARRAY;
	r->p++;
	json_skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return true;
	}
	for (;;) {
		v->items = tpstat_realloc(v->items, (v->nr + 1) * sizeof(*v->items));
		memset(&v->items[v->nr], 0, sizeof(*v->items));
		if (object) {
			v->keys = tpstat_realloc(v->keys, (v->nr + 1) * sizeof(*v->keys));
			v->keys[v->nr] = NULL;
		}
		v->nr++;
		json_skip_space(r);
		if (object) {
			if (r->p >= r->end || *r->p != '"')
				return json_fail(r, "a name expected");
			if (!json_read_string(r, &v->keys[v->nr - 1]))
				return false;
			for (i = 0; i < v->nr - 1; i++)
				if (!strcmp(v->keys[i], v->keys[v->nr - 1]))
					return json_fail(r, "a name given twice, \"%s\"",
							 v->keys[i]);
			json_skip_space(r);
			if (r->p >= r->end || *r->p != ':')
				return json_fail(r, "':' expected");
			r->p++;
		}
		if (!json_read_value(r, &v->items[v->nr - 1], depth + 1))
			return false;
		json_skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return true;
		}
		return json_fail(r, "',' or '%c' expected", close);
	}
}

static bool json_read_value(struct json_reader *r, struct json *v, int depth)
{
	static const struct {
		const char *word;
		enum json_type type;
	} words[] = {
		{ "null", JSON_NULL }, { "true", JSON_BOOL }, { "false", JSON_BOOL },
	};
	size_t i, n;

	json_skip_space(r);
	if (r->p >= r->end)
		return json_fail(r, "a value expected");
	if (*r->p == '{' || *r->p == '[')
		return json_read_container(r, v, depth);
	if (*r->p == '"') {
		v->type = JSON_STRING;
		return json_read_string(r, &v->s);
	}
	if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
		return json_read_number(r, v);
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		n = strlen(words[i].word);
		if ((size_t)(r->end - r->p) >= n && !memcmp(r->p, words[i].word, n)) {
			v->type = words[i].type;
			r->p += n;
			return true;
		}
	}
	return json_fail(r, "a value expected");
}

/* The member @key of object @v, or NULL. */
const struct json *tpstat_json_member(const struct json *v, const char *key)
{
	size_t i;

	for (i = 0; v->type == JSON_OBJECT && i < v->nr; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

/*
 * @text (@len bytes, read from @path) as one JSON value in @root, which
 * the caller frees with tpstat_json_free() whatever the outcome. False,
 * said in one line naming @path and where, if it is not JSON.
 */
bool tpstat_json_read(const char *path, const char *text, size_t len,
		      struct json *root)
{
	struct json_reader r = { .path = path, .text = text, .p = text,
				 .end = text + len };
	bool ok;

	if (memchr(text, '\0', len)) {
		r.p = memchr(text, '\0', len);
		return json_fail(&r, "a NUL byte");
	}
	ok = json_read_value(&r, root, 0);
	json_skip_space(&r);
	if (ok && r.p < r.end)
		ok = json_fail(&r, "more after the value");
	return ok;
}
