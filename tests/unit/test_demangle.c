/* What diagnostics add for the reader: the demangler on names from
 * corpus/ptx, against what GNU's __cxa_demangle prints for them, and an
 * instruction's source line from .loc. */
#include "unit.h"

static const char *const cases[][2] = {
	{"_Z5saxpyfPKfPfm", "saxpy(float, float const*, float*, unsigned long)"},
	{"_Z6is_oddj", "is_odd(unsigned int)"},
	{"_ZN4RectD0Ev", "Rect::~Rect()"},
	{"_ZN5ShapeC2Ev", "Shape::Shape()"},
	{"_ZN4RectC1Eff", "Rect::Rect(float, float)"},
	{"_ZNK6Circle4nameEv", "Circle::name() const"},
	{"_ZZ10cluster_3dPfE1s", "cluster_3d(float*)::s"},
	{"_Z9gemm_tilePK6__halfS1_Pfi", "gemm_tile(__half const*, __half const*, float*, int)"},
	{"_Z7reduce6IfLj512ELb1EEvPKT_PS0_j",
		"void reduce6<float, 512u, true>(float const*, float*, unsigned int)"},
	{"_Z10nbody_stepILi128ELi4EEvPK6float4PS0_S3_iff",
		"void nbody_step<128, 4>(float4 const*, float4*, float4*, int, float, float)"},
	{"_ZZ13pipelined_sumILi4EEvPKfPfiE5state", "pipelined_sum<4>(float const*, float*, int)::state"},
	{"_Z5helloifdPKcx", "hello(int, float, double, char const*, long long)"},
	{"_Z4step8particlef6float3", "step(particle, float, float3)"},
	{"_ZTV6Circle", "vtable for Circle"},
	/* internal linkage, pointers to functions, packs (thrust's agents) */
	{"_ZL6helperi", "helper(int)"},
	{"_Z11apply_twicePFfffEff", "apply_twice(float (*)(float, float), float, float)"},
	{"_ZN6thrust23THRUST_300001_SM_860_NS8cuda_cub4core6detail13_kernel_agentINS1_8__unique9"
	 "InitAgentIN3cub17CUB_300001_SM_86013ScanTileStateIiLb1EEEPiiEEJSA_mSB_EEEvDpT0_",
		"void thrust::THRUST_300001_SM_860_NS::cuda_cub::core::detail::_kernel_agent<thrust::"
		"THRUST_300001_SM_860_NS::cuda_cub::__unique::InitAgent<cub::CUB_300001_SM_860::"
		"ScanTileState<int, true>, int*, int>, cub::CUB_300001_SM_860::ScanTileState<int, true>, "
		"unsigned long, int*>(cub::CUB_300001_SM_860::ScanTileState<int, true>, unsigned long, int*)"},
	{"_Z5applyIJEEvDpT_", "void apply<>()"},
	{"_Z1fIJiiEEvDpT_", "void f<int, int>(int, int)"},
	{"_Z1fIiJfdEEvT_DpT0_", "void f<int, float, double>(int, float, double)"},
	/* operators */
	{"_ZN4vec3plERKS_", "vec3::operator+(vec3 const&)"},
	{"_ZNK4vec3ixEi", "vec3::operator[](int) const"},
	{"_ZlsR3OutRK4vec3", "operator<<(Out&, vec3 const&)"},
	{"_ZngRK4vec3", "operator-(vec3 const&)"},
	{"_ZN1AcviEv", "A::operator int()"},
	{"_ZN1XnwEm", "X::operator new(unsigned long)"},
	/* lambdas: a closure's operator(), a kernel template taking one */
	{"_ZZ4mainENKUlvE_clEv", "main::{lambda()#1}::operator()() const"},
	{"_ZZ6kernelPfENKUlfiE0_clEfi",
		"kernel(float*)::{lambda(float, int)#2}::operator()(float, int) const"},
	{"_Z3runIZ6launchvEUliE_EvT_",
		"void run<launch()::{lambda(int)#1}>(launch()::{lambda(int)#1})"},
	{"_ZZN3cub17CUB_300001_SM_8606detail6reduce28DeviceReduceSingleTileKernelINS2_10policy_hubIij"
	 "N4cuda3std3__44plusIiEEE10Policy1000EPiSC_iS9_iiNS7_10__identityEEEvT0_T1_T2_T3_T4_T6_E12temp_storage",
		"cub::CUB_300001_SM_860::detail::reduce::DeviceReduceSingleTileKernel<cub::CUB_300001_SM_860"
		"::detail::reduce::policy_hub<int, unsigned int, cuda::std::__4::plus<int> >::Policy1000, "
		"int*, int*, int, cuda::std::__4::plus<int>, int, int, cuda::std::__4::__identity>(int*, "
		"int*, int, cuda::std::__4::plus<int>, int, cuda::std::__4::__identity)::temp_storage"},
};

START_TEST(demangles_what_nvcc_emits)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *d = demangle(cases[i][0]);
		ck_assert_msg(d && !strcmp(d, cases[i][1]), "%s: got %s", cases[i][0], d ? d : "NULL");
	}
}
END_TEST

/* Not mangled, a parameter's name, a truncation, a pathological nesting,
 * what the demangler does not read (a pointer to a substituted function
 * type, arrays, decltype): left as written, never a crash or a wrong name. */
START_TEST(leaves_the_rest_mangled)
{
	static const char *const names[] = {
		"saxpy", "_Z", "_Z6is_oddj_param_0", "_ZN4Rect", "_Z1fIiEvT0_", "_Z1fS_",
		"_Z999999999999f", "_ZZ", "_Z1fILi",
		"_Z1fRFivEPS_", "_Z1fA10_i", "_Z3addIiEDTplfp_fp0_ET_S0_", "_Z1fIJJJJJJJJJJJJJJ",
		"_ZPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPi",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		ck_assert_msg(!demangle(names[i]), "%s was demangled", names[i]);
	ck_assert_str_eq(quoted_name("_Z6is_oddj"), "'_Z6is_oddj' (is_odd(unsigned int))");
	ck_assert_str_eq(quoted_name("k"), "'k'");
	ck_assert_str_eq(plain_name("_Z6is_oddj"), "_Z6is_oddj (is_odd(unsigned int))");
}
END_TEST

/* The nearest .loc before an instruction, its file from the .file table;
 * none before the first .loc, none for line 0. */
START_TEST(source_line_of_an_instruction)
{
	Module *m = parse_ok(HEADER ".file 1 \"k.cu\"\n.file 2 \"h.cuh\"\n"
		".visible .entry k()\n{\n.reg .b32 %r<4>;\n"
		"mov.u32 %r1, 1;\n"
		".loc 1 42 3\nmov.u32 %r2, 2;\n"
		"{\n.loc 2 7 1\nmov.u32 %r3, 3;\n}\n"
		".loc 1 0 0\nret;\n}\n");
	const Func *f = NULL;
	for (Stmt *s = m->items.head; s; s = s->next)
		if (s->kind == S_FUNC)
			f = s->func;
	SrcLines *sl = srclines_build(m, f);
	const char *want[] = {"", "k.cu:42: ", "h.cuh:7: ", ""};
	int k = 0;
	for (Stmt *s = f->body.head; s; s = s->next) {
		Stmt *in = s->kind == S_SCOPE ? s->scope.tail : s;
		if (in->kind == S_INS)
			ck_assert_str_eq(srclines_prefix(sl, in->loc), want[k++]);
	}
	ck_assert_int_eq(k, 4);
	srclines_free(sl);
	ck_assert_str_eq(srclines_prefix(NULL, f->body.head->loc), "");
	mod_free(m);
}
END_TEST

Suite *demangle_suite(void)
{
	Suite *s = suite_create("demangle");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, demangles_what_nvcc_emits);
	tcase_add_test(tc, leaves_the_rest_mangled);
	tcase_add_test(tc, source_line_of_an_instruction);
	suite_add_tcase(s, tc);
	return s;
}
