/* libFuzzer harness for the object reader (tools/obj/device.c): host
 * objects and archives of them, their fatbinaries and compressed entries,
 * module ids and host references.
 *
 * For every input: read it as a file named fuzz.o.  Bad input may only
 * give errors: the reader fails exactly when it reported one, and what
 * it returns lies in memory it owns or in the input (every payload byte
 * and every name is read here, for AddressSanitizer to check).  Seeds:
 * tests/fuzz/seeds/obj and, when nvcc is there, objects tools/fuzz.sh
 * compiles from tests/obj/ (its .cu files). */
#include <stdint.h>
#include <string.h>
#include "fuzz.h"
#include "tools/obj/obj.h"

static unsigned touch(const DevObject *o)
{
	unsigned sum = (unsigned)strlen(o->name);
	if (o->module_id)
		sum += (unsigned)strlen(o->module_id);
	for (int i = 0; i < o->ncode; i++) {
		const DevCode *c = &o->code[i];
		if (!c->data)
			continue;
		for (size_t k = 0; k < c->size; k++)
			sum += c->data[k];
		if (c->kind == FAT_PTX && memchr(c->data, 0, c->size))
			fuzz_fail("fuzz_obj", "PTX text of %zu bytes holds a NUL", c->size);
	}
	for (int i = 0; i < o->nrefs; i++)
		sum += (unsigned)dev_host_match(o->refs[i].pattern, o->name) + (unsigned)o->refs[i].kind;
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_begin();
	DevObjects ds = {0};
	int r = dev_read_bytes(&ds, "fuzz.o", data, size);
	if ((r != 0) != (diag_errors() != 0))
		fuzz_fail("fuzz_obj", "read returned %d after %d errors", r, diag_errors());
	volatile unsigned sum = 0;
	for (uint32_t i = 0; i < ds.n; i++)
		sum += touch(&ds.obj[i]);
	(void)sum;
	dev_free(&ds);
	return 0;
}
