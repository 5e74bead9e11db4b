/* fc-proc-maps.h - a target's mapped ELF modules, from /proc/PID/maps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "fc-module-file.h"

G_BEGIN_DECLS

/* One ELF file mapped into the target. Everything the unwinder and the
 * symbolizer need is read once from the file (not from the target), so a
 * module stays usable after the target has exited. */
typedef struct {
  char     *path;            /* as in /proc/PID/maps, e.g. "/usr/lib/x86_64-linux-gnu/libc.so.6" */
  char     *build_id;        /* lowercase hex, NULL if the file has none */
  guint64   start;           /* lowest mapped address of the module in the target */
  guint64   end;             /* highest mapped address + 1 */
  guint64   bias;            /* target address = ELF vaddr + bias */
  guint64   vmaddr;          /* lowest PT_LOAD vaddr, page aligned (0 for PIE and shared objects) */
  guint64   exec_start;      /* executable PT_LOAD range in target addresses */
  guint64   exec_end;
  guint64   eh_frame_hdr;    /* target address of .eh_frame_hdr, 0 if none */
  guint64   eh_table;        /* target address of its binary search table */
  guint64   eh_fde_count;
  guint64   entry;           /* target address of the ELF entry point (_start), 0 if none */
  dev_t     dev;
  ino_t     ino;
  gboolean  is_main;         /* the target's executable */
  gboolean  partial;         /* a part of the file mapped again elsewhere, not from its start */
  gboolean  in_app;          /* main executable or outside the system library directories */
  /* private: the file mapped read-only, to serve reads of code and unwind tables; shared by
   * every module of the same file (NULL for an image read from the target's memory) */
  FcModuleFile *file;
  const guint8 *data;
  gsize     size;
  /* PT_LOAD segments: vaddr, memsz, offset, filesz (4 per segment) */
  guint64  *loads;
  guint     n_loads;
} FcModule;

typedef struct {
  guint64 start;
  guint64 end;
} FcCodeRange;

typedef struct _FcProcMaps FcProcMaps;

FcProcMaps     *fc_proc_maps_new             (GPid         pid);
guint           fc_proc_maps_get_n_created   (void);
FcProcMaps     *fc_proc_maps_ref             (FcProcMaps  *self);
void            fc_proc_maps_unref           (FcProcMaps  *self);
gboolean        fc_proc_maps_reload          (FcProcMaps  *self,
                                              GError     **error);
void            fc_proc_maps_forget          (FcProcMaps  *self);
const FcModule *fc_proc_maps_find            (FcProcMaps  *self,
                                              guint64      addr);
const FcModule *fc_proc_maps_find_or_reload  (FcProcMaps  *self,
                                              guint64      addr);
gboolean        fc_proc_maps_read            (FcProcMaps  *self,
                                              guint64      addr,
                                              void        *buf,
                                              gsize        len);
guint           fc_proc_maps_get_generation  (FcProcMaps  *self);
GPid            fc_proc_maps_get_pid         (FcProcMaps  *self);
const char     *fc_proc_maps_get_jitdump     (FcProcMaps  *self);
const FcModule * const *fc_proc_maps_get_modules (FcProcMaps *self,
                                              guint       *n_modules);
gboolean        fc_proc_maps_is_code         (FcProcMaps  *self,
                                              guint64      addr);
gboolean        fc_proc_maps_is_code_or_reload (FcProcMaps *self,
                                              guint64      addr);

gboolean        fc_process_read              (GPid         pid,
                                              guint64      addr,
                                              void        *buf,
                                              gsize        len);

gboolean        fc_module_read               (const FcModule *module,
                                              guint64         addr,
                                              void           *buf,
                                              gsize           len);
gboolean        fc_module_find_function      (const FcModule *module,
                                              guint64         addr,
                                              guint64        *start);
gboolean        fc_module_find_symbol        (const FcModule *module,
                                              const char     *name,
                                              guint64        *addr,
                                              guint64        *size);
gboolean        fc_path_is_system_library    (const char     *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcProcMaps, fc_proc_maps_unref)

G_END_DECLS
