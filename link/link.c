/* link.c: merge PTX modules into one, following nvlink's rules.
 *
 * requires: parsed modules / produces: one module that owns its inputs
 *
 * link_modules runs four steps, one file each:
 * 1. headers.c: highest .version, one .target (or -arch), one .address_size;
 * 2. symbols.c: each module-scope name of each input becomes a Sym; names
 *    with linkage meet in one Global, where a strong (.visible, or an
 *    initialized .common) definition beats .weak ones, .common takes the
 *    largest, sizes must otherwise agree, and two strong ones are an error;
 *    `.alias a, b` defines a.  Internal names that collide are renamed
 *    (never a runtime function's, such as vprintf);
 * 3. rewrite.c: every reference is rewritten to the final names, .loc
 *    renumbered; -G inputs' DWARF is made true of the merged module (dwarf.c,
 *    and section offsets moved by where each input's part starts);
 * 4. output.c: items are emitted in input order, except that whatever an
 *    item uses is declared (functions) or defined (variables) before it;
 *    sections of one name become one, the inputs' parts in input order.
 * Between 3 and 4, names still undefined are reported (below).
 */
#include <stdlib.h>
#include <string.h>
#include "linker.h"

/* ---- unresolved names ---- */

/* libdevice comes as bitcode: neither ptxas nor nvlink resolves a call
 * to __nv_sinf ("Unresolved extern function"), so a program that uses one
 * needs libdevice's PTX as another input. */
static void warn_libdevice(Linker *l, Global *g)
{
	if (g->decl_sym->kind != K_FUNC || !g->used || strncmp(g->name, "__nv_", 5))
		return;
	Stmt *t = find_item(l->out, S_TARGET);
	const char *arch = t && t->list.nitems ? t->list.items[0]->str : "sm_XX";
	warn(g->first_use, "'%s' is a libdevice function that no input defines, and neither ptxas "
		"nor nvlink resolves it: add libdevice as PTX to the inputs (llc -march=nvptx64 "
		"-mcpu=%s $CUDA_HOME/nvvm/libdevice/libdevice.10.bc -o libdevice.ptx)", g->name, arch);
}

static void check_unresolved(Linker *l)
{
	int devrt = 0, unresolved = 0;
	for (Global *g = l->globals; g; g = g->hh.next) {
		if (g->def || !g->decl_sym || g->internal)
			continue;
		Sym *d = g->decl_sym;
		if (d->kind == K_VAR && decl_space(&g->decl->var) == SPACE_SHARED)
			continue;  /* dynamic shared memory is never defined */
		if (needs_cudadevrt(g->name))
			devrt = 1;
		if (l->o->allow_undefined || l->o->defer_undefined ||
		    (l->o->defined_later && l->o->defined_later(g->name)))
			continue;
		warn_libdevice(l, g);
		if (is_runtime_symbol(g->name))
			continue;
		if (d->kind == K_FUNC && !g->used)
			continue;  /* ptxas drops an unused .extern function, as nvlink does */
		g->unresolved = 1;
		unresolved++;
	}
	if (l->o->verbose && diag_errors() == 0 && !unresolved)
		diag_note("ptxlink: %s", devrt || l->o->allow_undefined
			? "names are left for nvlink (device runtime, libraries): the output needs 'ptxas -c' and nvlink"
			: "every name is resolved, a whole program: 'ptxas' without -c can compile it");
}

/* The undefined references check_unresolved found, once the output
 * exists: a use's CUDA line (-lineinfo) is read from its function's .loc
 * and the merged .file table, both as ptxas will see them. */
static void report_unresolved(Linker *l)
{
	for (Global *g = l->globals; g; g = g->hh.next) {
		if (!g->unresolved)
			continue;
		SrcLines *src = g->used && g->first_use_in ? srclines_build(l->out, g->first_use_in) : NULL;
		error(g->used ? g->first_use : g->decl_sym->loc, "%sundefined reference to %s",
			g->used ? srclines_prefix(src, g->first_use) : "", quoted_name(g->name));
		srclines_free(src);
	}
}

/* ---- the entry point ---- */

static void free_linker(Linker *l)
{
	for (int m = 0; m < l->n; m++) {
		Sym *s, *tmp;
		HASH_ITER(hh, l->tables[m], s, tmp) {
			HASH_DEL(l->tables[m], s);
			free(s);
		}
		free(l->filemap[m]);
	}
	Global *g, *gt;
	HASH_ITER(hh, l->globals, g, gt) {
		HASH_DEL(l->globals, g);
		free(g);
	}
	names_free(&l->taken);
	free(l->tables);
	free(l->filemap);
	free(l->nfilemap);
	free(l->files);
	free(l->dwarf);
	free_sections(l);
	names_free(&l->locals);
}

Module *link_modules(Module **mods, int n, const LinkOptions *o)
{
	Linker l = {0};
	l.o = o;
	l.mods = mods;
	l.n = n;
	l.out = mod_new("<linked>");
	for (int m = 0; m < n; m++)
		mod_adopt(l.out, mods[m]);
	l.tables = xcalloc((size_t)n, sizeof *l.tables);
	l.filemap = xcalloc((size_t)n, sizeof *l.filemap);
	l.nfilemap = xcalloc((size_t)n, sizeof *l.nfilemap);
	l.dwarf = xcalloc((size_t)n, sizeof *l.dwarf);
	int errors = diag_errors();
	int ok = make_header(&l) == 0;
	if (ok) {
		for (int m = 0; m < n; m++) {
			ir_normalize(mods[m]);  /* one symbol per statement */
			collect_symbols(&l, m);
		}
		if (diag_errors() == errors)
			resolve(&l);
	}
	if (ok && diag_errors() == errors) {
		for (int m = 0; m < n; m++)
			check_agreement(&l, mods[m]);
		if (diag_errors() == errors)
			widen_param_alignments(&l);
		rename_internals(&l);
		merge_files(&l);
		rename_section_locals(&l);
		section_bases(&l);
		for (int m = 0; m < n; m++)
			rename_module(&l, m);
		check_unresolved(&l);
		widen_alignments(&l);
		if (diag_errors() == errors)
			build_output(&l);
		report_unresolved(&l);
		if (diag_errors() == errors)
			ir_normalize(l.out);   /* a call's callee, another input's, is checked here */
	}
	free_linker(&l);
	if (diag_errors() != errors) {
		mod_free(l.out);
		return NULL;
	}
	return l.out;
}

/* One input that is not linked: its names still must be one kind each. */
int link_check_symbols(Module *m)
{
	Linker l = {0};
	l.mods = &m;
	l.n = 1;
	l.tables = xcalloc(1, sizeof *l.tables);
	l.filemap = xcalloc(1, sizeof *l.filemap);
	l.nfilemap = xcalloc(1, sizeof *l.nfilemap);
	int errors = diag_errors();
	collect_symbols(&l, 0);
	free_linker(&l);
	return diag_errors() == errors ? 0 : -1;
}
