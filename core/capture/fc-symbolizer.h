/* fc-symbolizer.h - addresses to function, file and line with elfutils
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-proc-maps.h"

G_BEGIN_DECLS

typedef struct _FcSymbol FcSymbol;

/* One frame at an address. Code inlined by the compiler gives several: the symbol returned for
 * an address is the innermost inlined function, and @caller leads outwards through the functions
 * it was inlined into, ending with the real (symbol table) function, whose caller is NULL. */
struct _FcSymbol {
  char           *function;   /* never NULL: demangled, symbol table, or "module+0xoffset" */
  char           *abs_path;   /* source file, NULL without debug info */
  char           *filename;   /* its basename */
  int             lineno;     /* -1 when unknown */
  const FcModule *module;     /* NULL when the address is in no known module */
  gboolean        in_app;
  gboolean        unnamed;    /* function is "module+0x..." or an address: no symbol covers it */
  FcSymbol       *caller;     /* the function this one was inlined into, or NULL */
  char           *module_name; /* an interpreter frame's module as its language names it ("json.decoder") */
  const char     *platform;    /* an interpreter frame's platform ("python"); NULL for machine code */
};

/* Frees @symbol and the chain of its callers. */
void            fc_symbol_free               (FcSymbol      *symbol);

typedef struct _FcSymbolizer FcSymbolizer;

FcSymbolizer   *fc_symbolizer_new            (FcProcMaps    *maps);
void            fc_symbolizer_free           (FcSymbolizer  *self);
void            fc_symbolizer_forget         (FcSymbolizer  *self);
/* A caller frame's address is a return address: it is looked up at addr - 1 so that file, line
 * and function are those of the call. The result is owned by the symbolizer and lives as long. */
const FcSymbol *fc_symbolizer_lookup         (FcSymbolizer  *self,
                                              guint64        addr,
                                              gboolean       is_return_address);

/* How JIT code was named: for the summary */
typedef struct {
  const char *perf_map;       /* the perf map's name as the process sees it (/tmp/perf-PID.map) */
  gboolean    perf_map_found; /* and it was there */
  const char *jitdump;        /* the jitdump file read, or NULL */
  const char *jitdump_error;  /* why it stopped being read, or NULL */
  guint       n_entries;      /* code regions named by either */
  guint64     n_named;        /* addresses in JIT code looked up and named */
  guint64     n_unnamed;      /* ... and not named */
} FcJitInfo;

void            fc_symbolizer_refresh_jit    (FcSymbolizer  *self,
                                              gboolean       force);
void            fc_symbolizer_get_jit_info   (FcSymbolizer  *self,
                                              FcJitInfo     *info);
GHashTable     *fc_symbolizer_rename_jit     (FcSymbolizer  *self);

guint           fc_symbolizer_get_n_symbol_tables_read (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcSymbolizer, fc_symbolizer_free)

G_END_DECLS
