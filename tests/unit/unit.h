/* Shared by the Check unit tests. */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>
#include <elf.h>
#include <string.h>
#include "ir/ir.h"
#include "ptx-grammar/ptx.h"

#define HEADER ".version 8.5\n.target sm_80\n.address_size 64\n"

Suite *lexer_suite(void);
Suite *parser_suite(void);
Suite *ir_suite(void);
Suite *print_suite(void);
Suite *analysis_suite(void);
Suite *values_suite(void);
Suite *demangle_suite(void);
Suite *leb128_suite(void);
Suite *scope_suite(void);
Suite *cost_suite(void);
Suite *inlinable_suite(void);
Suite *body_suite(void);
Suite *obj_suite(void);
Suite *nvtools_suite(void);
Suite *link_suite(void);
Suite *device_suite(void);

/* test_obj.c: an ELF64 file in buf (128 bytes and the section headers):
 * the header, the section names (n bytes) at 64, sh's nsh headers at 128,
 * sh[1] made the names' .shstrtab. */
size_t elf_image(unsigned char *buf, const char *names, size_t n, const Elf64_Shdr *sh, int nsh);

/* Parses text (a header is not added); fails the test on error. */
Module *parse_ok(const char *text);
/* Parses text expecting failure; returns the diagnostics written. */
char *parse_errors(const char *text);
/* print_module into a malloc'ed string. */
char *print_str(const Module *m);
/* The verifier's messages for m (NULL when it finds nothing). */
char *verify_msgs(const Module *m);
/* First statement of the first function that has a body. */
Stmt *first_body_stmt(Module *m);

#endif
