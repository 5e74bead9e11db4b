/* fc-demangle.c - symbol names as their language writes them: C++, Rust legacy and v0
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libiberty's demangler (the one binutils and GDB use) knows the Itanium C++ ABI, Rust's
 * legacy mangling (Itanium with $LT$-style escapes and a trailing hash) and Rust's v0
 * mangling (_R...). It keeps no state between calls, so any thread may call it.
 */

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "fc-demangle.h"

/**
 * fc_demangle:
 * @name: a symbol name, mangled or not
 *
 * C++ names keep their parameter list (`foo::bar(int)`); Rust names lose their hash
 * (`std::rt::lang_start_internal`), as rustfilt and perf print them.
 *
 * Returns: (transfer full): the demangled name, or a copy of @name when it is not mangled
 *   or cannot be demangled (never NULL for a non-NULL @name)
 */
char *
fc_demangle (const char *name)
{
  char *out;
  char *ret;

  if (name == NULL)
    return NULL;
  /* Itanium (C++, legacy Rust) and Rust v0: anything else is a plain C name */
  if (!g_str_has_prefix (name, "_Z") && !g_str_has_prefix (name, "_R"))
    return g_strdup (name);
  /* auto: Rust first (legacy Rust symbols are also valid Itanium ones), then C++ */
  out = cplus_demangle (name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
  if (out == NULL)
    return g_strdup (name);
  ret = g_strdup (out);
  free (out);
  return ret;
}
