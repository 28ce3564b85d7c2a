/* ptxlink-bench: parser and printer throughput and memory on synthetic PTX
 * made k times as large as a real file.
 *
 *   ptxlink-bench FILE [REPEAT...]      (default repeats: 1 8 64)
 *
 * For a repeat factor k the input is FILE followed by k-1 more copies of
 * each of its function definitions (.entry/.func with a body), each copy
 * renamed NAME_bkI.  Calls in the copies still go to the original
 * functions; the text is valid for the parser, ptxas is never run on it.
 *
 * Every size runs in its own forked child so that the child's ru_maxrss
 * (reported by wait4) is the peak for that size alone.  The child reads
 * the file, builds the text, writes it to a temporary file ($TMPDIR or
 * /tmp) and frees it, then parses that file with ptx_parse_file as the
 * CLI does and prints the module to /dev/null through a 1 MB stdio
 * buffer.  Peak RSS therefore covers the IR, the interned names and the
 * scanner's buffers, not a copy of the input.  When
 * parse+print takes under half a second the pair is repeated (up to 9
 * times) and the fastest run is reported.
 */
#define _DEFAULT_SOURCE 1  /* wait4 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ir/ir.h"
#include "ptx-grammar/ptx.h"

typedef struct Buf {
	char *p;
	size_t n, cap;
} Buf;

static void buf_add(Buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 16;
		while (b->n + n + 1 > cap)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "ptxlink-bench: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	Buf b = {0};
	char tmp[1 << 16];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	if (ferror(f)) {
		fprintf(stderr, "ptxlink-bench: %s: read error\n", path);
		exit(1);
	}
	fclose(f);
	if (!b.p)
		buf_add(&b, "", 0);
	*len = b.n;
	return b.p;
}

/* Skips blanks and comments from i. */
static size_t skip_space(const char *t, size_t n, size_t i)
{
	for (;;) {
		while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
				t[i] == '\f' || t[i] == '\v'))
			i++;
		if (i + 1 < n && t[i] == '/' && t[i + 1] == '/') {
			while (i < n && t[i] != '\n')
				i++;
		} else if (i + 1 < n && t[i] == '/' && t[i + 1] == '*') {
			const char *e = strstr(t + i + 2, "*/");
			i = e ? (size_t)(e - t) + 2 : n;
		} else {
			return i;
		}
	}
}

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '_' || c == '$' || c == '%' || c == '.' || c == ':';
}

/* A function definition found at the top level: text [start, end) with
 * its name at [name, name_end). */
typedef struct Def {
	size_t start, end, name, name_end;
} Def;

/* Finds the top-level function definitions by scanning statements at
 * brace depth 0: a statement is a definition when it has an .entry or
 * .func word before its first '{' (declarations end in ';' instead). */
static Def *find_defs(const char *t, size_t n, size_t *ndefs)
{
	Def *defs = NULL;
	size_t nd = 0, cap = 0;
	size_t i = skip_space(t, n, 0);
	while (i < n) {
		size_t start = i, kw = (size_t)-1;
		int depth = 0;
		/* walk to the end of this top-level statement */
		while (i < n) {
			i = skip_space(t, n, i);
			if (i >= n)
				break;
			char c = t[i];
			if (c == '"') {
				for (i++; i < n && t[i] != '"' && t[i] != '\n'; i++)
					if (t[i] == '\\')
						i++;
				i++;
				continue;
			}
			if (is_word(c)) {
				size_t w = i;
				while (i < n && is_word(t[i]))
					i++;
				if (depth == 0 && kw == (size_t)-1 &&
				    ((i - w == 6 && memcmp(t + w, ".entry", 6) == 0) ||
				     (i - w == 5 && memcmp(t + w, ".func", 5) == 0)))
					kw = i;
				continue;
			}
			i++;
			if (c == '{')
				depth++;
			else if (c == '}' && depth > 0 && --depth == 0)
				break;
			else if (c == ';' && depth == 0)
				break;
		}
		if (kw != (size_t)-1 && i > 0 && t[i - 1] == '}') {
			/* name: skip (rets), .words and .attribute(...) after the keyword */
			size_t j = kw;
			for (;;) {
				j = skip_space(t, n, j);
				if (j < n && t[j] == '(') {
					int d = 0;
					for (; j < n; j++) {
						if (t[j] == '(')
							d++;
						else if (t[j] == ')' && --d == 0) {
							j++;
							break;
						}
					}
				} else if (j < n && t[j] == '.') {
					while (j < n && is_word(t[j]))
						j++;
				} else {
					break;
				}
			}
			size_t ne = j;
			while (ne < n && is_word(t[ne]))
				ne++;
			if (ne > j) {
				if (nd == cap) {
					cap = cap ? cap * 2 : 64;
					defs = xreallocarray(defs, cap, sizeof *defs);
				}
				defs[nd++] = (Def){start, i, j, ne};
			}
		}
		i = skip_space(t, n, i);
	}
	*ndefs = nd;
	return defs;
}

static char *synthesize(const char *t, size_t n, int k, size_t *len, size_t *nfuncs)
{
	size_t nd;
	Def *defs = find_defs(t, n, &nd);
	Buf b = {0};
	buf_add(&b, t, n);
	for (int copy = 1; copy < k; copy++) {
		char suffix[32];
		int sl = snprintf(suffix, sizeof suffix, "_bk%d", copy);
		for (size_t d = 0; d < nd; d++) {
			buf_add(&b, "\n", 1);
			buf_add(&b, t + defs[d].start, defs[d].name_end - defs[d].start);
			buf_add(&b, suffix, (size_t)sl);
			buf_add(&b, t + defs[d].name_end, defs[d].end - defs[d].name_end);
		}
	}
	buf_add(&b, "\n", 1);
	free(defs);
	*len = b.n;
	*nfuncs = nd;
	return b.p;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct Result {
	int ok;
	size_t size, nfuncs;
	double parse_s, print_s;
	size_t arena, interned, ninterned;
} Result;

static Result measure(const char *path, int k)
{
	Result r = {0};
	size_t n;
	char *orig = read_file(path, &n);
	char *text = synthesize(orig, n, k, &r.size, &r.nfuncs);
	free(orig);
	/* Parse the way the CLI does (ptx_parse_file, streamed by the scanner)
	 * from a temporary copy, so the peak RSS holds no copy of the text. */
	const char *tmpdir = getenv("TMPDIR");
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s/ptxlink-bench-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	int fd = mkstemp(tmp);
	FILE *tf = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!tf || fwrite(text, 1, r.size, tf) != r.size || fclose(tf) != 0) {
		fprintf(stderr, "ptxlink-bench: cannot write %s: %s\n", tmp, strerror(errno));
		unlink(tmp);
		return r;
	}
	free(text);

	FILE *out = fopen("/dev/null", "w");
	static char obuf[1 << 20];
	if (!out || setvbuf(out, obuf, _IOFBF, sizeof obuf) != 0) {
		perror("ptxlink-bench: /dev/null");
		return r;
	}
	r.parse_s = r.print_s = 1e30;
	double total = 0;
	for (int rep = 0; rep < 9 && (rep == 0 || total < 0.5); rep++) {
		double t0 = now();
		Module *m = ptx_parse_file(tmp);
		double t1 = now();
		if (!m) {
			fprintf(stderr, "ptxlink-bench: %s x%d does not parse\n", path, k);
			unlink(tmp);
			return r;
		}
		print_module(out, m);
		fflush(out);
		double t2 = now();
		if (t1 - t0 < r.parse_s)
			r.parse_s = t1 - t0;
		if (t2 - t1 < r.print_s)
			r.print_s = t2 - t1;
		total += t2 - t0;
		r.arena = arena_bytes(m->arena);
		mod_free(m);
	}
	intern_stats(&r.ninterned, &r.interned);
	fclose(out);
	unlink(tmp);
	r.ok = 1;
	return r;
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fprintf(argc < 2 ? stderr : stdout, "usage: ptxlink-bench FILE [REPEAT...]  (default repeats: 1 8 64)\n");
		return argc < 2 ? 2 : 0;
	}
	ctx_enter(ctx_new());   /* one context: the interned names it measures */
	int defaults[] = {1, 8, 64};
	int nk = argc > 2 ? argc - 2 : 3;
	int *ks = xcalloc((size_t)nk, sizeof *ks);
	for (int i = 0; i < nk; i++) {
		ks[i] = argc > 2 ? atoi(argv[i + 2]) : defaults[i];
		if (ks[i] < 1) {
			fprintf(stderr, "ptxlink-bench: bad repeat factor '%s'\n", argv[i + 2]);
			return 2;
		}
	}
	printf("input: %s\n\n", argv[1]);
	printf("| k | size MB | functions | parse s | print s | parse+print MB/s | peak RSS MB | RSS/input | arena MB | interned MB |\n");
	printf("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	fflush(stdout);
	int status = 0;
	for (int i = 0; i < nk; i++) {
		int fd[2];
		if (pipe(fd) != 0) {
			perror("ptxlink-bench: pipe");
			return 1;
		}
		pid_t pid = fork();
		if (pid < 0) {
			perror("ptxlink-bench: fork");
			return 1;
		}
		if (pid == 0) {
			close(fd[0]);
			Result r = measure(argv[1], ks[i]);
			ssize_t w = write(fd[1], &r, sizeof r);
			_exit(w == (ssize_t)sizeof r && r.ok ? 0 : 1);
		}
		close(fd[1]);
		Result r = {0};
		ssize_t got = read(fd[0], &r, sizeof r);
		close(fd[0]);
		int st;
		struct rusage ru;
		if (wait4(pid, &st, 0, &ru) < 0) {
			perror("ptxlink-bench: wait4");
			return 1;
		}
		if (got != (ssize_t)sizeof r || !r.ok || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			printf("| %d | failed | | | | | | | | |\n", ks[i]);
			status = 1;
			continue;
		}
		double mb = r.size / 1e6;
		double rss = ru.ru_maxrss * 1024.0 / 1e6;  /* ru_maxrss is in KiB */
		printf("| %d | %.2f | %zu | %.3f | %.3f | %.1f | %.1f | %.2f | %.1f | %.1f |\n",
			ks[i], mb, r.nfuncs * (size_t)ks[i], r.parse_s, r.print_s,
			mb / (r.parse_s + r.print_s), rss, rss / mb, r.arena / 1e6, r.interned / 1e6);
		fflush(stdout);
	}
	free(ks);
	return status;
}
