/* The words of declarations and function headers: one row each, in the
 * manner of mods.h.  A word is decoded by these rows once, when its Spec
 * or FuncAttr is made, a declaration's fields (linkage, space, type,
 * vector width, alignment) when its words are set and a function's
 * directive numbers when its FuncAttrs are (decl.c), so code reads fields
 * and never compares words or parses numbers.  A user defines the row
 * kinds it wants; the others expand to nothing.
 *
 *   LINK(NAME, word)    a linkage: LINK_NAME (Linkage, ir.h)
 *   VEC(n, word)        a vector of n elements (an instruction's too)
 *   SPEC(name, word)    any other specifier: SPEC_name
 *   FATTR(name, word, on)          a directive after a function's
 *                                  parameters, without numbers: FA_name
 *   FNUM(name, word, n, min, on)   one with 1 to n numbers, each at least
 *                                  min (ptxas takes .maxclusterrank 0), kept
 *                                  in Func's field name (n uint32_t)
 * on is ON_ENTRY or ON_FUNC: where ptxas takes the directive.
 *
 * State spaces are space_of's words (.shared::cta too), types the TYPE rows
 * of mods.h (those only instructions take, TF_INSN, are refused). */
#ifndef LINK
#define LINK(name, word)
#endif
#ifndef VEC
#define VEC(n, word)
#endif
#ifndef SPEC
#define SPEC(name, word)
#endif
#ifndef FATTR
#define FATTR(name, word, on)
#endif
#ifndef FNUM
#define FNUM(name, word, n, min, on)
#endif

LINK(VISIBLE, ".visible")
LINK(EXTERN, ".extern")
LINK(WEAK, ".weak")
LINK(COMMON, ".common")

VEC(2, ".v2")
VEC(4, ".v4")
VEC(8, ".v8")   /* known so that decl_set can say ptxas declares no .v8 */

SPEC(align, ".align")          /* with its number */
SPEC(attribute, ".attribute")  /* with its arguments: .attribute(.managed) */
SPEC(ptr, ".ptr")              /* a kernel parameter's pointer: the space
                                  and .align after it are the pointee's */
SPEC(noreturn, ".noreturn")

FNUM(maxntid, ".maxntid", 3, 1, ON_ENTRY)
FNUM(reqntid, ".reqntid", 3, 1, ON_ENTRY)
FNUM(minnctapersm, ".minnctapersm", 1, 1, ON_ENTRY)
FNUM(maxnctapersm, ".maxnctapersm", 1, 1, ON_ENTRY)
FNUM(maxnreg, ".maxnreg", 1, 1, ON_ENTRY)
FNUM(maxclusterrank, ".maxclusterrank", 1, 0, ON_ENTRY)
FNUM(reqnctapercluster, ".reqnctapercluster", 3, 0, ON_ENTRY)
FATTR(explicitcluster, ".explicitcluster", ON_ENTRY)
FATTR(noreturn, ".noreturn", ON_FUNC)
FATTR(blocksareclusters, ".blocksareclusters", ON_ENTRY)
FNUM(abi_preserve, ".abi_preserve", 1, 0, ON_FUNC)
FNUM(abi_preserve_control, ".abi_preserve_control", 1, 0, ON_FUNC)

#undef LINK
#undef VEC
#undef SPEC
#undef FATTR
#undef FNUM
