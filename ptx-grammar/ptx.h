/* The PTX parser, the grammar layer's one entry: text to a Module.  Each
 * returns NULL after reporting errors (file:line:col: error: ...). */
#ifndef PTXLINK_PTX_H
#define PTXLINK_PTX_H

#include "ir/ir.h"

Module *ptx_parse_file(const char *path);
Module *ptx_parse_string(const char *name, const char *text, size_t len);

#endif
