/* libptxlink's example: links two PTX modules held in memory, a kernel
 * and the device function it calls from another file, and prints the
 * linked PTX.  Build it with
 *     cc example.c $(pkg-config --cflags --libs ptxlink) -o example */
#include <stdio.h>
#include <string.h>
#include <ptxlink.h>

static const char kernel_ptx[] =
	".version 8.0\n"
	".target sm_80\n"
	".address_size 64\n"
	".extern .func (.param .b32 ret) twice(.param .b32 x);\n"
	".visible .entry scale(.param .u64 out)\n"
	"{\n"
	"\t.reg .b32 %r<3>;\n"
	"\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\t{\n"
	"\t.param .b32 p;\n"
	"\t.param .b32 r;\n"
	"\tst.param.b32 [p], %r1;\n"
	"\tcall.uni (r), twice, (p);\n"
	"\tld.param.b32 %r2, [r];\n"
	"\t}\n"
	"\tst.global.u32 [%rd1], %r2;\n"
	"\tret;\n"
	"}\n";

static const char helper_ptx[] =
	".version 8.0\n"
	".target sm_80\n"
	".address_size 64\n"
	".visible .func (.param .b32 ret) twice(.param .b32 x)\n"
	"{\n"
	"\t.reg .b32 %r<3>;\n"
	"\tld.param.u32 %r1, [x];\n"
	"\tshl.b32 %r2, %r1, 1;\n"
	"\tst.param.b32 [ret], %r2;\n"
	"\tret;\n"
	"}\n";

/* Diagnostics arrive here rather than on stderr. */
static void report(void *user, ptxlink_severity sev, const char *file, unsigned line,
	unsigned col, const char *msg)
{
	static const char *const kinds[] = {"error", "warning", "remark", "note"};
	(void)user;
	fprintf(stderr, "example: %s:%u:%u: %s: %s\n", file ? file : "-", line, col,
		kinds[sev], msg);
}

int main(void)
{
	ptxlink_options o;
	ptxlink_options_init(&o);
	o.diag = report;
	/* an option by its field, or by the command's name for it, its value
	 * checked as the command checks it */
	o.arch = "sm_80";
	if (ptxlink_set_option(&o, "devirt-funnel-max", "4") != 0)
		return 1;
	ptxlink_session *s = ptxlink_new(&o);
	ptxlink_options_free(&o);   /* the session keeps its own copy */
	int rc = !s
		|| ptxlink_add_buffer(s, "kernel.ptx", kernel_ptx, strlen(kernel_ptx))
		|| ptxlink_add_buffer(s, "helper.ptx", helper_ptx, strlen(helper_ptx))
		|| ptxlink_link(s)
		|| ptxlink_write(s, stdout);
	ptxlink_free(s);
	return rc;
}
