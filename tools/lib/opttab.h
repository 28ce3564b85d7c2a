/* The option table: one row per option of the ptxlink command and of
 * libptxlink, in --help's order.  It drives the command's parser, --help,
 * the man page's OPTIONS section and docs/command-line.md (tools/cli/
 * gen-docs.sh), the library's ptxlink_set_option and the stages' options.
 * A new option is a row here, its field in ptxlink.h (and StageOptions)
 * and the code that reads it (docs/design.md, "An option").
 *
 *   OPT(id, kind, names, field, v, usage, help)
 *
 * kind   how the value is read and where it goes (OptKind, core.h): the
 *        command's own options (C_*) are done by tools/cli/options.c; the
 *        others set a field of ptxlink_options, by the command's parser
 *        and ptxlink_set_option alike (opttab.c:opt_set)
 * names  the spellings, nvlink's and ptxas's first; the library's name is
 *        the first "--" one without its dashes (else the first, without)
 * field  F(member) of ptxlink_options, L(member) for a list with its
 *        count n<member>, NONE for the command's own; FS(member, stage)
 *        when it also feeds stage, a field of StageOptions (stages.h):
 *        libptxlink copies it there by its kind (opttab.c:opt_stage)
 * v      the field's default, written by ptxlink_options_init (V_BIT: the
 *        bit it sets)
 * usage  --help's first line (NULL: not shown); help: the text under it,
 *        '\n' where --help breaks the line */

OPT(OUT, C_GLUED, N("-o", "--output-file"), NONE, 0, "-o FILE, --output-file FILE",
	"write the result to FILE ('-': standard output, the default)")
OPT(ARCH, V_ARCH, N("-arch", "--arch", "--gpu-name", "--gpu-architecture"), F(arch), 0,
	"-arch=sm_XX, --arch, --gpu-name",
	"link for this architecture (one ptxas 13 accepts, that runs\n"
	"every input's .target): -arch=sm_80, -arch sm_90a; given\n"
	"several, the link is for the oldest (its plain sm_XX when an\n"
	"a or f target cannot serve the others) and --fatbin holds a\n"
	"cubin for each and PTX for the newest (plain sm_XX when the\n"
	"link's is: PTX a later GPU can JIT)")
OPT(GENCODE, C_VALUE, N("-gencode", "--generate-code"), NONE, 0,
	"-gencode arch=compute_XX,code=sm_XX",
	"nvcc's spelling (repeatable): a cubin for each code=sm_XX, PTX\n"
	"for each code=compute_XX (code=[sm_80,compute_80]: both) and\n"
	"for the newest, in one --fatbin; an empty name (code=[]) is\n"
	"refused, as nvcc refuses it")
OPT(OPTF, C_VALUE, N("-optf", "--options-file"), NONE, 0, "-optf FILE, --options-file FILE, @FILE",
	"read more arguments from FILE, quoted as gcc's @FILE ('' or \"\"\n"
	"around spaces, \\ before a character), nested 8 deep")
OPT(VERBOSE, V_ON, N("-v", "--verbose"), F(verbose), 0, "-v, --verbose",
	"say what was done: inputs, libraries, stages, tools run, time")
OPT(TIME, C_FLAG, N("--time"), NONE, 0, "--time", "print each phase's time (parse, link, stages, check, print, ptxas)")
OPT(VERSION, C_FLAG, N("-V", "--version"), NONE, 0, "-V, --version", "print the version and exit")
OPT(HELP, C_OPTIONAL, N("-h", "--help"), NONE, 0, "-h, --help", "print this help and exit")
OPT(NOWARN, C_FLAG, N("-w", "--disable-warnings"), NONE, 0, "-w, --disable-warnings",
	"print no warnings (ptxas too, under --ptxas)")
OPT(WERROR, C_FLAG, N("-Werror", "--warning-as-error"), NONE, 0, "-Werror, --warning-as-error",
	"warnings are errors (ptxas's too, under --ptxas)")
OPT(WERROR_FORMAT, V_ON, N("-Werror=format"), FS(werror_format, printf_lowering.werror_format), 0,
	"-Werror=format",
	"printf format mismatches are errors, not warnings")
OPT(OLEVEL, V_LEVEL, N("-O", "--opt-level"), F(opt_level), 3, "-O0 .. -O3, --opt-level N",
	"which stages run: -O0 printf lowering only, -O1 and globalopt,\n"
	"-O2 and devirt, -O3 (default) and fold, locals, depot, dce\n"
	"and addrprep;\n"
	"ptxas keeps its own -O3")
OPT(DEBUG, C_FLAG, N("-g", "--device-debug", "--debug"), NONE, 0, "-g, --device-debug",
	"ptxas -g under --ptxas (the PTX's DWARF is kept either way)")
OPT(LINEINFO, C_FLAG, N("-lineinfo", "--generate-line-info"), NONE, 0, "-lineinfo",
	"ptxas -lineinfo under --ptxas")
OPT(MAXRREG, C_VALUE, N("-maxrregcount", "--maxrregcount"), NONE, 0, "-maxrregcount=N",
	"ptxas -maxrregcount N under --ptxas (1 to 255, archmax, archmin)")
OPT(M64, C_FLAG, N("-m64"), NONE, 0, "-m64, --machine 64", "accepted: PTX here is 64-bit")
OPT(M32, C_FLAG, N("-m32"), NONE, 0, "-m32", "an error: ptxlink links 64-bit PTX only")
OPT(MACHINE, C_VALUE, N("-m", "--machine"), NONE, 0, NULL, NULL)
OPT(LIBDIR, V_DIR, N("-L", "--library-path"), L(libdirs), 0, "-L DIR, -LDIR, --library-path DIR",
	"search DIR for -l libraries (in the order given)")
OPT(LIB, V_LIBRARY, N("-l", "--library"), L(libs), 0, "-l NAME, -lNAME, --library NAME",
	"link the members of DIR/libNAME.a (an ar archive of .ptx files),\n"
	"DIR/NAME.ptx or DIR/NAME/*.ptx that define a name still undefined")
OPT(PTXAS, C_OPTIONAL, N("--ptxas"), NONE, 0, "--ptxas, --ptxas=\"OPTS\"",
	"compile the result with ptxas into a cubin, with OPTS:\n"
	"--ptxas='-v -O2' -arch=sm_80 -o app.cubin a.ptx b.ptx; where the\n"
	"program needs it, ptxas -c and nvlink, which gets -lcudadevrt\n"
	"and the archives of cubins or objects -l names")
OPT(XPTXAS, C_VALUE, N("-Xptxas", "--Xptxas"), NONE, 0, "-Xptxas OPT[,OPT]",
	"pass OPT to ptxas (repeatable): -Xptxas -v -Xptxas -maxrregcount=64")
OPT(FATBIN, C_FLAG, N("--fatbin"), NONE, 0, "--fatbin",
	"with --ptxas, write a fatbinary holding the cubin and the PTX")
OPT(TUNE, C_OPTIONAL, N("--tune"), NONE, 0, "--tune, --tune=N",
	"measure plans of the options (inlining at 100, local memory\n"
	"after inlining, never, always, .calltargets; whole or\n"
	"relocatable) on the program: ptxas -v compiles at most N of\n"
	"them (default 4, at most 16) and one better in spills, stack,\n"
	"warps, SASS than the options given replaces them (PTX too,\n"
	"with ptxas on PATH); needs -arch (docs/usage.md)")
OPT(NO_TUNE, C_FLAG, N("--no-tune"), NONE, 0, "--no-tune", "do not (the default)")
OPT(JOBS, C_GLUED, N("-j", "--jobs"), NONE, 0, "-j N, --jobs N",
	"with --tune, N compiles at once (default: the CPUs online)")
OPT(TUNE_CACHE, C_VALUE, N("--tune-cache"), NONE, 0, "--tune-cache=DIR",
	"with --tune, keep compiles in DIR by content ('': none;\n"
	"default $PTXLINK_TUNE_CACHE, else $XDG_CACHE_HOME/ptxlink/tune\n"
	"or ~/.cache/ptxlink/tune)")
OPT(RPASS_TUNE, C_FLAG, N("-Rpass=tune"), NONE, 0, "-Rpass=tune",
	"with --tune, a remark for every plan compiled, its figures,\n"
	"and the one chosen")
OPT(DLINK, C_FLAG, N("-dlink", "--device-link"), NONE, 0, "-dlink, --device-link",
	"in place of nvcc -dlink: the inputs are host objects (nvcc -dc)\n"
	"and archives of them; each -arch's PTX in them linked, kept\n"
	"where host code refers to it, compiled, and written as the\n"
	"device-link object the host program links (docs/usage.md)")
OPT(CCBIN, C_VALUE, N("-ccbin", "--compiler-bindir"), NONE, 0, "-ccbin CC, --compiler-bindir CC",
	"with -dlink, the host compiler (or its directory) that\n"
	"compiles the device-link object (default: gcc)")
OPT(MODE, C_VALUE, N("--compile-mode"), NONE, 0, "--compile-mode=whole|relocatable|auto",
	"ptxas whole-program, or ptxas -c and nvlink\n"
	"(default: auto, docs/usage.md says how it picks)")
OPT(ALLOW_UNDEF, V_ON, N("--allow-undefined"), F(allow_undefined), 0, "--allow-undefined",
	"keep unresolved references .extern (for 'ptxas -c')")
OPT(STRIP_DEBUG, V_ON, N("--strip-debug"), F(strip_debug), 0, "--strip-debug",
	"drop DWARF sections, .file and .loc")
OPT(VERIFY, V_ON, N("--verify"), FS(verify, verify), VERIFY_DEFAULT, "--verify",
	"check IR invariants after parsing, linking and every stage\n"
	"(the default in Debug and test builds)")
OPT(NO_VERIFY, V_OFF, N("--no-verify"), F(verify), 0, "--no-verify", "do not")
OPT(NO_CHECK_OUTPUT, V_ON, N("--no-check-output"), FS(no_check_output, no_check_output), 0,
	"--no-check-output",
	"write the stages' output unchecked; without --verify it is\n"
	"checked that every name resolves and every register read has\n"
	"a definition (what the input breaks aside), else not written")
OPT(NO_STAGES, V_ON, N("--no-stages"), F(no_stages), 0, "--no-stages",
	"link only: run no stage (plain round trip)")
OPT(PRINT_AFTER, V_STAGE, N("--print-after"), FS(print_after, print_after), 0, "--print-after=STAGE",
	"print the module to stderr after STAGE: --print-after=devirt")
OPT(STATS, V_ON, N("--stats"), FS(stats, stats), 0, "--stats", "print the stages' counts to stderr")
OPT(NO_DEVIRT, V_ON, N("--no-devirt"), FS(no_devirt, devirt.off), 0,
	"--no-devirt", "leave indirect calls indirect")
OPT(FUNNEL_MAX, V_COUNT, N("--devirt-funnel-max"), FS(devirt_funnel_max, devirt.funnel_max), 8,
	"--devirt-funnel-max=N",
	"funnel at most N candidate targets, more get a .calltargets\n"
	"list; a funnel is kept where the inliner would take every arm\n"
	"and the whole adds at most --inline-threshold instructions")
OPT(RPASS_DEVIRT, V_BIT, N("-Rpass=devirt"), FS(remarks, devirt.remarks), PTXLINK_REMARK_DEVIRT,
	"-Rpass=devirt",
	"a remark for every indirect call site")
OPT(INLINE, V_INLINE, N("--inline"), FS(inline_mode, inlining.mode), 0, "--inline=never|auto|always",
	"inline direct calls to functions the module defines: as the\n"
	"cost model says (auto), all it can (always), none (never);\n"
	"never a call on a cycle; also moves devirtualization, whose\n"
	"funnels need every arm inlined (always: no cost asked; never:\n"
	"funnels kept) (default: auto)")
OPT(INLINE_THRESHOLD, V_NUMBER, N("--inline-threshold"), FS(inline_threshold, inlining.threshold), 30,
	"--inline-threshold=N", "with --inline=auto, inline a callee into a caller when that adds\n"
	"at most N instructions over all the caller's calls to it\n"
	"(each copy less the call it replaces, less the body if it goes);\n"
	"a devirtualized funnel, weighed whole, is kept within N too")
OPT(INLINE_GROWTH, V_NUMBER, N("--inline-growth"), FS(inline_growth, inlining.growth), 400,
	"--inline-growth=N", "with --inline=auto or always, copies add at most N% of the\n"
	"module's instructions (of 5000 for a smaller one), bottom-up;\n"
	"a copy of a callee that goes with its one call adds none,\n"
	"but under auto such moves past 400 instructions fit it too")
OPT(RPASS_INLINE, V_BIT, N("-Rpass=inline"), FS(remarks, inlining.remarks), PTXLINK_REMARK_INLINE, "-Rpass=inline",
	"a remark for every call inlined")
OPT(RPASS_MISSED_INLINE, V_BIT, N("-Rpass-missed=inline"), FS(remarks, inlining.missed),
	PTXLINK_REMARK_INLINE_MISSED,
	"-Rpass-missed=inline", "a remark for every direct call not inlined, with why")
OPT(NO_GLOBALOPT, V_ON, N("--no-globalopt"), FS(no_globalopt, globalopt.off), 0, "--no-globalopt",
	"keep every function and variable, linkage as written")
OPT(INTERNALIZE, V_ON, N("--internalize"), FS(internalize, globalopt.internalize), 0, "--internalize",
	"the host reaches only kernels and --keep names: other\n"
	"variables may go, fold or become internal (without\n"
	"--keep, a warning names those that went or folded)")
OPT(KEEP, V_SYMBOL, N("--keep"), L(keep), 0, "--keep=SYM",
	"with --internalize, SYM stays (repeatable; a warning without)")
OPT(KEEP_FILE, V_SYMFILE, N("--keep-file"), L(keep), 0, "--keep-file=FILE",
	"with --internalize, the names in FILE stay (one a line, # comments)")
OPT(RPASS_GLOBALOPT, V_BIT, N("-Rpass=globalopt"), FS(remarks, globalopt.remarks),
	PTXLINK_REMARK_GLOBALOPT, "-Rpass=globalopt",
	"a remark for every function or variable removed, made\n"
	"internal, folded or deduplicated")
OPT(IPO, V_ON, N("--ipo"), FS(ipo, ipo.on), 1, "--ipo",
	"interprocedural optimization of internal functions: identical\n"
	"ones merged, parameters and results nothing reads removed\n"
	"(default: on)")
OPT(NO_IPO, V_OFF, N("--no-ipo"), FS(ipo, ipo.on), 0, "--no-ipo", "no interprocedural optimization")
OPT(IPO_CONSTANTS, V_ON, N("--ipo-constants"), FS(ipo_constants, ipo.constants), 0, "--ipo-constants",
	"with --ipo, parameters every call passes one number made\n"
	"constant too (default: off: ptxas then unrolls loops bounded\n"
	"by them, and code grows)")
OPT(IPO_BYVALUE, V_ON, N("--ipo-byvalue"), FS(ipo_byvalue, ipo.byvalue), 1, "--ipo-byvalue",
	"with --ipo, a pointer parameter the callee only reads (or\n"
	"writes) at constant offsets, every call lending it a .local\n"
	"object of its own, passes those bytes by value (and back): the\n"
	"caller's object may then leave the stack (default: on)")
OPT(NO_IPO_BYVALUE, V_OFF, N("--no-ipo-byvalue"), FS(ipo_byvalue, ipo.byvalue), 0, "--no-ipo-byvalue",
	"no pointer parameters passed by value")
OPT(RPASS_IPO, V_BIT, N("-Rpass=ipo"), FS(remarks, ipo.remarks), PTXLINK_REMARK_IPO, "-Rpass=ipo",
	"a remark for every function merged, parameter made constant,\n"
	"removed or passed by value, result removed, and every one left\n"
	"as it is")
OPT(OPT_LOCALS, V_ON, N("--opt-locals"), FS(opt_locals, locals.on), 1, "--opt-locals",
	"after inlining, loads of local memory whose bytes a store or\n"
	"load before them holds become movs, and stores nothing reads\n"
	"any more go (default: on)")
OPT(NO_OPT_LOCALS, V_OFF, N("--no-opt-locals"), FS(opt_locals, locals.on), 0, "--no-opt-locals",
	"no optimization of local memory after inlining")
OPT(RPASS_LOCALS, V_BIT, N("-Rpass=locals"), FS(remarks, locals.remarks), PTXLINK_REMARK_LOCALS,
	"-Rpass=locals",
	"a remark for every function whose local memory was optimized")
OPT(NO_FOLD, V_ON, N("--no-fold"), FS(no_fold, fold.off), 0, "--no-fold",
	"leave branches whose compare the operands' value ranges\n"
	"decide as they are (by default, after inlining, they become\n"
	"unconditional or go, with the code they leave unreachable:\n"
	"sinf's slow path for a small argument)")
OPT(RPASS_FOLD, V_BIT, N("-Rpass=fold"), FS(remarks, fold.remarks), PTXLINK_REMARK_FOLD,
	"-Rpass=fold",
	"a remark for every branch folded, with the ranges that decide it")
OPT(NO_DCE, V_ON, N("--no-dce"), FS(no_dce, dce.off), 0, "--no-dce",
	"keep code whose values nothing reads once the other stages\n"
	"are done (by default it goes, calls of functions that only\n"
	"compute their results among it, and branches nothing left\n"
	"depends on skip the dead code)")
OPT(RPASS_DCE, V_BIT, N("-Rpass=dce"), FS(remarks, dce.remarks), PTXLINK_REMARK_DCE,
	"-Rpass=dce",
	"a remark for every call removed and every branch made to skip\n"
	"dead code")
OPT(REROLL, V_ON, N("--reroll"), FS(reroll, reroll.on), 1, "--reroll",
	"before inlining, a loop NVVM fully unrolled around a call (k\n"
	"copies differing in constants that step evenly) becomes one\n"
	"loop again, so that the callee can go in once (default: on)")
OPT(NO_REROLL, V_OFF, N("--no-reroll"), FS(reroll, reroll.on), 0, "--no-reroll",
	"leave unrolled loops around calls as they are")
OPT(REROLL_ANY, V_ON, N("--reroll-any"), FS(reroll_any, reroll.any), 0, "--reroll-any",
	"with --reroll, copies that call nothing too (for tests)")
OPT(RPASS_REROLL, V_BIT, N("-Rpass=reroll"), FS(remarks, reroll.remarks), PTXLINK_REMARK_REROLL,
	"-Rpass=reroll",
	"a remark for every unrolled loop rolled back")
OPT(UNRECURSE, V_ON, N("--unrecurse"), FS(unrecurse, unrecurse.on), 1, "--unrecurse",
	"before inlining, a call into a cycle of functions that count a\n"
	"parameter down to 0, made with a counter of at most 4 by the one\n"
	"function outside the cycle that calls it, goes to a chain of\n"
	"clones, one per depth, the last without the call into the cycle,\n"
	"which inlining can take (default: on)")
OPT(NO_UNRECURSE, V_OFF, N("--no-unrecurse"), FS(unrecurse, unrecurse.on), 0, "--no-unrecurse",
	"leave calls into counted cycles as they are")
OPT(RPASS_UNRECURSE, V_BIT, N("-Rpass=unrecurse"), FS(remarks, unrecurse.remarks),
	PTXLINK_REMARK_UNRECURSE, "-Rpass=unrecurse",
	"a remark for every call given a chain of clones")
OPT(NO_DEPOT, V_ON, N("--no-depot"), FS(no_depot, depot.off), 0, "--no-depot",
	"leave every __local_depot's layout as it is")
OPT(NO_SROA, V_ON, N("--no-sroa"), FS(no_sroa, depot.no_sroa), 0, "--no-sroa",
	"keep in memory the local objects the depot stage would hold in\n"
	"registers (those only loaded and stored at constant offsets)")
OPT(TRUST_LAYOUT, V_ON, N("--trust-layout"), FS(trust_layout, depot.trust_layout), 0,
	"--trust-layout",
	"move local objects in PTX of any producer as in NVVM's and\n"
	"LLVM's (each variable's addresses from one anchor, an index\n"
	"kept inside its array); without it, only theirs (the header\n"
	"comment they write)")
OPT(RPASS_DEPOT, V_BIT, N("-Rpass=depot"), FS(remarks, depot.remarks), PTXLINK_REMARK_DEPOT,
	"-Rpass=depot",
	"a remark for every depot: its new size, or why it is kept")
OPT(RPASS_ANALYSIS_DEPOT, V_BIT, N("-Rpass-analysis=depot"), FS(remarks, depot.analysis),
	PTXLINK_REMARK_DEPOT_ANALYSIS, "-Rpass-analysis=depot",
	"and for every object in it: where it goes, what it\n"
	"may not share bytes with")
OPT(WARN_STACK, V_BYTES, N("--warn-stack-size"), FS(warn_stack_size, depot.warn_stack_size), -1,
	"--warn-stack-size=N",
	"warn for a function whose depot is over N bytes")
OPT(ADDRPREP, V_REWRITES, N("--addrprep"), FS(addrprep, addrprep.rewrites), 0,
	"--addrprep[=narrow,widen,fold,sink]",
	"address preparation's rewrites (default: sink): 64-bit index\n"
	"arithmetic that fits in 32 bits done in 32 (narrow), products\n"
	"of 32-bit values as mul.wide (widen), offsets folded into\n"
	"[reg+imm] (fold), addresses sunk past a loop or call to their\n"
	"use (sink); --addrprep alone: all four.  --addrprep=narrow,sink")
OPT(NO_ADDRPREP, V_ON, N("--no-addrprep"), FS(no_addrprep, addrprep.off), 0,
	"--no-addrprep", "no address preparation")
OPT(RPASS_ADDRPREP, V_BIT, N("-Rpass=addrprep"), FS(remarks, addrprep.remarks),
	PTXLINK_REMARK_ADDRPREP, "-Rpass=addrprep",
	"a remark for every address preparation rewrite")
