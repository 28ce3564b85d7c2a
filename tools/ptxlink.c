/* ptxlink: parse PTX, run the pipeline, print PTX.
 * The output file is written atomically: on any error none is left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ir/ir.h"

typedef struct Options {
	const char *out;
	const char **inputs;
	int ninputs;
	int verify;
} Options;

static void usage(FILE *f)
{
	fputs("usage: ptxlink [options] [-o out.ptx] in.ptx\n"
	      "\n"
	      "Reads PTX, checks it, and writes it back as canonical PTX.\n"
	      "'-' as input reads standard input; as output ('-o -'), writes standard output.\n"
	      "\n"
	      "options:\n"
	      "  -o FILE     write the result to FILE (default: standard output)\n"
	      "  --verify    check IR invariants after every stage\n"
	      "  --version   print the version and exit\n"
	      "  --help      print this help and exit\n", f);
}

static int parse_args(int argc, char **argv, Options *o)
{
	o->inputs = calloc((size_t)argc, sizeof *o->inputs);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-o") == 0) {
			if (++i == argc) {
				fprintf(stderr, "ptxlink: error: '-o' needs a file name\n");
				return -1;
			}
			o->out = argv[i];
		} else if (strncmp(a, "-o", 2) == 0 && a[2]) {
			o->out = a + 2;
		} else if (strcmp(a, "--verify") == 0) {
			o->verify = 1;
		} else if (strcmp(a, "--version") == 0) {
			printf("ptxlink %s\n", PTXLINK_VERSION);
			exit(0);
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			exit(0);
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ptxlink: error: unknown option '%s' (see --help)\n", a);
			return -1;
		} else {
			o->inputs[o->ninputs++] = a;
		}
	}
	if (o->ninputs == 0) {
		fprintf(stderr, "ptxlink: error: no input files (see --help)\n");
		return -1;
	}
	if (o->ninputs > 1) {
		fprintf(stderr, "ptxlink: error: linking several inputs is not supported yet\n");
		return -1;
	}
	return 0;
}

/* Writes the module to a temporary file beside 'path' and renames it
 * into place only when every byte is out. */
static int write_output(const char *path, const Module *m)
{
	if (!path || strcmp(path, "-") == 0) {
		print_module(stdout, m);
		return fflush(stdout) == 0 ? 0 : -1;
	}
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		die("out of memory");
	snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "ptxlink: error: cannot create '%s': %s\n", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return -1;
	}
	static char buf[1 << 20];
	setvbuf(f, buf, _IOFBF, sizeof buf);
	print_module(f, m);
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	if (!bad && rename(tmp, path) != 0)
		bad = 1;
	if (bad) {
		fprintf(stderr, "ptxlink: error: cannot write '%s': %s\n", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	Options o = {0};
	int rc = 2;
	if (parse_args(argc, argv, &o) == 0) {
		Module *m = ptx_parse_file(o.inputs[0]);
		if (m && o.verify && ir_verify(m) != 0)
			die("IR invariants broken after parsing");
		rc = m && write_output(o.out, m) == 0 ? 0 : 1;
		mod_free(m);
	}
	free(o.inputs);
	return rc;
}
