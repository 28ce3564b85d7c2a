/* libptxlink: the ptxlink command's work (parse, normalize, link, stages,
 * print) behind the opaque session of ptxlink.h.  It sits above every
 * layer (grammar, link, stages), as the command does, so it lives beside
 * the command in tools/ rather than in a layer. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "ptx-grammar/ptx.h"
#include "link/link.h"
#include "stages/stages.h"
#include "ptxlink.h"
#include "core.h"
#include "tools/obj/obj.h"

_Static_assert((int)PTXLINK_ADDRPREP_NARROW == (int)ADDRPREP_NARROW &&
	(int)PTXLINK_ADDRPREP_WIDEN == (int)ADDRPREP_WIDEN && (int)PTXLINK_ADDRPREP_FOLD == (int)ADDRPREP_FOLD &&
	(int)PTXLINK_ADDRPREP_SINK == (int)ADDRPREP_SINK,
	"the public bits are the stage's");
/* the header promises 0 is the command's default, auto */
_Static_assert((int)PTXLINK_INLINE_NEVER == (int)INLINE_NEVER &&
	(int)PTXLINK_INLINE_AUTO == (int)INLINE_AUTO && (int)PTXLINK_INLINE_ALWAYS == (int)INLINE_ALWAYS &&
	(int)INLINE_MODE_DEFAULT == (int)PTXLINK_INLINE_AUTO,
	"the public modes are the stage's, and 0 is auto");

struct ptxlink_session {
	ptxlink_diag_fn *diag;
	void *user;
	int verify, no_stages;
	char *arch;           /* the caller's string may not outlive ptxlink_new */
	LinkOptions link;
	StageOptions stages;
	Module **inputs;
	int ninputs, cap;
	int bad_input;        /* an input did not parse: the link fails */
	int linked;           /* ptxlink_link ran (it consumes the inputs) */
	Module *result;
	int errors, errors0;  /* this session's errors; diag_errors() at entry */
	Ctx *ctx;             /* its names, spellings and diagnostics' state */
	int own_ctx;          /* ctx is the session's, freed with it (not the command's) */
	Ctx *before;          /* the thread's context when the running call entered */
	int given;            /* inputs given, libraries named NAME.a too */
	LibSearch libs;       /* -L, -l, and the NAME.a inputs (archives, owned) */
	LibObjects objects;   /* archives of objects found, when the command takes them */
	void (*phase_done)(void *user, const char *phase);
	int (*keep_match)(void *user, const char *name);   /* session_keep_matching's */
	void *keep_user;
	uint32_t keep_cap;
};

static void stage_done(void *ctx, const char *name)
{
	ptxlink_session *s = ctx;
	s->phase_done(s->user, name);
}

/* ---- diagnostics ------------------------------------------------------ */

/* DiagKind and ptxlink_severity list the same kinds in the same order. */
static void forward(void *ctx, DiagKind kind, const char *file, unsigned line, unsigned col,
	const char *msg)
{
	ptxlink_session *s = ctx;
	s->diag(s->user, (ptxlink_severity)kind, file, line, col, msg);
}

/* Every entry point runs between enter and leave, in the session's
 * context: the session's callback gets what ir/diag.c reports meanwhile,
 * and its errors are counted.  The thread's context before is restored,
 * so a callback may call another session. */
static void enter(ptxlink_session *s)
{
	s->before = ctx_enter(s->ctx);
	diag_set_handler(s->diag ? forward : NULL, s);
	s->errors0 = diag_errors();
}

static int leave(ptxlink_session *s, int rc)
{
	s->errors += diag_errors() - s->errors0;
	diag_set_handler(NULL, NULL);
	ctx_enter(s->before);
	return rc;
}

/* A misuse of the API or a wrong option: an error without a file. */
static int fail(const char *msg)
{
	diag_at(DIAG_ERROR, NULL, 0, 0, "%s", msg);
	return -1;
}

/* ---- options ---------------------------------------------------------- */

const char *ptxlink_version(void)
{
	return PTXLINK_VERSION;
}

const char *ptxlink_stage_name(size_t i)
{
	return stage_name(i);
}

static int known_stage(const char *name)
{
	const char *s;
	for (size_t i = 0; (s = stage_name(i)); i++)
		if (!strcmp(s, name))
			return 1;
	return 0;
}

/* The names a session keeps, interned (they live as long as it does):
 * the caller's strings may go once ptxlink_new returns. */
static const char *const *copy_names(const char *const *names, size_t n)
{
	if (!n)
		return NULL;
	const char **v = xmalloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = intern_cstr(names[i]);
	return v;
}

/* The stages below the level are off (ptxlink.h, opt_level). */
static void opt_level(StageOptions *st, int level)
{
	if (level < 3)
		st->depot.off = st->addrprep.off = 1, st->locals.on = 0, st->fold.off = 1,
		st->dce.off = 1;
	if (level < 2) {
		st->devirt.off = 1;
		st->inlining.mode = PTXLINK_INLINE_NEVER;
		st->ipo.on = 0;
		st->reroll.on = 0;
		st->unrecurse.on = 0;
	}
	if (level < 1)
		st->globalopt.off = 1;
}

/* The options in the stages' own terms: each row that names a
 * StageOptions field (FS in opttab.h) is copied by opt_stage; what is
 * more than one value into one field is here. */
static void stage_options(StageOptions *st, const ptxlink_options *o)
{
	for (const OptRow *r = opt_rows; r < opt_rows + NOPT; r++)
		if (r->stage_size)
			opt_stage(r, o, st);
	st->depot.remarks |= st->depot.analysis;   /* -Rpass-analysis=depot says why too */
	st->depot.warn = o->warn_stack_size >= 0;
	opt_level(st, o->opt_level);
}

static int check_options(const ptxlink_options *o)
{
	if (o->print_after && !known_stage(o->print_after))
		return fail("print_after names no stage (see ptxlink_stage_name)");
	if (o->devirt_funnel_max < 0)
		return fail("devirt_funnel_max must not be negative");
	if (o->inline_mode < 0 || o->inline_mode > PTXLINK_INLINE_ALWAYS)
		return fail("inline_mode is not a PTXLINK_INLINE_* mode");
	if (o->inline_threshold < 0)
		return fail("inline_threshold must not be negative");
	if (o->inline_growth < 0)
		return fail("inline_growth must not be negative");
	if (o->opt_level < 0 || o->opt_level > 3)
		return fail("opt_level is not 0, 1, 2 or 3");
	if (o->nkeep && !o->keep)
		return fail("nkeep names but keep is NULL");
	if ((o->nlibdirs && !o->libdirs) || (o->nlibs && !o->libs))
		return fail("nlibdirs or nlibs names but the array is NULL");
	/* the lists are counted: a NULL among the first n is a mistake
	 * (a terminator counted in), never a name */
	for (size_t i = 0; i < o->nkeep; i++)
		if (!o->keep[i])
			return fail("keep holds a NULL name (the list is counted by nkeep)");
	for (size_t i = 0; i < o->nlibdirs; i++)
		if (!o->libdirs[i] || !o->libdirs[i][0])
			return fail("libdirs holds an empty name (not the root directory)");
	for (size_t i = 0; i < o->nlibs; i++)
		if (!o->libs[i] || !o->libs[i][0])
			return fail("libs holds an empty name (the list is counted by nlibs)");
	return 0;
}

ptxlink_session *session_new(const ptxlink_options *o, Ctx *ctx)
{
	ptxlink_options dflt;
	if (!o) {
		ptxlink_options_init(&dflt);
		o = &dflt;
	}
	ptxlink_session *s = xcalloc(1, sizeof *s);
	s->own_ctx = !ctx;
	s->ctx = ctx ? ctx : ctx_new();
	s->diag = o->diag;
	s->user = o->diag_user;
	enter(s);
	if (check_options(o) != 0) {
		leave(s, -1);
		ptxlink_free(s);
		return NULL;
	}
	if (o->nkeep && !o->internalize)
		diag_at(DIAG_WARNING, NULL, 0, 0, "--keep and --keep-file do nothing without "
			"--internalize (every name stays)");
	s->verify = o->verify;
	s->no_stages = o->no_stages;
	if (o->arch)
		s->arch = xstrdup(o->arch);
	s->link = (LinkOptions){.arch = s->arch, .allow_undefined = o->allow_undefined,
		.strip_debug = o->strip_debug, .verbose = o->verbose};
	stage_options(&s->stages, o);
	s->stages.globalopt.keep = (const char **)copy_names(o->keep, o->nkeep);
	s->stages.globalopt.nkeep = (uint32_t)o->nkeep;
	s->libs = (LibSearch){.dirs = copy_names(o->libdirs, o->nlibdirs), .ndirs = (int)o->nlibdirs,
		.libs = copy_names(o->libs, o->nlibs), .nlibs = (int)o->nlibs, .verbose = o->verbose};
	s->phase_done = o->phase_done;
	s->stages.stage_done = o->phase_done ? stage_done : NULL;
	s->stages.stage_ctx = s;
	leave(s, 0);
	return s;
}

ptxlink_session *ptxlink_new(const ptxlink_options *o)
{
	return session_new(o, NULL);
}

/* ---- inputs ----------------------------------------------------------- */

/* Keeps a parsed input (normalized, as every input is first) or notes
 * that one failed. */
static int add(ptxlink_session *s, Module *m, const char *name)
{
	if (m && !core_input(m, name, s->verify))
		m = NULL;   /* freed: normalizing it failed */
	if (!m) {
		s->bad_input = 1;
		return -1;
	}
	if (s->ninputs == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->inputs = xreallocarray(s->inputs, s->cap, sizeof *s->inputs);
	}
	s->inputs[s->ninputs++] = m;
	s->given++;
	return 0;
}

static int addable(ptxlink_session *s)
{
	if (s->linked)
		return fail("an input added after ptxlink_link");
	if (s->ninputs == INT_MAX)
		return fail("too many inputs");
	return 0;
}

/* A file when path is given, else len bytes of data. */
static Module *parse(const char *path, const char *name, const char *data, size_t len)
{
	const char *why = path ? obj_not_ptx_file(path) : NULL;
	if (why) {
		diag_at(DIAG_ERROR, path, 0, 0, "%s", why);
		return NULL;
	}
	if (path)
		return ptx_parse_file(path);
	if (!data && len) {
		fail("ptxlink_add_buffer: no data");
		return NULL;
	}
	if (len > INT_MAX) {  /* the scanner's limit, and the command's */
		diag_at(DIAG_ERROR, name, 0, 0, "input larger than 2 GiB: not a PTX file");
		return NULL;
	}
	return ptx_parse_string(name, data ? data : "", len);
}

static int add_input(ptxlink_session *s, const char *path, const char *name, const char *data,
	size_t len)
{
	if (!s)
		return -1;
	enter(s);
	if (addable(s) != 0)
		return leave(s, -1);
	return leave(s, add(s, parse(path, name, data, len), name));
}

/* An input named NAME.a is a library: its members come in at the link. */
static int add_archive(ptxlink_session *s, const char *path)
{
	if (!s)
		return -1;
	enter(s);
	if (addable(s) != 0)
		return leave(s, -1);
	const char **v = xreallocarray((void *)s->libs.archives, s->libs.narchives + 1, sizeof *v);
	v[s->libs.narchives] = xstrdup(path);
	s->libs.archives = v;
	s->libs.narchives++;
	s->given++;
	return leave(s, 0);
}

int ptxlink_add_file(ptxlink_session *s, const char *path)
{
	if (path && is_library_input(path))
		return add_archive(s, path);
	return add_input(s, path ? path : "", path, NULL, 0);  /* NULL: cannot open "" */
}

int ptxlink_add_buffer(ptxlink_session *s, const char *name, const char *data, size_t len)
{
	return add_input(s, NULL, name ? name : "<buffer>", data, len);
}

/* ---- link and stages -------------------------------------------------- */

/* The linked module's names that session_keep_matching's test takes are
 * kept, as --keep's are: a name's first statement adds it. */
static void keep_matched(ptxlink_session *s, const Module *m)
{
	GlobalOptOptions *g = &s->stages.globalopt;
	if (!s->keep_match)
		return;
	g->internalize = 1;
	s->keep_cap = g->nkeep;
	for (const Stmt *st = m->items.head; st; st = st->next) {
		const char *name = st->kind == S_FUNC ? st->func->name
			: st->kind == S_VAR && st->var.nds ? st->var.ds[0].name : NULL;
		if (!name || !s->keep_match(s->keep_user, name))
			continue;
		g->keep = array_grow((void *)g->keep, g->nkeep, &s->keep_cap, sizeof *g->keep);
		g->keep[g->nkeep++] = name;
	}
}

int ptxlink_link(ptxlink_session *s)
{
	if (!s)
		return -1;
	enter(s);
	if (s->linked)
		return leave(s, fail("ptxlink_link called twice"));
	s->linked = 1;
	if (s->bad_input)
		return leave(s, -1);  /* each failed input said why */
	if (s->libs.nlibs || s->libs.narchives || s->libs.verbose) {   /* -v: each input described */
		int rc = add_libraries(&s->libs, &s->inputs, &s->ninputs);
		s->cap = s->ninputs;  /* the array is the size it holds now */
		if (rc != 0)
			return leave(s, -1);
	}
	for (int i = 0; i < s->objects.n; i++)   /* names they define are nvlink's to resolve */
		if (!is_cudadevrt(s->objects.paths[i]))
			s->link.allow_undefined = 1;
	if (s->ninputs == 0)
		return leave(s, fail("no input files"));
	core_settle(&s->link, &s->stages, s->given, s->no_stages);
	Module *m = core_combine(s->inputs, s->ninputs, &s->link, s->verify);
	s->ninputs = 0;  /* consumed, linked or not */
	if (m)
		keep_matched(s, m);
	if (s->phase_done)
		s->phase_done(s->user, "link");
	if (m && !s->no_stages && run_pipeline(m, &s->stages) != 0) {
		mod_free(m);
		m = NULL;
	}
	s->result = m;
	return leave(s, m ? 0 : -1);
}

/* ---- output ----------------------------------------------------------- */

static int has_result(ptxlink_session *s)
{
	if (s->result)
		return 1;
	fail("no result to write: ptxlink_link has not succeeded");
	return 0;
}

int ptxlink_write(ptxlink_session *s, FILE *f)
{
	if (!s || !f) {
		errno = EINVAL;
		return -1;
	}
	enter(s);
	if (!has_result(s)) {
		errno = EINVAL;
		return leave(s, -1);
	}
	errno = 0;
	print_module(f, s->result);
	int bad = ferror(f) || fflush(f) != 0;
	if (bad && !errno)
		errno = EIO;
	return leave(s, bad ? -1 : 0);
}

char *ptxlink_write_buffer(ptxlink_session *s, size_t *len)
{
	if (!s)
		return NULL;
	enter(s);
	char *buf = NULL;
	size_t n = 0;
	FILE *f = has_result(s) ? open_memstream(&buf, &n) : NULL;
	if (f) {
		print_module(f, s->result);
		if (fclose(f) != 0) {
			free(buf);
			buf = NULL;
		}
	}
	if (len)
		*len = buf ? n : 0;
	leave(s, 0);
	return buf;
}

/* ---- the end ---------------------------------------------------------- */

int ptxlink_errors(const ptxlink_session *s)
{
	return s ? s->errors : 0;
}

/* Its context goes with it: every name, spelling and file name the
 * session's modules referred to. */
void ptxlink_free(ptxlink_session *s)
{
	if (!s)
		return;
	Ctx *before = ctx_enter(s->ctx);
	for (int i = 0; i < s->ninputs; i++)
		mod_free(s->inputs[i]);
	free(s->inputs);
	mod_free(s->result);
	free(s->arch);
	free((void *)s->stages.globalopt.keep);
	for (int i = 0; i < s->libs.narchives; i++)
		free((void *)s->libs.archives[i]);
	for (int i = 0; i < s->objects.n; i++)
		free(s->objects.paths[i]);
	free(s->objects.paths);
	free((void *)s->libs.archives);
	free((void *)s->libs.dirs);
	free((void *)s->libs.libs);
	ctx_enter(before);
	if (s->own_ctx)
		ctx_free(s->ctx);
	free(s);
}

void session_keep_matching(ptxlink_session *s, int (*match)(void *user, const char *name),
	void *user)
{
	s->keep_match = match;
	s->keep_user = user;
}

void session_take_objects(ptxlink_session *s)
{
	s->libs.objects = &s->objects;
}

const LibObjects *session_objects(const ptxlink_session *s)
{
	return &s->objects;
}

/* The command's --ptxas compiles the module itself (core.h). */
Module *session_result(const ptxlink_session *s)
{
	return s ? s->result : NULL;
}
