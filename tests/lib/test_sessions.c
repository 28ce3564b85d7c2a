/* What holds across sessions (ptxlink.h): sessions on several threads at
 * once give the bytes and the diagnostics each gives alone, every
 * diagnostic to its own callback; memory is what the live sessions hold;
 * more input names than a session can number are an error, not an abort.
 * Called from test_lib.c's main, in one process (CK_FORK=no). */
#include <check.h>
#include <dirent.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptxlink.h"

TCase *sessions_tcase(const char *corpus_dir);

static const char *corpus;

/* A corpus program: its files, sorted; "broken" adds an input that does
 * not parse, so that the link fails with errors. */
typedef struct Program {
	const char *dir;
	int broken;
	char **files;
	int nfiles;
} Program;

static Program programs[] = {
	{.dir = "vcall_xfile"}, {.dir = "raytrace"}, {.dir = "mono_iface"}, {.dir = "fnptr"},
	{.dir = "globalopt"}, {.dir = "clang_multi"}, {.dir = "globals", .broken = 1},
};
enum { NPROG = sizeof programs / sizeof *programs, ROUNDS = 8 };

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Listed before any thread starts: readdir and the like are the main
 * thread's. */
static void list_files(Program *p)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/ptx/%s", corpus, p->dir);
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s", dir);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 4, ".ptx"))
			continue;
		p->files = realloc(p->files, (size_t)(p->nfiles + 1) * sizeof *p->files);
		p->files[p->nfiles] = malloc(strlen(dir) + n + 2);
		sprintf(p->files[p->nfiles++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	ck_assert_int_gt(p->nfiles, 1);
	qsort(p->files, (size_t)p->nfiles, sizeof *p->files, by_name);
}

/* One link's result: the output (NULL if it failed), every diagnostic a
 * line, the session's error count, and how many diagnostics named a file
 * not of this program (another session's, delivered here). */
typedef struct Result {
	const Program *p;
	char *out, *diags;
	size_t ndiags;
	FILE *log;
	int errors, strays;
} Result;

static void collect(void *user, ptxlink_severity sev, const char *file, unsigned line,
	unsigned col, const char *msg)
{
	Result *r = user;
	char dir[256];
	snprintf(dir, sizeof dir, "/ptx/%s/", r->p->dir);
	if (file && !strstr(file, dir))
		r->strays++;
	fprintf(r->log, "%s:%u:%u: %d: %s\n", file ? file : "-", line, col, (int)sev, msg);
}

static const char broken[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k()\n{\n\tadd.u32 %r1, ;\n}\n";

/* Links p in a session of its own, with remarks and statistics on so
 * that there are diagnostics to compare.  No ck_assert: it runs on other
 * threads, where a failure is recorded in the result instead. */
static Result link_program(const Program *p)
{
	Result r = {.p = p};
	r.log = open_memstream(&r.diags, &r.ndiags);
	ptxlink_options o;
	ptxlink_options_init(&o);
	o.diag = collect;
	o.diag_user = &r;
	o.remarks = PTXLINK_REMARK_DEVIRT | PTXLINK_REMARK_GLOBALOPT | PTXLINK_REMARK_DEPOT |
		PTXLINK_REMARK_ADDRPREP;
	o.stats = 1;
	ptxlink_session *s = ptxlink_new(&o);
	for (int i = 0; s && i < p->nfiles; i++)
		ptxlink_add_file(s, p->files[i]);
	if (s && p->broken) {
		char name[4096];
		snprintf(name, sizeof name, "%s/ptx/%s/broken.ptx", corpus, p->dir);
		ptxlink_add_buffer(s, name, broken, strlen(broken));
	}
	if (s && ptxlink_link(s) == 0)
		r.out = ptxlink_write_buffer(s, NULL);
	r.errors = s ? ptxlink_errors(s) : -1;
	ptxlink_free(s);
	fclose(r.log);
	r.log = NULL;
	return r;
}

static void result_free(Result *r)
{
	free(r->out);
	free(r->diags);
}

static int same(const Result *a, const Result *b)
{
	return a->errors == b->errors && !strcmp(a->diags, b->diags) &&
		(a->out && b->out ? !strcmp(a->out, b->out) : a->out == b->out);
}

typedef struct Worker {
	const Program *p;
	const Result *alone;
	pthread_barrier_t *start;
	int differ, strays;
} Worker;

static void *work(void *arg)
{
	Worker *w = arg;
	pthread_barrier_wait(w->start);
	for (int i = 0; i < ROUNDS; i++) {
		Result r = link_program(w->p);
		w->differ += !same(&r, w->alone);
		w->strays += r.strays;
		result_free(&r);
	}
	return NULL;
}

/* Every program on a thread of its own, all at once, ROUNDS times each:
 * the same bytes, diagnostics and error counts as each linked alone, and
 * no diagnostic at another session's callback. */
START_TEST(threads)
{
	Result alone[NPROG];
	for (int i = 0; i < NPROG; i++) {
		if (!programs[i].nfiles)
			list_files(&programs[i]);
		alone[i] = link_program(&programs[i]);
		ck_assert_int_eq(alone[i].strays, 0);
		ck_assert_msg(programs[i].broken ? !alone[i].out && alone[i].errors == 1
			: alone[i].out && alone[i].errors == 0, "%s alone: %d errors:\n%s",
			programs[i].dir, alone[i].errors, alone[i].diags);
		ck_assert_msg(alone[i].ndiags > 0, "%s: no diagnostics to compare", programs[i].dir);
	}
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, NPROG);
	pthread_t tid[NPROG];
	Worker w[NPROG];
	for (int i = 0; i < NPROG; i++) {
		w[i] = (Worker){.p = &programs[i], .alone = &alone[i], .start = &start};
		ck_assert_int_eq(pthread_create(&tid[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < NPROG; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&start);
	for (int i = 0; i < NPROG; i++) {
		ck_assert_msg(w[i].differ == 0, "%s: %d of %d links differ from the link alone",
			programs[i].dir, w[i].differ, ROUNDS);
		ck_assert_msg(w[i].strays == 0, "%s: %d diagnostics of other sessions",
			programs[i].dir, w[i].strays);
		result_free(&alone[i]);
	}
}
END_TEST

/* Heap bytes in use, from the sanitizer's allocator when there is one
 * (mallinfo2 then knows nothing). */
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

static size_t heap_in_use(void)
{
	if (__sanitizer_get_current_allocated_bytes)
		return __sanitizer_get_current_allocated_bytes();
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

static void quiet(void *user, ptxlink_severity sev, const char *file, unsigned line,
	unsigned col, const char *msg)
{
	if (sev == PTXLINK_ERROR)
		++*(int *)user;
}

/* A module of n functions named prefix_function<i>. */
static char *fresh_module(const char *prefix, int n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, ".version 8.0\n.target sm_80\n.address_size 64\n");
	for (int i = 0; i < n; i++)
		fprintf(f, ".visible .func %s_function%d()\n{\n\tret;\n}\n", prefix, i);
	fclose(f);
	return text;
}

static int link_fresh(int round, ptxlink_diag_fn *diag, int *errors)
{
	ptxlink_options o;
	ptxlink_options_init(&o);
	o.diag = diag;
	o.diag_user = errors;
	ptxlink_session *s = ptxlink_new(&o);
	char prefix[32], name[64];
	snprintf(prefix, sizeof prefix, "round%d", round);   /* names no other round uses */
	snprintf(name, sizeof name, "%s.ptx", prefix);
	char *text = fresh_module(prefix, 1000);
	int rc = ptxlink_add_buffer(s, name, text, strlen(text)) || ptxlink_link(s);
	char *out = rc ? NULL : ptxlink_write_buffer(s, NULL);
	rc = rc || !out || !strstr(out, "round");
	free(out);
	free(text);
	ptxlink_free(s);
	return rc;
}

/* Sessions one after another, each with names no other has, while one
 * session stays open: the heap does not grow with the rounds (the open
 * session once kept every name of every session), and the open session's
 * names are intact at the end. */
START_TEST(memory_bounded)
{
	int errors = 0;
	ptxlink_options o;
	ptxlink_options_init(&o);
	o.diag = quiet;
	o.diag_user = &errors;
	ptxlink_session *kept = ptxlink_new(&o);
	char *text = fresh_module("kept", 10);
	ck_assert_int_eq(ptxlink_add_buffer(kept, "kept.ptx", text, strlen(text)), 0);
	free(text);
	size_t warm = 0;
	for (int round = 0; round < 24; round++) {
		ck_assert_int_eq(link_fresh(round, quiet, &errors), 0);
		if (round == 4)
			warm = heap_in_use();
	}
	size_t end = heap_in_use();
	ck_assert_msg(end < warm + 256 * 1024, "the heap grew by %zu bytes over 19 sessions",
		end - warm);
	ck_assert_int_eq(ptxlink_link(kept), 0);
	char *out = ptxlink_write_buffer(kept, NULL);
	ck_assert_ptr_nonnull(strstr(out, "kept_function9"));
	free(out);
	ptxlink_free(kept);
	ck_assert_int_eq(errors, 0);
}
END_TEST

/* A Loc numbers 65,535 file names: the ones past that are refused, each
 * with an error through the callback naming it, and the process goes on
 * (it aborted, as an archive of 66,000 members did).  The inputs are
 * empty, so each is one quick error and nothing is kept: the names are
 * what counts. */
typedef struct Tally {
	int errors, refused;
	char first[256];
} Tally;

static void tally(void *user, ptxlink_severity sev, const char *file, unsigned line,
	unsigned col, const char *msg)
{
	Tally *t = user;
	t->errors += sev == PTXLINK_ERROR;
	if (sev == PTXLINK_ERROR && strstr(msg, "too many input files") && !t->refused++)
		snprintf(t->first, sizeof t->first, "%s:%u: %s", file ? file : "-", line, msg);
}

START_TEST(too_many_names)
{
	Tally t = {0};
	ptxlink_options o;
	ptxlink_options_init(&o);
	o.diag = tally;
	o.diag_user = &t;
	ptxlink_session *s = ptxlink_new(&o);
	for (int i = 0; i < 65536 + 9; i++) {
		char name[32];
		snprintf(name, sizeof name, "m%d.ptx", i);
		ck_assert_int_eq(ptxlink_add_buffer(s, name, "", 0), -1);
	}
	ck_assert_int_eq(t.refused, 10);
	ck_assert_int_eq(t.errors, 65536 + 9);   /* the others: no .version */
	ck_assert_str_eq(t.first, "m65535.ptx:0: too many input files: at most 65535 names, "
		"inputs and library members, in one link");
	ck_assert_int_eq(ptxlink_add_buffer(s, "m0.ptx", "", 0), -1);   /* a name it knows */
	ck_assert_int_eq(t.refused, 10);
	ck_assert_int_eq(ptxlink_link(s), -1);
	ck_assert_int_eq(ptxlink_errors(s), 65536 + 10);
	ptxlink_free(s);
}
END_TEST

TCase *sessions_tcase(const char *corpus_dir)
{
	corpus = corpus_dir;
	TCase *tc = tcase_create("sessions");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, threads);
	tcase_add_test(tc, memory_bounded);
	tcase_add_test(tc, too_many_names);
	return tc;
}
