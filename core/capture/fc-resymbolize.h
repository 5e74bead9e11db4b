/* fc-resymbolize.h - a document's unnamed machine-code frames named by debug info fetched later
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A frame the symbolizer could not name is "module+0xOFFSET" (OFFSET the
 * function's ELF address); its module's image in the chunk's debug_meta
 * carries the build-id. With DEBUGINFOD_URLS set, the debug file of every such
 * module is asked for (fc-debuginfod.h); once one is there, the document is
 * copied with those frames named, for views to show instead of the old one.
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

/* Asks for the debug info of @document's modules with unnamed frames, and returns a copy of it with
 * the frames named that the debug info fetched so far names (*@n_renamed of them), or NULL when it
 * names none. Reads files: call it off the main thread (or use the _async form). */
FcDocument *fc_resymbolize_document        (FcDocument          *document,
                                            guint               *n_renamed);
/* The same in a worker thread; the copy comes with its profiles merged for views. */
void        fc_resymbolize_document_async  (FcDocument          *document,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* The renamed copy and its merged profile, or NULL (and no error) when no frame got a name. */
FcDocument *fc_resymbolize_document_finish (GAsyncResult        *result,
                                            FcProfile          **merged_profile,
                                            GError             **error);

G_END_DECLS
