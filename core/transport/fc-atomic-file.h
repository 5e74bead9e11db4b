/* fc-atomic-file.h - files that a crash leaves whole or absent, never half written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes @data to @path through a hidden temporary in the same directory
 * (".NAME.XXXXXX"): written, fsynced, renamed over @path, then the directory
 * fsynced so the rename survives a power cut too. A crash at any instant
 * leaves the old file (or none) or the new one whole. Failures (a full disk,
 * a file-size limit) are G_IO_ERRORs naming the file, and leave no temporary. */
gboolean fc_atomic_file_write    (const char  *path,
                                  const void  *data,
                                  gsize        len,
                                  GError     **error);

/* fsync()s a directory, so that renames and unlinks in it are on disk. */
gboolean fc_atomic_file_sync_dir (const char  *dir,
                                  GError     **error);

/* TRUE for the temporary name fc_atomic_file_write() uses for a file called @name
 * ("NAME.envelope" -> ".NAME.envelope.XXXXXX"). */
gboolean fc_atomic_file_is_temp_of (const char *temp_name,
                                    const char *suffix);

G_END_DECLS
