/* relink OUT IN...: links PTX files with libptxlink (ptxlink::ptxlink) as
 * the command does with -arch=sm_80, to show the library target in use. */
#include <stdio.h>
#include <ptxlink.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: relink OUT IN...\n");
		return 2;
	}
	ptxlink_options o;
	ptxlink_options_init(&o);
	o.arch = "sm_80";
	ptxlink_session *s = ptxlink_new(&o);
	int rc = !s;
	for (int i = 2; i < argc && !rc; i++)
		rc = ptxlink_add_file(s, argv[i]) != 0;
	FILE *out = rc || ptxlink_link(s) != 0 ? NULL : fopen(argv[1], "w");
	rc = !out || ptxlink_write(s, out) != 0;
	if (out && fclose(out) != 0)
		rc = 1;
	ptxlink_free(s);
	return rc;
}
