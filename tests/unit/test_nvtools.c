/* tools/nvtools/: a compile's command line and ptxas -v's figures, with
 * a stand-in ptxas (a shell script on PATH that says what a real one
 * says and writes a cubin made here); the compile-mode rule on small
 * modules; which of two measured compiles wins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "unit.h"
#include "tools/nvtools/nvtools.h"

/* What ptxas -v says of two kernels calling one function: whole program
 * names the callee under each kernel, and gives no registers for it. */
static const char said[] =
	"ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
	"ptxas info    : Function properties for callee\n"
	"    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
	"ptxas info    : Function properties for k\n"
	"    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
	"ptxas info    : Used 40 registers, used 0 barriers, 360 bytes cmem[0]\n"
	"ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
	"ptxas info    : Function properties for callee\n"
	"    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
	"ptxas info    : Function properties for k2\n"
	"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
	"ptxas info    : Used 24 registers, used 0 barriers, 360 bytes cmem[0]\n";

/* A cubin of two functions: .text.k (256 bytes, 40 registers in
 * sh_info's top byte) and .text.k2 (128 bytes, 24). */
static void write_cubin(const char *path)
{
	static const char names[] = "\0.shstrtab\0.text.k\0.text.k2";   /* 0, 1, 11, 19 */
	static const Elf64_Shdr sh[4] = {
		[2] = {.sh_name = 11, .sh_type = SHT_NOBITS, .sh_size = 256, .sh_info = 40u << 24},
		[3] = {.sh_name = 19, .sh_type = SHT_NOBITS, .sh_size = 128, .sh_info = 24u << 24},
	};
	unsigned char buf[512];
	size_t n = elf_image(buf, names, sizeof names, sh, 4);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fwrite(buf, 1, n, f);
	fclose(f);
}

/* dir/ptxas: keeps its arguments in dir/args, copies dir/cubin to its
 * -o file, says what said says. */
static void fake_ptxas(const char *dir)
{
	char path[512];
	snprintf(path, sizeof path, "%s/ptxas", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\necho \"$@\" >%s/args\n"
		"while [ $# -gt 1 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
		"cp %s/cubin \"$out\"\ncat <<'EOF'\n%sEOF\n", dir, dir, said);
	fclose(f);
	chmod(path, 0755);
	snprintf(path, sizeof path, "%s/cubin", dir);
	write_cubin(path);
}

START_TEST(compile_figures)
{
	char dir[] = "/tmp/nvtools-XXXXXX", args[256] = "", path[512];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fake_ptxas(dir);
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char path_var[600];
	snprintf(path_var, sizeof path_var, "%s:/usr/bin:/bin", dir);   /* the script's cp, cat */
	setenv("PATH", path_var, 1);
	static const char *const opts[] = {"-O2"};
	NvRun r = {.dir = dir};
	NvCompile c = {.arch = "sm_80", .opts = opts, .nopts = 1, .ptx = "app.ptx", .cubin = "app.cubin"};
	NvFigures f;
	ck_assert_int_eq(nv_compile(&r, &c, &f), 0);
	snprintf(path, sizeof path, "%s/args", dir);
	FILE *a = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(args, sizeof args, a));
	fclose(a);
	ck_assert_str_eq(args, "-arch=sm_80 -O2 -v app.ptx -o app.cubin\n");
	ck_assert_uint_eq(f.nfuncs, 3);   /* callee once */
	ck_assert_str_eq(f.funcs[0].name, "callee");
	ck_assert_int_eq(f.funcs[0].spill, 8);
	ck_assert_int_eq(f.funcs[0].regs, -1);
	ck_assert_str_eq(f.funcs[1].name, "k");
	ck_assert_int_eq(f.funcs[1].stack, 16);
	ck_assert_int_eq(f.funcs[1].regs, 40);
	ck_assert_int_eq(f.funcs[2].regs, 24);
	ck_assert_int_eq(f.spill, 8);
	ck_assert_int_eq(f.stack, 24);
	ck_assert_int_eq(f.text, 384);
	ck_assert_int_eq(f.regs, 40);
	ck_assert_int_eq(f.warps, 48);   /* 40 registers: 1,280 a warp, 12 a sub-partition */
	ck_assert_str_eq(f.said, said);
	nv_figures_free(&f);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	for (const char *const *n = (const char *const[]){"ptxas", "args", "cubin", "app.cubin", NULL}; *n; n++) {
		snprintf(path, sizeof path, "%s/%s", dir, *n);
		unlink(path);
	}
	rmdir(dir);
}
END_TEST

/* A tool found on PATH or by its path; the installation's files beside
 * it (DIR/bin/tool: DIR/sub). */
START_TEST(cuda_paths)
{
	char dir[] = "/tmp/nvtools-XXXXXX", bin[64], tool[96], want[128];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(bin, sizeof bin, "%s/bin", dir);
	snprintf(tool, sizeof tool, "%s/faketool", bin);
	ck_assert_int_eq(mkdir(bin, 0755), 0);
	FILE *f = fopen(tool, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	chmod(tool, 0755);
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", bin, 1);
	char *found = nv_find("faketool"), *byname = nv_find(tool), *sub = nv_cuda_path("faketool", "bin/crt/link.stub");
	snprintf(want, sizeof want, "%s/bin/crt/link.stub", dir);
	ck_assert_str_eq(found, tool);
	ck_assert_str_eq(byname, tool);   /* a path, as -ccbin gives it */
	ck_assert_str_eq(sub, want);
	chmod(tool, 0644);
	ck_assert_ptr_null(nv_find(tool));   /* not executable: said, NULL */
	if (old)
		setenv("PATH", old, 1);
	free(old);
	free(found);
	free(byname);
	free(sub);
	unlink(tool);
	rmdir(bin);
	rmdir(dir);
}
END_TEST

/* nvlink's --register-link-binaries file: its ids in order. */
START_TEST(registered)
{
	char path[] = "/tmp/nvtools-reg-XXXXXX";
	int fd = mkstemp(path), n = -1;
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("#define NUM_PRELINKED_OBJECTS 2\nDEFINE_REGISTER_FUNC(_tmp_x_l_o)\n"
		"// DEFINE_REGISTER_FUNC(no)\nDEFINE_REGISTER_FUNC(_f4510a67_22_cuda_device_runtime_cu_3e)\n"
		"DEFINE_REGISTER_FUNC(cut short\n", f);
	fclose(f);
	char **ids = nv_registered(path, &n);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(ids[0], "_tmp_x_l_o");
	ck_assert_str_eq(ids[1], "_f4510a67_22_cuda_device_runtime_cu_3e");
	free(ids[0]);
	free(ids[1]);
	free(ids);
	unlink(path);
	ck_assert_ptr_null(nv_registered(path, &n));   /* gone: none */
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(warps)
{
	ck_assert_int_eq(nv_warps("sm_80", 32), 64);   /* 1,024 a warp: 16 each, at most 64 */
	ck_assert_int_eq(nv_warps("sm_86", 32), 48);   /* at most 48 */
	ck_assert_int_eq(nv_warps("sm_75", 0), 32);
	ck_assert_int_eq(nv_warps("sm_90", 255), 8);   /* 256 registers: 8,192 a warp, 2 each */
}
END_TEST

START_TEST(reloc_better)
{
	NvFigures w = {.spill = 8, .stack = 16, .warps = 32, .text = 1000}, r = w;
	ck_assert_int_eq(nv_better(&r, &w), 0);   /* a tie is whole */
	r.text = 900;
	ck_assert_int_eq(nv_better(&r, &w), 1);
	r.warps = 24;   /* warps before SASS */
	ck_assert_int_eq(nv_better(&r, &w), 0);
	r.stack = 8;    /* frames before warps */
	ck_assert_int_eq(nv_better(&r, &w), 1);
	r.spill = 12;   /* spills first */
	ck_assert_int_eq(nv_better(&r, &w), 0);
	w.spill = -1;   /* whole failed */
	ck_assert_int_eq(nv_better(&r, &w), 1);
	r.spill = -1;
	ck_assert_int_eq(nv_better(&r, &w), 0);
}
END_TEST

/* The compile mode's choice: the order, but 5% less SASS at no larger
 * stack, no fewer warps and at most 8 spill bytes more wins (the yard
 * benchmark's y237: whole 32 spill bytes, 32 of stack, 10,752 bytes of
 * SASS against 24, 40 and 15,232). */
START_TEST(mode_better)
{
	NvFigures w = {.spill = 32, .stack = 32, .warps = 64, .text = 10752};
	NvFigures r = {.spill = 24, .stack = 40, .warps = 64, .text = 15232};
	ck_assert_int_eq(nv_better(&r, &w), 1);        /* the order alone: fewer spills */
	ck_assert_int_eq(nv_mode_better(&r, &w), 0);
	ck_assert_int_eq(nv_mode_better(&w, &r), 1);
	w.spill = 33;                                  /* 9 bytes more */
	ck_assert_int_eq(nv_mode_better(&r, &w), 1);
	w.spill = 32, w.warps = 48;                    /* fewer warps */
	ck_assert_int_eq(nv_mode_better(&r, &w), 1);
	w.warps = 64, w.stack = 48;                    /* a larger frame */
	ck_assert_int_eq(nv_mode_better(&r, &w), 1);
	w.stack = 32, w.text = 14471;                  /* not 5% less: 14,470.4 is */
	ck_assert_int_eq(nv_mode_better(&r, &w), 1);
	w.text = 14470;
	ck_assert_int_eq(nv_mode_better(&r, &w), 0);
	r.spill = -1;                                  /* a failed compile is never smaller */
	ck_assert_int_eq(nv_mode_better(&r, &w), 0);
	ck_assert_int_eq(nv_mode_better(&w, &r), 1);
}
END_TEST

/* With the inputs compiled apart as the reference (the yard benchmark's
 * y10: whole 56 spill bytes, 104 of stack, 48 warps and 52,736 bytes of
 * SASS against relocatable's 72, 104, 28 and 36,224; -rdc's route 1,456,
 * 1,856 and 42,112): the compile at or below it in spills and stack and
 * within 105% of its SASS where the other is not, else the rule's. */
START_TEST(mode_pick)
{
	NvFigures w = {.spill = 56, .stack = 104, .warps = 48, .text = 52736};
	NvFigures r = {.spill = 72, .stack = 104, .warps = 28, .text = 36224};
	NvFigures ref = {.spill = 1456, .stack = 1856, .warps = 48, .text = 42112};
	ck_assert_int_eq(nv_mode_better(&r, &w), 0);   /* the rule alone: whole */
	ck_assert_int_eq(nv_mode_needs_ref(&w, &r), 1);
	ck_assert_int_eq(nv_mode_pick(&w, &r, NULL), 0);
	ck_assert_int_eq(nv_mode_pick(&w, &r, &ref), 1);
	w.text = 44217;                                /* within 105% (44,217.6): both are */
	ck_assert_int_eq(nv_mode_pick(&w, &r, &ref), 0);
	w.text = 44218;
	ck_assert_int_eq(nv_mode_pick(&w, &r, &ref), 1);
	r.spill = 1457;                                /* neither is at or below it */
	ck_assert_int_eq(nv_mode_pick(&w, &r, &ref), 0);
	r.spill = 72, r.stack = 1857;
	ck_assert_int_eq(nv_mode_pick(&w, &r, &ref), 0);
	r.stack = 104, ref.spill = -1;                 /* the reference failed */
	ck_assert_int_eq(nv_mode_pick(&w, &r, &ref), 0);
	w.text = 36224;                                /* whole no more in anything: no need */
	ck_assert_int_eq(nv_mode_needs_ref(&w, &r), 0);
	w.text = 52736, r.spill = -1;                  /* a failed compile: no need */
	ck_assert_int_eq(nv_mode_needs_ref(&w, &r), 0);
}
END_TEST

/* --tune's choice: the plan given's best compile (here of two modes)
 * unless a later one beats it by the yardstick's order, no worse in
 * spills and stack and within 110% of its SASS; the earlier of equals. */
START_TEST(tune_best)
{
	NvBatch v[7] = {
		{.f = {.spill = 0, .stack = 32, .warps = 48, .text = 4096}},   /* given, whole */
		{.f = {.spill = 0, .stack = 32, .warps = 40, .text = 3500}},   /* given, fewer warps */
		{.f = {.spill = 0, .stack = 32, .warps = 48, .text = 4096}},   /* equal: not chosen */
		{.f = {.spill = 0, .stack = 16, .warps = 48, .text = 4400}},   /* a smaller frame */
		{.f = {.spill = 0, .stack = 8, .warps = 64, .text = 4600}},    /* 4,600 > 4,505.6 */
		{.f = {.spill = 0, .stack = 8, .warps = 48, .text = 4500}},    /* within 110% */
		{.f = {.spill = -1}},                                          /* failed */
	};
	ck_assert_int_eq(nv_best(v, 2, 2), 0);
	ck_assert_int_eq(nv_best(v, 3, 2), 0);
	ck_assert_int_eq(nv_best(v, 4, 2), 3);
	ck_assert_int_eq(nv_best(v, 5, 2), 3);
	ck_assert_int_eq(nv_best(v, 7, 2), 5);
	ck_assert_int_eq(nv_best(v, 7, 1), 5);
	v[5].f.stack = 16;   /* equal to v[3]: the earlier */
	ck_assert_int_eq(nv_best(v, 7, 2), 3);
	/* fewer spills for a larger frame than the given's: refused */
	NvBatch w[3] = {
		{.f = {.spill = 8, .stack = 32, .warps = 48, .text = 4096}},
		{.f = {.spill = 0, .stack = 48, .warps = 48, .text = 4096}},
		{.f = {.spill = 4, .stack = 32, .warps = 32, .text = 4000}},   /* fewer spills, fewer warps */
	};
	ck_assert_int_eq(nv_best(w, 2, 1), 0);
	ck_assert_int_eq(nv_best(w, 3, 1), 2);
	w[0].f.spill = -1;   /* the given failed: any compile beats it */
	ck_assert_int_eq(nv_best(w, 3, 1), 1);
	w[1].f.spill = w[2].f.spill = -1;
	ck_assert_int_eq(nv_best(w, 3, 1), 0);   /* all failed: the given */
}
END_TEST

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int exists(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* Compiles of one batch: the same PTX compiled once, a second batch
 * from the cache (no ptxas run), a failing ptxas's compile failed. */
START_TEST(batch_cache)
{
	char dir[] = "/tmp/nvtools-XXXXXX", cache[64], path[512];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fake_ptxas(dir);
	snprintf(cache, sizeof cache, "%s/cache/tune", dir);
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL, path_var[600];
	snprintf(path_var, sizeof path_var, "%s:/usr/bin:/bin", dir);
	setenv("PATH", path_var, 1);
	write_text(dir, "a.ptx", "// a\n");
	write_text(dir, "b.ptx", "// b\n");
	NvRun r = {.dir = dir};
	volatile pid_t workers[2] = {0};
	NvBatch v[3] = {
		{.c = {.arch = "sm_80", .ptx = "a.ptx", .cubin = "a1.cubin"}},
		{.c = {.arch = "sm_80", .ptx = "a.ptx", .cubin = "a2.cubin"}},
		{.c = {.arch = "sm_80", .ptx = "b.ptx", .cubin = "b.cubin"}},
	};
	nv_compile_batch(&r, v, 3, 2, cache, workers);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(v[i].f.spill, 8);
		ck_assert_int_eq(v[i].f.text, 384);
		ck_assert_int_eq(v[i].f.regs, 40);
		ck_assert_int_eq(v[i].cached, i == 1);   /* a2 is a1's */
		nv_figures_free(&v[i].f);
	}
	ck_assert(exists(dir, "a2.cubin") && exists(dir, "args"));
	snprintf(path, sizeof path, "%s/args", dir);
	unlink(path);
	nv_compile_batch(&r, v, 3, 2, cache, workers);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(v[i].cached, 1);
		ck_assert_int_eq(v[i].f.stack, 24);
		nv_figures_free(&v[i].f);
	}
	ck_assert(!exists(dir, "args"));   /* ptxas did not run */
	write_text(dir, "ptxas", "#!/bin/sh\necho 'ptxas fatal : no'\nexit 1\n");
	write_text(dir, "c.ptx", "// c\n");
	v[0].c.ptx = "c.ptx";
	nv_compile_batch(&r, v, 1, 2, NULL, workers);
	ck_assert_int_eq(v[0].f.spill, -1);
	ck_assert_ptr_nonnull(strstr(v[0].f.said, "ptxas fatal : no"));
	nv_figures_free(&v[0].f);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

START_TEST(mode_rule)
{
	ModeFacts f;
	Module *plain = parse_ok(HEAD ".visible .entry k()\n{\n\tret;\n}\n");
	ck_assert_int_eq(nv_mode(plain, MODE_AUTO, &f), MODE_WHOLE);
	ck_assert_int_eq(nv_mode(plain, MODE_RELOCATABLE, &f), MODE_RELOCATABLE);
	Module *rec = parse_ok(HEAD ".func f()\n{\n\tcall f, ();\n\tret;\n}\n"
		".visible .entry k()\n{\n\tcall f, ();\n\tret;\n}\n");
	ck_assert_int_eq(nv_mode(rec, MODE_AUTO, &f), MODE_AUTO);   /* recursion: measure */
	ck_assert_int_eq(f.recursive, 1);
	ck_assert_int_eq(f.calling, 2);
	Module *calls = parse_ok(HEAD ".func g()\n{\n\tret;\n}\n"
		".visible .entry k()\n{\n\tcall g, ();\n\tret;\n}\n");
	ck_assert_int_eq(nv_mode(calls, MODE_AUTO, &f), MODE_AUTO);   /* measure */
	ck_assert_int_eq(f.recursive, 0);
	Module *undef = parse_ok(HEAD ".extern .func h();\n"
		".visible .entry k()\n{\n\tcall h, ();\n\tret;\n}\n");
	ck_assert_int_eq(nv_mode(undef, MODE_AUTO, &f), MODE_RELOCATABLE);
	ck_assert_str_eq(f.undefined, "h");
	ck_assert_int_eq(nv_mode(undef, MODE_WHOLE, &f), -1);
	mod_free(plain);
	mod_free(rec);
	mod_free(calls);
	mod_free(undef);
}
END_TEST

Suite *nvtools_suite(void)
{
	Suite *s = suite_create("nvtools");
	TCase *tc = tcase_create("nvtools");
	tcase_add_test(tc, compile_figures);
	tcase_add_test(tc, cuda_paths);
	tcase_add_test(tc, registered);
	tcase_add_test(tc, warps);
	tcase_add_test(tc, reloc_better);
	tcase_add_test(tc, mode_better);
	tcase_add_test(tc, mode_pick);
	tcase_add_test(tc, tune_best);
	tcase_add_test(tc, batch_cache);
	tcase_add_test(tc, mode_rule);
	suite_add_tcase(s, tc);
	return s;
}
