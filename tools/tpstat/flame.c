// SPDX-License-Identifier: GPL-2.0
/*
 * tpstat flame: folded stacks ("frame;frame;...;leaf COUNT", outermost
 * first, as a stack entry's folded file has them) drawn as a flame graph,
 * one self-contained SVG: each frame a box as wide as its share of the
 * counts, the outermost at the bottom, its callees above it, siblings in
 * name order. A small script of our own zooms on a click and searches.
 * Nothing in it depends on time or chance (the colours come from a hash
 * of the name), so that one input gives the same file to the byte.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpstat.h"

static const char tpstat_flame_usage[] =
	"usage: tpstat flame [-o FILE.svg] [--title TITLE] PATH\n"
	"\n"
	"Draws the folded stacks of PATH as a flame graph, an SVG file with\n"
	"no outside reference that a browser opens: a frame's width is its\n"
	"share of the counts, the outermost frame at the bottom; hover names\n"
	"a frame, a click zooms on it, Search colours the frames whose names\n"
	"match a regular expression and says what share they hold.\n"
	"PATH is a file, a tpstat file by its path under debugfs's tpstat/\n"
	"(stack/kmalloc/folded), or - for stdin. Each line is\n"
	"\"FRAME;FRAME;...;FRAME COUNT\", outermost first; empty lines and\n"
	"lines starting with # are skipped.\n"
	"\n"
	"  -o, --output FILE  write the SVG to FILE, not stdout\n"
	"  -t, --title TITLE  its title (default: \"Flame graph of PATH\")\n";

/* The drawing, in SVG user units (pixels). */
#define FLAME_WIDTH	1200
#define FLAME_PAD	10
#define FLAME_FRAME	16
#define FLAME_TOP	36
#define FLAME_BOTTOM	30
/* What a character of the 12px monospace font takes, to cut names to fit. */
#define FLAME_CHAR	7.2

struct flame_node {
	char *name;
	unsigned long long count;
	struct flame_node **kids;
	size_t nr, size;
};

static struct flame_node *flame_child(struct flame_node *parent,
				      const char *name, size_t len)
{
	struct flame_node *kid;
	size_t i;

	for (i = 0; i < parent->nr; i++) {
		kid = parent->kids[i];
		if (strlen(kid->name) == len && !memcmp(kid->name, name, len))
			return kid;
	}
	if (parent->nr == parent->size) {
		parent->size = parent->size ? 2 * parent->size : 4;
		parent->kids = tpstat_realloc(parent->kids,
					      parent->size * sizeof(*parent->kids));
	}
	kid = tpstat_alloc(sizeof(*kid));
	kid->name = tpstat_strndup(name, len);
	parent->kids[parent->nr++] = kid;
	return kid;
}

/* @frames, ';'-separated, outermost first, each given @count more. */
static void flame_add(struct flame_node *root, const char *frames,
		      unsigned long long count)
{
	struct flame_node *node = root;
	const char *end;

	root->count += count;
	for (;;) {
		end = strchr(frames, ';');
		node = flame_child(node, frames, end ? (size_t)(end - frames) :
				   strlen(frames));
		node->count += count;
		if (!end)
			return;
		frames = end + 1;
	}
}

/*
 * One line, "FRAMES COUNT": the count the digits after the last blank.
 * Returns false if the line is not so.
 */
static bool flame_line(struct flame_node *root, char *line)
{
	unsigned long long count;
	char *blank, *end;

	blank = strrchr(line, ' ');
	if (!blank || blank == line || blank[1] < '0' || blank[1] > '9')
		return false;
	errno = 0;
	count = strtoull(blank + 1, &end, 10);
	if (*end || errno)
		return false;
	while (blank > line && blank[-1] == ' ')
		blank--;
	if (blank == line)
		return false;
	*blank = '\0';
	if (count)
		flame_add(root, line, count);
	return true;
}

static int flame_cmp(const void *a, const void *b)
{
	const struct flame_node *x = *(const struct flame_node *const *)a;
	const struct flame_node *y = *(const struct flame_node *const *)b;

	return strcmp(x->name, y->name);
}

/* Sorts each node's callees by name; returns the depth below @node. */
static unsigned int flame_sort(struct flame_node *node)
{
	unsigned int depth = 0, d;
	size_t i;

	qsort(node->kids, node->nr, sizeof(*node->kids), flame_cmp);
	for (i = 0; i < node->nr; i++) {
		d = flame_sort(node->kids[i]) + 1;
		if (d > depth)
			depth = d;
	}
	return depth;
}

static void flame_free(struct flame_node *node)
{
	size_t i;

	for (i = 0; i < node->nr; i++)
		flame_free(node->kids[i]);
	free(node->kids);
	free(node->name);
	free(node);
}

/*
 * The first @len bytes of @s for XML text: markup escaped, control bytes
 * made '?', and a byte that is no part of a UTF-8 sequence (a command's
 * name is any bytes) U+FFFD, as the exports make it.
 */
static void flame_escape(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strnlen(s, len);
	size_t n;

	while (p < end) {
		n = tpstat_utf8_len(p);
		if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p < ' ')
			fputc('?', f);
		else if (n)
			fwrite(p, 1, n, f);
		else
			fputs("\xef\xbf\xbd", f);
		p += n ? n : 1;
	}
}

/* FNV-1a: a colour that stays with a name from one graph to the next. */
static uint32_t flame_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/*
 * Warm colours, from red to yellow, by the name's hash; names in brackets
 * ("[other]", "[no frames]") are not functions, and are grey.
 */
static void flame_colour(char *buf, size_t size, const char *name)
{
	uint32_t h = flame_hash(name);

	if (name[0] == '[')
		snprintf(buf, size, "rgb(176,176,176)");
	else
		snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 51,
			 (h >> 8) % 200, (h >> 16) % 60);
}

/*
 * As the script's fit(): how many bytes of @name fit @width, in whole
 * characters, and whether it was cut (to be followed by "..").
 */
static size_t flame_fit(const char *name, double width, bool *cut)
{
	const unsigned char *s = (const unsigned char *)name;
	long room = (long)((width - 6) / FLAME_CHAR);
	size_t i = 0, chars = 0, at = 0, n;

	*cut = false;
	if (room < 3)
		return 0;
	while (s[i]) {
		if (++chars == (size_t)room - 1)
			at = i;
		if (chars > (size_t)room) {
			*cut = true;
			return at;
		}
		n = tpstat_utf8_len(s + i);
		i += n ? n : 1;
	}
	return i;
}

struct flame_draw {
	FILE *f;
	unsigned long long total;
	unsigned int height;
};

/*
 * @node at @depth (the root "all" is 0), from count @offset: its box, its
 * title (the name, a newline, its count and share) and its name cut to
 * fit, on one line; then its callees.
 */
static void flame_node_draw(const struct flame_draw *d,
			    const struct flame_node *node, unsigned int depth,
			    unsigned long long offset)
{
	const double span = FLAME_WIDTH - 2 * FLAME_PAD;
	double x = FLAME_PAD + span * offset / d->total;
	double w = span * node->count / d->total;
	unsigned int y = d->height - FLAME_BOTTOM - (depth + 1) * FLAME_FRAME;
	char colour[32];
	size_t i, fit;
	bool cut;

	flame_colour(colour, sizeof(colour), node->name);
	fprintf(d->f, "<g class=\"f\" data-o=\"%llu\" data-n=\"%llu\" data-d=\"%u\"><title>",
		offset, node->count, depth);
	flame_escape(d->f, node->name, SIZE_MAX);
	fprintf(d->f, "&#10;%llu (%.2f%%)</title>", node->count,
		100.0 * node->count / d->total);
	fprintf(d->f, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\"/>",
		x, y, w, FLAME_FRAME - 1, colour);
	fprintf(d->f, "<text x=\"%.2f\" y=\"%u\">", x + 3, y + 11);
	fit = flame_fit(node->name, w, &cut);
	flame_escape(d->f, node->name, fit);
	fprintf(d->f, "%s</text></g>\n", cut ? ".." : "");
	for (i = 0; i < node->nr; i++) {
		flame_node_draw(d, node->kids[i], depth + 1, offset);
		offset += node->kids[i]->count;
	}
}

/*
 * The page's script: a click on a frame zooms on it (its callers kept
 * below it, full width and faded; "Reset zoom" or a click on "all" goes
 * back), Search asks for a regular expression and colours the frames
 * that match, with the share of the counts under them. Frames carry
 * their place in counts (data-o, data-n, data-d) so that a zoom is exact.
 */
static const char flame_script[] =
	"var flameSpan = %d, flamePad = %d, flameChar = %.1f;\n"
	"var frames, unzoom, info, matched, total;\n"
	"function num(g, k) { return parseInt(g.getAttribute(\"data-\" + k), 10); }\n"
	"function part(g, tag) { return g.getElementsByTagName(tag)[0]; }\n"
	"function nameOf(g) { return part(g, \"title\").textContent.split(\"\\n\")[0]; }\n"
	"function fit(name, w) {\n"
	"\tvar room = Math.floor((w - 6) / flameChar);\n"
	"\tif (room < 3)\n\t\treturn \"\";\n"
	"\treturn name.length <= room ? name : name.substring(0, room - 2) + \"..\";\n"
	"}\n"
	"function place(g, x, w, cls) {\n"
	"\tvar r = part(g, \"rect\"), t = part(g, \"text\");\n"
	"\tg.setAttribute(\"class\", cls);\n"
	"\tr.setAttribute(\"x\", x.toFixed(2));\n"
	"\tr.setAttribute(\"width\", w.toFixed(2));\n"
	"\tt.setAttribute(\"x\", (x + 3).toFixed(2));\n"
	"\tt.textContent = fit(nameOf(g), w);\n"
	"}\n"
	"function zoom(z) {\n"
	"\tvar zo = num(z, \"o\"), zn = num(z, \"n\"), zd = num(z, \"d\"), i, g, o, n, d;\n"
	"\tfor (i = 0; i < frames.length; i++) {\n"
	"\t\tg = frames[i];\n"
	"\t\to = num(g, \"o\");\n\t\tn = num(g, \"n\");\n\t\td = num(g, \"d\");\n"
	"\t\tif (d < zd && o <= zo && o + n >= zo + zn)\n"
	"\t\t\tplace(g, flamePad, flameSpan, \"f up\");\n"
	"\t\telse if (d >= zd && o >= zo && o + n <= zo + zn)\n"
	"\t\t\tplace(g, flamePad + flameSpan * (o - zo) / zn, flameSpan * n / zn, \"f\");\n"
	"\t\telse\n\t\t\tg.setAttribute(\"class\", \"f hide\");\n"
	"\t}\n"
	"\tunzoom.setAttribute(\"class\", zd ? \"button\" : \"button hide\");\n"
	"}\n"
	"function search() {\n"
	"\tvar text = prompt(\"Frames whose names match (a regular expression):\", \"\");\n"
	"\tvar re, hits = [], sum = 0, end = -1, i, g, r;\n"
	"\tif (text === null)\n\t\treturn;\n"
	"\ttry {\n\t\tre = new RegExp(text);\n\t} catch (e) {\n\t\talert(e);\n\t\treturn;\n\t}\n"
	"\tfor (i = 0; i < frames.length; i++) {\n"
	"\t\tg = frames[i];\n\t\tr = part(g, \"rect\");\n"
	"\t\tif (text !== \"\" && re.test(nameOf(g))) {\n"
	"\t\t\tr.setAttribute(\"fill\", \"rgb(220,0,220)\");\n"
	"\t\t\thits.push(g);\n"
	"\t\t} else {\n\t\t\tr.setAttribute(\"fill\", r.flameFill);\n\t\t}\n"
	"\t}\n"
	"\t/* A match inside another counts once: by place, the outer first. */\n"
	"\thits.sort(function (a, b) { return num(a, \"o\") - num(b, \"o\") || num(a, \"d\") - num(b, \"d\"); });\n"
	"\tfor (i = 0; i < hits.length; i++) {\n"
	"\t\tif (num(hits[i], \"o\") >= end) {\n"
	"\t\t\tsum += num(hits[i], \"n\");\n"
	"\t\t\tend = num(hits[i], \"o\") + num(hits[i], \"n\");\n"
	"\t\t}\n\t}\n"
	"\tmatched.textContent = text === \"\" ? \"\" :\n"
	"\t\t\"Matched \" + text + \": \" + (100 * sum / total).toFixed(2) + \"%%\";\n"
	"}\n"
	"function flameInit() {\n"
	"\tvar i;\n"
	"\tframes = document.getElementById(\"frames\").getElementsByTagName(\"g\");\n"
	"\tunzoom = document.getElementById(\"unzoom\");\n"
	"\tinfo = document.getElementById(\"info\");\n"
	"\tmatched = document.getElementById(\"matched\");\n"
	"\ttotal = num(frames[0], \"n\");\n"
	"\tfor (i = 0; i < frames.length; i++) {\n"
	"\t\tpart(frames[i], \"rect\").flameFill = part(frames[i], \"rect\").getAttribute(\"fill\");\n"
	"\t\tframes[i].onclick = function () { zoom(this); };\n"
	"\t\tframes[i].onmouseover = function () {\n"
	"\t\t\tinfo.textContent = part(this, \"title\").textContent.replace(\"\\n\", \": \");\n"
	"\t\t};\n"
	"\t\tframes[i].onmouseout = function () { info.textContent = \"\"; };\n"
	"\t}\n"
	"\tunzoom.onclick = function () { zoom(frames[0]); };\n"
	"\tdocument.getElementById(\"search\").onclick = search;\n"
	"}\n";

static void flame_svg(FILE *f, const struct flame_node *root, unsigned int depth,
		      const char *title)
{
	struct flame_draw d = {
		.f = f,
		.total = root->count,
		.height = FLAME_TOP + (depth + 1) * FLAME_FRAME + FLAME_BOTTOM,
	};

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" onload=\"flameInit()\">\n"
		"<style>\n"
		"text { font-family: monospace; font-size: 12px; fill: black; }\n"
		".f, .button { cursor: pointer; }\n"
		".f:hover rect { stroke: black; stroke-width: 0.5; }\n"
		".up rect { opacity: 0.5; }\n"
		".hide { display: none; }\n"
		"</style>\n"
		"<script type=\"text/ecmascript\"><![CDATA[\n",
		FLAME_WIDTH, d.height, FLAME_WIDTH, d.height);
	fprintf(f, flame_script, FLAME_WIDTH - 2 * FLAME_PAD, FLAME_PAD, FLAME_CHAR);
	fprintf(f, "]]></script>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%u\" fill=\"rgb(248,248,240)\"/>\n"
		"<text x=\"%d\" y=\"22\" text-anchor=\"middle\" style=\"font-size: 16px\">",
		FLAME_WIDTH, d.height, FLAME_WIDTH / 2);
	flame_escape(f, title, SIZE_MAX);
	fprintf(f, "</text>\n"
		"<text id=\"unzoom\" class=\"button hide\" x=\"%d\" y=\"22\">Reset zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%d\" y=\"22\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"info\" x=\"%d\" y=\"%u\"></text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%u\" text-anchor=\"end\"></text>\n"
		"<g id=\"frames\">\n",
		FLAME_PAD, FLAME_WIDTH - FLAME_PAD, FLAME_PAD, d.height - 10,
		FLAME_WIDTH - FLAME_PAD, d.height - 10);
	flame_node_draw(&d, root, 0, 0);
	fputs("</g>\n</svg>\n", f);
}

/* @path's text: stdin for "-", a file, else a tpstat file under debugfs. */
static int flame_read(const char *path, char **text)
{
	struct tpstat_buf b = { 0 };
	char chunk[65536];
	size_t len, n;
	FILE *f;
	int err;

	if (!strcmp(path, "-"))
		f = stdin;
	else
		f = fopen(path, "r");
	if (!f) {
		if (errno != ENOENT || path[0] == '/')
			goto fail;
		err = tpstat_read(path, text, &len);
		if (err)
			tpstat_file_error(path, err);
		return err ? -1 : 0;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)))
		tpstat_buf_add(&b, chunk, n);
	if (ferror(f)) {
		tpstat_buf_free(&b);
		if (f != stdin)
			fclose(f);
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	tpstat_buf_add(&b, "", 0);
	*text = b.s;
	return 0;
fail:
	tpstat_err("%s: %s", path, strerror(errno));
	return -1;
}

/* Every line of @text into @root; -1 after naming the first bad one. */
static int flame_parse(struct flame_node *root, char *text, const char *path)
{
	unsigned int nr = 0;
	char *line, *next;
	size_t len;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		len = strlen(line);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!len || line[0] == '#')
			continue;
		if (!flame_line(root, line)) {
			tpstat_err("%s: line %u is not 'FRAME;...;FRAME COUNT'",
				   path, nr);
			return -1;
		}
	}
	return 0;
}

int tpstat_flame(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *path;
	struct tpstat_buf title = { 0 };
	struct flame_node *root;
	char *text = NULL;
	unsigned int depth;
	int c, rc = 1;
	FILE *f;

	while ((c = tpstat_getopt(argc, argv, tpstat_flame_usage, ":ho:t:",
				  longopts)) != -1) {
		if (c == 'o') {
			output = optarg;
		} else {
			tpstat_buf_free(&title);
			tpstat_buf_printf(&title, "%s", optarg);
		}
	}
	if (argc - optind != 1) {
		tpstat_buf_free(&title);
		return tpstat_usage_error(argv[0], "takes one path ('-' for stdin)");
	}
	path = argv[optind];
	if (!title.s)
		tpstat_buf_printf(&title, "Flame graph of %s",
				  strcmp(path, "-") ? path : "stdin");
	root = tpstat_alloc(sizeof(*root));
	root->name = tpstat_strdup("all");
	if (flame_read(path, &text) || flame_parse(root, text, path))
		goto out;
	if (!root->count) {
		tpstat_err("%s: no counts to draw", path);
		goto out;
	}
	depth = flame_sort(root);
	f = output ? fopen(output, "w") : stdout;
	if (!f) {
		tpstat_err("%s: %s", output, strerror(errno));
		goto out;
	}
	flame_svg(f, root, depth, title.s);
	rc = 0;
	if (output && (ferror(f) | fclose(f))) {
		tpstat_err("%s: %s", output, strerror(errno));
		rc = 1;
	}
out:
	flame_free(root);
	free(text);
	tpstat_buf_free(&title);
	return rc;
}
