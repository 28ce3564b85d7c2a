/* The words of declarations and function headers: one row each, in the
 * manner of mods.h.  A word is decoded by these rows once, when its Spec
 * or FuncAttr is made, and a declaration's fields (linkage, space, type,
 * vector width, alignment) when its words are set (decl.c), so code reads
 * fields and never compares words.  A user defines the row kinds it wants;
 * the others expand to nothing.
 *
 *   LINK(NAME, word)    a linkage: LINK_NAME (Linkage, ir.h)
 *   VEC(n, word)        a vector of n elements (an instruction's too)
 *   SPEC(name, word)    any other specifier: SPEC_name
 *   FATTR(name, word)   a directive after a function's parameters: FA_name
 *
 * State spaces are space_of's words (.shared::cta too), types the TYPE rows
 * of mods.h but those only instructions take (TF_INSN). */
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
#define FATTR(name, word)
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

FATTR(maxntid, ".maxntid")
FATTR(reqntid, ".reqntid")
FATTR(minnctapersm, ".minnctapersm")
FATTR(maxnctapersm, ".maxnctapersm")
FATTR(maxnreg, ".maxnreg")
FATTR(maxclusterrank, ".maxclusterrank")
FATTR(reqnctapercluster, ".reqnctapercluster")
FATTR(explicitcluster, ".explicitcluster")
FATTR(noreturn, ".noreturn")
FATTR(blocksareclusters, ".blocksareclusters")
FATTR(abi_preserve, ".abi_preserve")
FATTR(abi_preserve_control, ".abi_preserve_control")

#undef LINK
#undef VEC
#undef SPEC
#undef FATTR
