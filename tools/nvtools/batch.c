/* Many compiles with figures at once (nvtools.h), for --tune: up to
 * jobs of them run together, each in a worker process of its own that
 * runs nv_compile and leaves what ptxas said beside the cubin
 * (NAME.cubin.said) and what the tools printed in NAME.cubin.log; the
 * parent reads the figures when it reaps it.
 *
 * A result is kept by content in the cache directory: KEY.cubin and
 * KEY.said, KEY a 128-bit hash of the PTX's bytes, the tools' identity
 * (path, size, modification time: a new CUDA is a new key), the
 * architecture, the mode and ptxas's options.  A compile with archives of objects for nvlink is
 * not cached (their bytes are not in the key), nor a failed one.  The
 * cache is a convenience: a directory that cannot be made or written
 * means no caching, never an error.  Two compiles of one batch with one
 * key run once. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "nvtools.h"
#include "tools/obj/obj.h"

enum { KEY_CHARS = 33 };

/* FNV-1a, two streams apart (offset bases differ): 128 bits. */
static void hash_bytes(uint64_t h[2], const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h[0] = (h[0] ^ b[i]) * 0x100000001b3ull;
		h[1] = (h[1] ^ b[i]) * 0x100000001b3ull;
	}
}

static void hash_str(uint64_t h[2], const char *s)
{
	hash_bytes(h, s, strlen(s) + 1);
}

/* A tool's identity: where it is, its size and when it was written. */
static void hash_tool(uint64_t h[2], const char *tool)
{
	char *exe = nv_find(tool);
	struct stat st;
	if (exe && stat(exe, &st) == 0) {
		hash_str(h, exe);
		hash_bytes(h, &st.st_size, sizeof st.st_size);
		hash_bytes(h, &st.st_mtime, sizeof st.st_mtime);
	}
	free(exe);
}

/* c's key into key (KEY_CHARS); 0, or -1 when its PTX cannot be read. */
static int compile_key(const NvRun *r, const NvCompile *c, char *key)
{
	uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
	char *path = nv_path(r->dir, c->ptx);
	size_t n;
	unsigned char *ptx = obj_slurp(path, &n);
	free(path);
	if (!ptx)
		return -1;
	hash_bytes(h, ptx, n);
	free(ptx);
	hash_tool(h, "ptxas");
	if (c->reloc)
		hash_tool(h, "nvlink");
	hash_str(h, c->arch);
	hash_bytes(h, &c->reloc, sizeof c->reloc);
	hash_bytes(h, &c->devrt, sizeof c->devrt);
	for (int i = 0; i < c->nopts; i++)   /* in order, -v too: the cubin's notes hold them */
		hash_str(h, c->opts[i]);
	snprintf(key, KEY_CHARS, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
	return 0;
}

/* from to to, whole; 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	size_t n;
	unsigned char *d = obj_slurp(from, &n);
	FILE *f = d ? fopen(to, "wb") : NULL;
	int bad = !f || fwrite(d, 1, n, f) != n;
	if (f)
		bad |= fclose(f) != 0;
	free(d);
	return bad ? -1 : 0;
}

/* The figures of b's compile from its cubin and NAME.cubin.said (rc: how
 * the compile ended). */
static void take_figures(const NvRun *r, NvBatch *b, int rc)
{
	char *said = nv_path_ext(r->dir, b->c.cubin, ".said");
	size_t n;
	unsigned char *text = obj_slurp(said, &n);
	b->f = (NvFigures){.said = xmalloc(n + 1)};
	memcpy(b->f.said, text ? (char *)text : "", text ? n : 0);
	b->f.said[text ? n : 0] = 0;
	free(text);
	free(said);
	nv_figures_read(r, &b->c, text ? rc : -1, &b->f);
}

/* From the cache: KEY.said and KEY.cubin copied in as b's; 0 on a hit. */
static int cache_get(const NvRun *r, NvBatch *b, const char *cache, const char *key)
{
	char *from = nv_path_ext(cache, key, ".said"), *to = nv_path_ext(r->dir, b->c.cubin, ".said");
	int rc = copy_file(from, to);
	free(from);
	free(to);
	from = nv_path_ext(cache, key, ".cubin");
	to = nv_path(r->dir, b->c.cubin);
	rc = rc == 0 ? copy_file(from, to) : -1;
	free(from);
	free(to);
	return rc;
}

/* One file into the cache, by a temporary renamed into place: a reader
 * sees all of it or none. */
static void cache_put1(const char *from, const char *cache, const char *key, const char *ext)
{
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", ext, (long)getpid());
	char *t = nv_path_ext(cache, key, tmp), *to = nv_path_ext(cache, key, ext);
	if (copy_file(from, t) != 0 || rename(t, to) != 0)
		unlink(t);
	free(t);
	free(to);
}

static void cache_put(const NvRun *r, const NvBatch *b, const char *cache, const char *key)
{
	char *said = nv_path_ext(r->dir, b->c.cubin, ".said"), *cubin = nv_path(r->dir, b->c.cubin);
	cache_put1(said, cache, key, ".said");   /* first: a hit needs both */
	cache_put1(cubin, cache, key, ".cubin");
	free(said);
	free(cubin);
}

/* The worker: the compile, what ptxas said beside the cubin, what the
 * tools printed (nvlink's warnings) in NAME.cubin.log. */
static _Noreturn void work(const NvRun *r, const NvCompile *c)
{
	char *log = nv_path_ext(r->dir, c->cubin, ".log");
	FILE *l = fopen(log, "w");
	if (l) {
		dup2(fileno(l), 2);
		fclose(l);
	}
	free(log);
	NvRun quiet = *r;
	quiet.verbose = 0;
	quiet.timed = NULL;
	NvFigures f;
	int rc = nv_compile(&quiet, c, &f);
	char *said = nv_path_ext(r->dir, c->cubin, ".said");
	FILE *out = fopen(said, "w");
	if (out) {
		fputs(f.said ? f.said : "", out);
		rc |= fclose(out);
	}
	_exit(rc == 0 && out ? 0 : 1);
}

/* A worker for b in slot s of workers (its pid there before a signal
 * can come).  The worker forgets the others: a signal ending it ends its
 * own tool, and the parent ends the rest. */
static pid_t start_worker(const NvRun *r, const NvBatch *b, volatile pid_t *workers, int jobs, int s)
{
	sigset_t old;
	pid_t pid = nv_fork(&old);
	if (pid == 0) {
		for (int i = 0; i < jobs; i++)
			workers[i] = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		work(r, &b->c);
	}
	workers[s] = pid > 0 ? pid : 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

void nv_stop_workers(volatile pid_t *workers, int jobs)
{
	for (int i = 0; i < jobs; i++) {
		pid_t pid = workers[i];
		if (pid > 0) {
			kill(pid, SIGTERM);   /* its handler ends its ptxas */
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			workers[i] = 0;
		}
	}
}

/* Reaps one worker: its batch entry's figures and time. */
static void reap(const NvRun *r, NvBatch *v, const int *slot_of, volatile pid_t *workers,
	int jobs, const double *started)
{
	int status;
	pid_t pid;
	while ((pid = wait(&status)) < 0 && errno == EINTR)
		;
	for (int s = 0; pid > 0 && s < jobs; s++)
		if (workers[s] == pid) {
			NvBatch *b = &v[slot_of[s]];
			workers[s] = 0;
			b->ms = (nv_seconds() - started[s]) * 1e3;
			take_figures(r, b, WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1);
		}
}

/* The compiles still to run (todo), jobs at a time. */
static void run_all(const NvRun *r, NvBatch *v, const int *todo, int n, int jobs,
	volatile pid_t *workers)
{
	int slot_of[NV_MAX_JOBS];
	double started[NV_MAX_JOBS];
	int active = 0;
	for (int next = 0; next < n || active;) {
		int s = 0;
		while (s < jobs && workers[s])
			s++;
		if (next < n && s < jobs) {
			slot_of[s] = todo[next];
			started[s] = nv_seconds();
			if (start_worker(r, &v[todo[next]], workers, jobs, s) < 0)
				take_figures(r, &v[todo[next]], -1);
			else
				active++;
			next++;
			continue;
		}
		reap(r, v, slot_of, workers, jobs, started);
		active--;
	}
}

/* dir and the directories above it; 0 when it is one at the end. */
static int make_dirs(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(p, 0777);
		*s = '/';
	}
	mkdir(p, 0777);
	struct stat st;
	int ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode) && access(p, W_OK) == 0;
	free(p);
	return ok ? 0 : -1;
}

void nv_compile_batch(const NvRun *r, NvBatch *v, int n, int jobs, const char *cache,
	volatile pid_t *workers)
{
	if (cache && (!*cache || make_dirs(cache) != 0))
		cache = NULL;
	char (*keys)[KEY_CHARS] = xmalloc((size_t)n * sizeof *keys + 1);
	int *todo = xmalloc((size_t)n * sizeof *todo + 1), *same = xmalloc((size_t)n * sizeof *same + 1);
	int ntodo = 0;
	jobs = jobs < 1 ? 1 : jobs > NV_MAX_JOBS ? NV_MAX_JOBS : jobs;
	for (int i = 0; i < n; i++) {
		v[i].cached = 0, v[i].ms = 0, same[i] = -1;
		if (compile_key(r, &v[i].c, keys[i]) != 0)
			keys[i][0] = 0;
		for (int j = 0; j < i && keys[i][0]; j++)
			if (!strcmp(keys[i], keys[j]))
				same[i] = same[i] < 0 ? j : same[i];
		int cacheable = cache && keys[i][0] && !v[i].c.nobjects;
		if (same[i] < 0 && cacheable && cache_get(r, &v[i], cache, keys[i]) == 0) {
			v[i].cached = 1;
			take_figures(r, &v[i], 0);
		} else if (same[i] < 0) {
			todo[ntodo++] = i;
		}
	}
	run_all(r, v, todo, ntodo, jobs, workers);
	for (int k = 0; k < ntodo; k++) {
		NvBatch *b = &v[todo[k]];
		if (cache && keys[todo[k]][0] && !b->c.nobjects && b->f.spill >= 0)
			cache_put(r, b, cache, keys[todo[k]]);
	}
	for (int i = 0; i < n; i++)
		if (same[i] >= 0) {
			char *from = nv_path(r->dir, v[same[i]].c.cubin), *to = nv_path(r->dir, v[i].c.cubin);
			char *fs = nv_path_ext(r->dir, v[same[i]].c.cubin, ".said");
			char *ts = nv_path_ext(r->dir, v[i].c.cubin, ".said");
			int ok = copy_file(from, to) == 0 && copy_file(fs, ts) == 0;
			v[i].cached = 1;
			take_figures(r, &v[i], ok && v[same[i]].f.spill >= 0 ? 0 : -1);
			free(from), free(to), free(fs), free(ts);
		}
	free(keys);
	free(todo);
	free(same);
}
