/* Shared by the Check unit tests. */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>
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
Suite *body_suite(void);

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
