/* fc-module-file.h - an ELF file mapped once for every process that maps it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sys/types.h>

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FcModuleFile FcModuleFile;

FcModuleFile *fc_module_file_open          (const char    *path);
FcModuleFile *fc_module_file_open_fd       (int            fd);
FcModuleFile *fc_module_file_ref           (FcModuleFile  *self);
void          fc_module_file_unref         (FcModuleFile  *self);
const guint8 *fc_module_file_get_data      (FcModuleFile  *self,
                                            gsize         *size);
gpointer      fc_module_file_dup_shared    (FcModuleFile  *self,
                                            GQuark         key,
                                            GCopyFunc      copy);
void          fc_module_file_set_shared    (FcModuleFile  *self,
                                            GQuark         key,
                                            gpointer       data,
                                            GDestroyNotify destroy);
void          fc_module_file_release_idle  (void);
guint         fc_module_file_get_n_mapped  (void);

G_END_DECLS
