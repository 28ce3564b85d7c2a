/* An ar archive's members (obj.h): GNU's and BSD's, as ld and nvlink
 * read them.  Each member is a 60-byte header (name, ..., size, "`\n")
 * and its data, padded to an even offset. */
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"   /* xstrndup */
#include "obj.h"

int ar_open(Ar *a, const unsigned char *buf, size_t n)
{
	*a = (Ar){.buf = buf, .n = n, .at = 8, .longnames = ""};
	return n >= 8 && !memcmp(buf, "!<arch>\n", 8) ? 0 : -1;
}

/* ar's member name: GNU "name/" or "/N" (into the "//" table), BSD
 * "#1/LEN" (the name starts the data), else the field trimmed. */
static char *member_name(const Ar *a, const char *h, const unsigned char **data, size_t *size)
{
	char field[17];
	memcpy(field, h, 16);
	field[16] = 0;
	size_t len = strcspn(field, " ");
	if (field[0] == '/' && field[1] >= '0' && field[1] <= '9') {
		size_t off = strtoul(field + 1, NULL, 10);
		if (off < a->nlong)
			return xstrndup(a->longnames + off, strcspn(a->longnames + off, "/\n"));
	} else if (!strncmp(field, "#1/", 3)) {
		size_t n = strtoul(field + 3, NULL, 10);
		if (n <= *size) {
			char *s = xstrndup((const char *)*data, n);
			*data += n;
			*size -= n;
			return s;
		}
	}
	if (len > 1 && field[len - 1] == '/')
		len--;
	return xstrndup(field, len);
}

static int is_symtab(const char *h)
{
	return !strncmp(h, "/ ", 2) || !strncmp(h, "/SYM64/", 7) || !strncmp(h, "__.SYMDEF", 9);
}

int ar_next(Ar *a, ArMember *m)
{
	for (;;) {
		free(a->name);
		a->name = NULL;
		if (a->at + 60 > a->n) {   /* a->at == n + 1: the last member's padding byte missing */
			a->why = "bytes after the last archive member";
			return a->at < a->n ? -1 : 0;
		}
		const char *h = (const char *)a->buf + a->at;
		/* the size's digits end at the "`\n" checked first, not past the buffer */
		a->why = memcmp(h + 58, "`\n", 2) ? "archive member header malformed" : NULL;
		size_t size = a->why ? 0 : strtoul(h + 48, NULL, 10), at = a->at;
		const unsigned char *data = a->buf + at + 60;
		if (!a->why && size > a->n - at - 60)
			a->why = "archive member cut short";
		if (a->why)
			return -1;
		a->at += 60 + size + (size & 1);
		if (!strncmp(h, "// ", 3)) {
			a->longnames = (const char *)data;
			a->nlong = size;
		} else if (!is_symtab(h)) {
			a->name = member_name(a, h, &data, &size);
			*m = (ArMember){a->name, data, size, at};
			return 1;
		}
	}
}

size_t ar_trailing(const Ar *a)
{
	return a->at + 60 > a->n && a->at < a->n ? a->n - a->at : 0;
}

void ar_close(Ar *a)
{
	free(a->name);
	a->name = NULL;
}
