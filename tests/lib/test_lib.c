/* libptxlink through its public header alone (tests/lib/): sessions one
 * after another in one process, diagnostics through the callback with
 * their place, output identical to the ptxlink command's, misuse reported
 * rather than fatal.  argv: the ptxlink command, the corpus directory. */
#define _GNU_SOURCE   /* memmem */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ptxlink.h"

static const char *ptxlink_cmd, *corpus;

TCase *sessions_tcase(const char *corpus_dir);   /* test_sessions.c */

/* What the callback saw, one "file:line:col: kind: message" a line. */
typedef struct Seen {
	char text[8192];
	int n[4];
} Seen;

static void collect(void *user, ptxlink_severity sev, const char *file, unsigned line,
	unsigned col, const char *msg)
{
	static const char *const kinds[] = {"error", "warning", "remark", "note"};
	Seen *seen = user;
	size_t len = strlen(seen->text);
	snprintf(seen->text + len, sizeof seen->text - len, "%s:%u:%u: %s: %s\n",
		file ? file : "-", line, col, kinds[sev], msg);
	seen->n[sev]++;
}

static void options(ptxlink_options *o, const char *arch, Seen *seen)
{
	ptxlink_options_init(o);
	o->arch = arch;
	o->diag = collect;
	o->diag_user = seen;
}

static ptxlink_session *session(const char *arch, Seen *seen)
{
	ptxlink_options o;
	options(&o, arch, seen);
	ptxlink_session *s = ptxlink_new(&o);
	ck_assert_ptr_nonnull(s);
	return s;
}

/* The command's standard output for args, malloc'd. */
static char *command_output(const char *args)
{
	char cmd[4096], *buf = NULL;
	size_t n = 0, got;
	snprintf(cmd, sizeof cmd, "%s %s", ptxlink_cmd, args);
	FILE *p = popen(cmd, "r"), *mem = open_memstream(&buf, &n);
	ck_assert_ptr_nonnull(p);
	char chunk[65536];
	while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
		fwrite(chunk, 1, got, mem);
	ck_assert_int_eq(pclose(p), 0);
	fclose(mem);
	return buf;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)n);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static const char *const xfile[] = {"factory.sm_80.rdc.ptx", "lights.sm_80.rdc.ptx",
	"shade.sm_80.rdc.ptx"};

static void xfile_path(char *buf, size_t n, int i)
{
	snprintf(buf, n, "%s/ptx/vcall_xfile/%s", corpus, xfile[i]);
}

/* The corpus program vcall_xfile linked by the library, from files or
 * from buffers of the same text (under the same names). */
static void add_xfile(ptxlink_session *s, int from_buffers)
{
	for (int i = 0; i < 3; i++) {
		char path[4096];
		xfile_path(path, sizeof path, i);
		if (!from_buffers) {
			ck_assert_int_eq(ptxlink_add_file(s, path), 0);
			continue;
		}
		size_t len;
		char *text = slurp(path, &len);
		ck_assert_int_eq(ptxlink_add_buffer(s, path, text, len), 0);
		free(text);  /* the session keeps nothing of it */
	}
}

static char *link_xfile(int from_buffers, Seen *seen)
{
	ptxlink_session *s = session("sm_80", seen);
	add_xfile(s, from_buffers);
	ck_assert_int_eq(ptxlink_link(s), 0);
	size_t len;
	char *out = ptxlink_write_buffer(s, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(strlen(out), len);
	ptxlink_free(s);
	return out;
}

/* What the command prints for flags and the three vcall_xfile inputs. */
static char *xfile_command_output(const char *flags)
{
	char args[16384];
	snprintf(args, sizeof args, "%s", flags);
	for (int i = 0; i < 3; i++) {
		char path[4096];
		xfile_path(path, sizeof path, i);
		strcat(args, " ");
		strcat(args, path);
	}
	return command_output(args);
}

START_TEST(same_as_command)
{
	const char *args = "-arch=sm_80 -o -";
	char *want = xfile_command_output(args);
	Seen seen = {0};
	char *files = link_xfile(0, &seen), *buffers = link_xfile(1, &seen);
	ck_assert_str_eq(files, want);
	ck_assert_str_eq(buffers, want);
	ck_assert_int_eq(seen.n[PTXLINK_ERROR] + seen.n[PTXLINK_WARNING], 0);
	free(want);
	free(files);
	free(buffers);
}
END_TEST

static const char bad[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry k()\n{\n\tadd.u32 %r1, ;\n}\n";

START_TEST(parse_error_place)
{
	Seen seen = {0};
	ptxlink_session *s = session(NULL, &seen);
	ck_assert_int_eq(ptxlink_add_buffer(s, "bad.ptx", bad, strlen(bad)), -1);
	ck_assert_int_eq(ptxlink_link(s), -1);
	ck_assert_str_eq(seen.text, "bad.ptx:6:15: error: unexpected ';', expected an expression\n");
	ck_assert_int_eq(ptxlink_errors(s), 1);
	ck_assert_ptr_null(ptxlink_write_buffer(s, NULL));  /* no result: an error, no crash */
	ck_assert_int_eq(ptxlink_errors(s), 2);
	ptxlink_free(s);
}
END_TEST

/* A cubin given as a PTX input is one error saying what it is, not the
 * parser's stray bytes. */
START_TEST(cubin_input)
{
	char path[] = "/tmp/ptxlink-test-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
	elf[18] = 190;   /* e_machine: NVIDIA CUDA */
	ck_assert_int_eq(write(fd, elf, sizeof elf), (int)sizeof elf);
	close(fd);
	Seen seen = {0};
	ptxlink_session *s = session(NULL, &seen);
	ck_assert_int_eq(ptxlink_add_file(s, path), -1);
	ck_assert_int_eq(ptxlink_errors(s), 1);
	ck_assert_ptr_nonnull(strstr(seen.text, "a cubin (CUDA ELF), not PTX"));
	ptxlink_free(s);
	unlink(path);
}
END_TEST

/* Sessions one after another: the second starts afresh (its own error
 * count, its own file names) and gives the same output as the first. */
START_TEST(two_sessions)
{
	Seen seen = {0};
	char *first = link_xfile(0, &seen);
	ptxlink_session *s = session(NULL, &seen);
	ck_assert_int_eq(ptxlink_add_buffer(s, "bad.ptx", bad, strlen(bad)), -1);
	ck_assert_int_eq(ptxlink_errors(s), 1);
	ptxlink_free(s);
	char *second = link_xfile(1, &seen);
	ck_assert_str_eq(first, second);
	free(first);
	free(second);
	/* two alive at once, in turn */
	Seen a = {0}, b = {0};
	ptxlink_session *sa = session(NULL, &a), *sb = session(NULL, &b);
	ck_assert_int_eq(ptxlink_add_buffer(sa, "a.ptx", bad, strlen(bad)), -1);
	ck_assert_int_eq(ptxlink_add_buffer(sb, "b.ptx", bad, 10), -1);
	ck_assert_int_eq(ptxlink_errors(sa), 1);
	ck_assert_int_eq(ptxlink_errors(sb), 1);
	ck_assert_ptr_nonnull(strstr(a.text, "a.ptx:6:15: error:"));
	ck_assert_ptr_null(strstr(b.text, "a.ptx"));
	ptxlink_free(sa);
	ptxlink_free(sb);
}
END_TEST

/* Remarks and statistics are the callback's too; nothing reaches stderr. */
START_TEST(remarks_and_notes)
{
	Seen seen = {0};
	ptxlink_options o;
	options(&o, "sm_80", &seen);
	o.remarks = PTXLINK_REMARK_DEVIRT | PTXLINK_REMARK_GLOBALOPT;
	o.stats = 1;
	ptxlink_session *s = ptxlink_new(&o);
	add_xfile(s, 0);
	ck_assert_int_eq(ptxlink_link(s), 0);
	ck_assert_int_gt(seen.n[PTXLINK_REMARK], 0);
	ck_assert_int_gt(seen.n[PTXLINK_NOTE], 0);
	ck_assert_ptr_nonnull(strstr(seen.text, "remark: devirtualized call to"));
	ptxlink_free(s);
}
END_TEST

/* Wrong use is an error through the callback, never an exit. */
START_TEST(misuse)
{
	Seen seen = {0};
	ptxlink_options o;
	options(&o, NULL, &seen);
	o.print_after = "nosuchstage";
	ck_assert_ptr_null(ptxlink_new(&o));
	ck_assert_int_eq(seen.n[PTXLINK_ERROR], 1);
	ptxlink_session *s = session(NULL, &seen);
	ck_assert_int_eq(ptxlink_link(s), -1);  /* no inputs */
	ck_assert_int_eq(ptxlink_link(s), -1);  /* twice */
	ck_assert_int_eq(ptxlink_add_buffer(s, "x.ptx", bad, strlen(bad)), -1);  /* after link */
	ck_assert_int_eq(ptxlink_add_file(s, "/nonexistent/x.ptx"), -1);
	ck_assert_int_eq(ptxlink_errors(s), 4);
	ptxlink_free(s);
	s = session(NULL, &seen);
	ck_assert_int_eq(ptxlink_add_file(s, "/nonexistent/x.ptx"), -1);
	ck_assert_ptr_nonnull(strstr(seen.text, "/nonexistent/x.ptx:0:0: error: cannot open"));
	ck_assert_int_eq(ptxlink_add_buffer(s, "empty.ptx", NULL, 0), -1);
	ck_assert_int_eq(ptxlink_add_buffer(s, "x.ptx", NULL, 5), -1);
	ck_assert_int_eq(ptxlink_add_file(s, NULL), -1);
	ptxlink_free(s);
	ck_assert_int_eq(ptxlink_link(NULL), -1);
	ck_assert_int_eq(ptxlink_errors(NULL), 0);
	ptxlink_free(NULL);
}
END_TEST

/* Library errors go through the callback and count: a missing -l, a
 * malformed archive, an archive added after the link. */
START_TEST(library_errors)
{
	char dir[] = "/tmp/ptxlink-libs-XXXXXX", bad_a[4096];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(bad_a, sizeof bad_a, "%s/libbad.a", dir);
	FILE *f = fopen(bad_a, "w");
	ck_assert_ptr_nonnull(f);
	fputs("!<arch>\nf.ptx/          0           0     0     644     99999     `\n", f);
	fclose(f);
	const char *const dirs[] = {dir}, *const libs[] = {"nothere"};
	Seen seen = {0};
	ptxlink_options o;
	options(&o, "sm_80", &seen);
	o.libdirs = dirs;
	o.nlibdirs = 1;
	o.libs = libs;
	o.nlibs = 1;
	ptxlink_session *s = ptxlink_new(&o);
	ck_assert_ptr_nonnull(s);
	add_xfile(s, 0);
	ck_assert_int_eq(ptxlink_add_file(s, bad_a), 0);   /* read at the link */
	ck_assert_int_eq(ptxlink_link(s), -1);
	ck_assert_int_eq(ptxlink_add_file(s, bad_a), -1);   /* after the link */
	ck_assert_int_eq(ptxlink_errors(s), 3);
	ck_assert_int_eq(seen.n[PTXLINK_ERROR], 3);
	ck_assert_ptr_nonnull(strstr(seen.text, "-:0:0: error: cannot find -lnothere (no libnothere.a, "));
	ck_assert_ptr_nonnull(strstr(seen.text, "/libbad.a:0:0: error: malformed ar archive (member at byte 8)\n"));
	ck_assert_ptr_nonnull(strstr(seen.text, "-:0:0: error: an input added after ptxlink_link\n"));
	ptxlink_free(s);
	unlink(bad_a);
	rmdir(dir);
	/* an empty directory name is not the root */
	static const char *const empty[] = {""};
	o.libdirs = empty;
	ck_assert_ptr_null(ptxlink_new(&o));
	o.libdirs = NULL;
	o.nlibdirs = 0;
	ck_assert_int_eq(ptxlink_set_option(&o, "L", ""), -1);
	ck_assert_int_eq((int)o.nlibdirs, 0);
	ck_assert_int_eq(seen.n[PTXLINK_ERROR], 5);
	ck_assert_ptr_nonnull(strstr(seen.text, "error: libdirs holds an empty name"));
	ck_assert_ptr_nonnull(strstr(seen.text, "error: 'L' needs a directory name"));
}
END_TEST

/* The lists are counted: a NULL name among keep's or libs' first n (a
 * terminator counted in, say) is an error through the callback, never a
 * crash; so is an empty library name. */
START_TEST(null_entries)
{
	static const char *const keep[] = {"k", NULL}, *const libs[] = {NULL}, *const empty[] = {""};
	Seen seen = {0};
	ptxlink_options o;
	options(&o, "sm_80", &seen);
	o.internalize = 1;
	o.keep = keep;
	o.nkeep = 2;
	ck_assert_ptr_null(ptxlink_new(&o));
	o.nkeep = 1;
	o.libs = libs;
	o.nlibs = 1;
	ck_assert_ptr_null(ptxlink_new(&o));
	o.libs = empty;
	ck_assert_ptr_null(ptxlink_new(&o));
	ck_assert_int_eq(seen.n[PTXLINK_ERROR], 3);
	ck_assert_ptr_nonnull(strstr(seen.text, "-:0:0: error: keep holds a NULL name"));
	ck_assert_ptr_nonnull(strstr(seen.text, "-:0:0: error: libs holds an empty name"));
	o.nlibs = 0;
	ptxlink_session *s = ptxlink_new(&o);   /* keep's first name alone is fine */
	ck_assert_ptr_nonnull(s);
	ptxlink_free(s);
}
END_TEST

/* inline_mode 0 is the default the header names: auto, as the command's
 * (vcall_xfile has calls auto inlines). */
/* --internalize without --keep: the variables the host could have filled
 * that went are named in one warning, through the session's callback. */
START_TEST(internalize_warns)
{
	static const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
		".global .align 4 .u32 table;\n.visible .entry k()\n{\n\tret;\n}\n";
	Seen seen = {0};
	ptxlink_options o;
	options(&o, "sm_80", &seen);
	o.internalize = 1;
	ptxlink_session *s = ptxlink_new(&o);
	ck_assert_int_eq(ptxlink_add_buffer(s, "t.ptx", ptx, strlen(ptx)), 0);
	ck_assert_int_eq(ptxlink_link(s), 0);
	ck_assert_int_eq(seen.n[PTXLINK_WARNING], 1);
	ck_assert_ptr_nonnull(strstr(seen.text, "-:0:0: warning: --internalize: 1 variable the "
		"host could fill or read by name (cudaMemcpyToSymbol, cudaMemcpyFromSymbol) removed, "
		"folded or split: 'table' (--keep=NAME keeps one)\n"));
	ptxlink_free(s);
}
END_TEST

START_TEST(inline_mode_default)
{
	char *out[3];
	static const int modes[] = {0, PTXLINK_INLINE_AUTO, PTXLINK_INLINE_NEVER};
	for (int i = 0; i < 3; i++) {
		Seen seen = {0};
		ptxlink_options o;
		options(&o, "sm_80", &seen);
		o.inline_mode = modes[i];
		ptxlink_session *s = ptxlink_new(&o);
		ck_assert_ptr_nonnull(s);
		add_xfile(s, 0);
		ck_assert_int_eq(ptxlink_link(s), 0);
		out[i] = ptxlink_write_buffer(s, NULL);
		ptxlink_free(s);
	}
	ck_assert_str_eq(out[0], out[1]);
	ck_assert_str_ne(out[0], out[2]);
	char *cmd = xfile_command_output("-arch=sm_80 --inline=auto");
	ck_assert_str_eq(out[0], cmd);
	free(cmd);
	for (int i = 0; i < 3; i++)
		free(out[i]);
}
END_TEST

/* print_after is the session's copy: the caller's buffer may be freed,
 * or reused for something else, once ptxlink_new returns. */
START_TEST(print_after_copied)
{
	Seen seen = {0};
	ptxlink_options o;
	options(&o, "sm_80", &seen);
	char *stage = strdup("globalopt");
	o.print_after = stage;
	ptxlink_session *freed = ptxlink_new(&o), *reused = ptxlink_new(&o);
	free(stage);
	char buf[] = "globalopt";
	o.print_after = buf;
	ptxlink_session *overwritten = ptxlink_new(&o);
	strcpy(buf, "xx");
	ptxlink_session *all[] = {freed, reused, overwritten};
	for (int i = 0; i < 3; i++) {   /* each prints the module to stderr */
		char path[] = "/tmp/ptxlink-stderr-XXXXXX";
		int fd = mkstemp(path), err = dup(2);
		ck_assert_int_ge(fd, 0);
		ck_assert_ptr_nonnull(all[i]);
		add_xfile(all[i], 0);
		fflush(stderr);
		dup2(fd, 2);
		int rc = ptxlink_link(all[i]);
		fflush(stderr);
		dup2(err, 2);
		close(err);
		close(fd);
		size_t len;
		char *printed = slurp(path, &len);
		unlink(path);
		ck_assert_int_eq(rc, 0);
		ck_assert_msg(len > 0 && memmem(printed, len, ".address_size 64", 16),
			"session %d printed no module after globalopt", i);
		free(printed);
	}
	for (int i = 0; i < 3; i++)
		ptxlink_free(all[i]);
}
END_TEST

/* ptxlink_set_option: every kind of option by name, dashes optional,
 * into the field the command's parser sets. */
START_TEST(set_option_kinds)
{
	Seen seen = {0};
	ptxlink_options o;
	options(&o, NULL, &seen);
	ck_assert_int_eq(o.devirt_funnel_max, 8);    /* the table's defaults */
	ck_assert_int_eq(o.warn_stack_size, -1);
	ck_assert_int_eq(o.inline_growth, 400);
	ck_assert_int_eq(ptxlink_set_option(&o, "inline-growth", "0"), 0);   /* 0: no growth, not the default */
	ck_assert_int_eq(o.inline_growth, 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "no-depot", NULL), 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "--verify", NULL), 0);
	ck_assert_int_eq(o.no_depot + o.verify, 2);
	ck_assert_int_eq(ptxlink_set_option(&o, "no-verify", NULL), 0);
	ck_assert_int_eq(o.verify, 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "Rpass=devirt", NULL), 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "-Rpass-analysis=depot", NULL), 0);
	ck_assert_int_eq(o.remarks, PTXLINK_REMARK_DEVIRT | PTXLINK_REMARK_DEPOT_ANALYSIS);
	ck_assert_int_eq(ptxlink_set_option(&o, "devirt-funnel-max", "4"), 0);
	ck_assert_int_eq(o.devirt_funnel_max, 4);
	ck_assert_int_eq(ptxlink_set_option(&o, "warn-stack-size", "1024"), 0);
	ck_assert_int_eq(o.warn_stack_size, 1024);
	char arch[] = "sm_90";
	ck_assert_int_eq(ptxlink_set_option(&o, "gpu-name", arch), 0);
	arch[3] = '8';   /* the value was copied */
	ck_assert_str_eq(o.arch, "sm_90");
	ck_assert_int_eq(ptxlink_set_option(&o, "print-after", "devirt"), 0);
	ck_assert_str_eq(o.print_after, "devirt");
	ck_assert_int_eq(ptxlink_set_option(&o, "addrprep", "narrow,sink"), 0);
	ck_assert_uint_eq(o.addrprep, PTXLINK_ADDRPREP_NARROW | PTXLINK_ADDRPREP_SINK);
	ck_assert_int_eq(ptxlink_set_option(&o, "addrprep", NULL), 0);
	ck_assert_uint_eq(o.addrprep, 15);
	ck_assert_int_eq(ptxlink_set_option(&o, "L", "dir1"), 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "library-path", "dir2"), 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "library", "m"), 0);
	ck_assert_int_eq((int)o.nlibdirs, 2);
	ck_assert_str_eq(o.libdirs[1], "dir2");
	ck_assert_int_eq((int)o.nlibs, 1);
	ck_assert_str_eq(o.libs[0], "m");
	/* a list the caller set is kept, and grows */
	static const char *const mine[] = {"mine"};
	o.keep = mine;
	o.nkeep = 1;
	ck_assert_int_eq(ptxlink_set_option(&o, "keep", "k1"), 0);
	char path[] = "/tmp/ptxlink-keep-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char names[] = "k2 # a comment\n\tk3\n";
	ck_assert_int_eq(write(fd, names, strlen(names)), (int)strlen(names));
	close(fd);
	ck_assert_int_eq(ptxlink_set_option(&o, "keep-file", path), 0);
	unlink(path);
	ck_assert_int_eq((int)o.nkeep, 4);
	ck_assert_str_eq(o.keep[0], "mine");
	ck_assert_str_eq(o.keep[3], "k3");
	ck_assert_int_eq(seen.n[PTXLINK_ERROR], 0);
	ptxlink_options_free(&o);
	ptxlink_options_free(&o);   /* twice: nothing left to free */
}
END_TEST

/* Wrong names and values: an error through the callback with the
 * command's words, the field unchanged. */
START_TEST(set_option_errors)
{
	Seen seen = {0};
	ptxlink_options o;
	options(&o, NULL, &seen);
	ck_assert_int_eq(ptxlink_set_option(&o, "bogus", "1"), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "devirt-funnel-max", "3x"), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "devirt-funnel-max", NULL), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "no-depot", "1"), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "arch", "sm80"), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "addrprep", "bogus"), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "keep", ""), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "O", "4"), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, "fatbin", NULL), -1);
	ck_assert_int_eq(ptxlink_set_option(&o, NULL, NULL), -1);
	ck_assert_int_eq(seen.n[PTXLINK_ERROR], 10);
	ck_assert_int_eq(o.devirt_funnel_max, 8);
	ck_assert_int_eq(o.no_depot, 0);
	ck_assert_ptr_null(o.arch);
	ck_assert_int_eq((int)o.nkeep, 0);
	ck_assert_ptr_nonnull(strstr(seen.text, "-:0:0: error: unknown option 'bogus'\n"));
	ck_assert_ptr_nonnull(strstr(seen.text,
		"error: 'devirt-funnel-max' needs a positive number below 2^31\n"));
	ck_assert_ptr_nonnull(strstr(seen.text, "error: 'no-depot' takes no value\n"));
	ck_assert_ptr_nonnull(strstr(seen.text, "error: -arch=sm80 is not an architecture ptxas accepts ("));
	ck_assert_ptr_nonnull(strstr(seen.text, "error: 'O': the optimization level is 0, 1, 2 or 3\n"));
	ck_assert_int_eq(o.opt_level, 3);
	ck_assert_ptr_nonnull(strstr(seen.text, "error: 'fatbin' is an option of the ptxlink command"));
	ptxlink_options_free(&o);
}
END_TEST

/* Options set by name link as the command's flags do; the session keeps
 * copies, so the options may be freed before the link. */
START_TEST(set_option_as_command)
{
	const char *args = "-arch=sm_80 --devirt-funnel-max=1 --no-depot -o -";
	char *want = xfile_command_output(args);
	Seen seen = {0};
	ptxlink_options o;
	options(&o, NULL, &seen);
	ck_assert_int_eq(ptxlink_set_option(&o, "arch", "sm_80"), 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "devirt-funnel-max", "1"), 0);
	ck_assert_int_eq(ptxlink_set_option(&o, "no-depot", NULL), 0);
	ptxlink_session *s = ptxlink_new(&o);
	ptxlink_options_free(&o);
	ck_assert_ptr_nonnull(s);
	add_xfile(s, 0);
	ck_assert_int_eq(ptxlink_link(s), 0);
	char *got = ptxlink_write_buffer(s, NULL), *plain = link_xfile(0, &seen);
	ck_assert_str_eq(got, want);
	ck_assert_str_ne(got, plain);   /* the options made a difference */
	free(got);
	free(plain);
	free(want);
	ptxlink_free(s);
}
END_TEST

/* vcall_xfile at level, set in the field or by name (-O1 and "O"). */
static char *link_at_level(int level, int by_name)
{
	Seen seen = {0};
	ptxlink_options o;
	options(&o, "sm_80", &seen);
	char v[2] = {(char)('0' + level), 0};
	if (by_name)
		ck_assert_int_eq(ptxlink_set_option(&o, "O", v), 0);
	else
		o.opt_level = level;
	ptxlink_session *s = ptxlink_new(&o);
	ck_assert_ptr_nonnull(s);
	add_xfile(s, 0);
	ck_assert_int_eq(ptxlink_link(s), 0);
	char *out = ptxlink_write_buffer(s, NULL);
	ptxlink_free(s);
	ptxlink_options_free(&o);
	return out;
}

/* -O is the library's: opt_level 1 and 3 link as the command's -O1 and
 * -O3 do, and differ (-O1 runs neither devirt nor depot). */
START_TEST(opt_level_as_command)
{
	char *got[2];
	for (int i = 0; i < 2; i++) {
		int level = i ? 3 : 1;
		char flags[64];
		snprintf(flags, sizeof flags, "-arch=sm_80 -O%d", level);
		char *want = xfile_command_output(flags);
		char *field = link_at_level(level, 0), *named = link_at_level(level, 1);
		ck_assert_str_eq(field, want);
		ck_assert_str_eq(named, want);
		got[i] = field;
		free(named);
		free(want);
	}
	ck_assert_str_ne(got[0], got[1]);
	free(got[0]);
	free(got[1]);
}
END_TEST

/* The stages get the fields as the option table says: a funnel limit of 0
 * is the table's default (ptxlink.h allows it), 1 funnels less. */
START_TEST(stage_options_from_fields)
{
	Seen seen = {0};
	char *dflt = link_xfile(0, &seen), *out[2];
	for (int i = 0; i < 2; i++) {
		ptxlink_options o;
		options(&o, "sm_80", &seen);
		o.devirt_funnel_max = i;
		ptxlink_session *s = ptxlink_new(&o);
		ck_assert_ptr_nonnull(s);
		add_xfile(s, 0);
		ck_assert_int_eq(ptxlink_link(s), 0);
		out[i] = ptxlink_write_buffer(s, NULL);
		ptxlink_free(s);
	}
	ck_assert_str_eq(out[0], dflt);
	ck_assert_str_ne(out[1], dflt);
	free(out[0]);
	free(out[1]);
	free(dflt);
}
END_TEST

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: lib-tests PTXLINK CORPUS\n");
		return 2;
	}
	ptxlink_cmd = argv[1];
	corpus = argv[2];
	Suite *su = suite_create("libptxlink");
	TCase *tc = tcase_create("lib");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, same_as_command);
	tcase_add_test(tc, parse_error_place);
	tcase_add_test(tc, cubin_input);
	tcase_add_test(tc, two_sessions);
	tcase_add_test(tc, remarks_and_notes);
	tcase_add_test(tc, misuse);
	tcase_add_test(tc, library_errors);
	tcase_add_test(tc, print_after_copied);
	tcase_add_test(tc, set_option_kinds);
	tcase_add_test(tc, set_option_errors);
	tcase_add_test(tc, set_option_as_command);
	tcase_add_test(tc, stage_options_from_fields);
	tcase_add_test(tc, null_entries);
	tcase_add_test(tc, inline_mode_default);
	tcase_add_test(tc, internalize_warns);
	tcase_add_test(tc, opt_level_as_command);
	suite_add_tcase(su, tc);
	suite_add_tcase(su, sessions_tcase(corpus));
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
