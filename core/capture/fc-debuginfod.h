/* fc-debuginfod.h - debug info fetched by build-id from debuginfod servers, in the background
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * When DEBUGINFOD_URLS names servers, a module without local debug info is
 * asked for by its build-id on one fetcher thread, with elfutils' client
 * (libdebuginfod), which keeps what it fetched in its own cache
 * ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client) and reads it
 * from there next time without the network. Process-wide: every recording's
 * symbolizers share one fetch per build-id.
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The fetches as a GObject for a main loop: its properties n-asked, n-pending, n-found and
 * n-failed (FcDebuginfodProgress) are notified in the main context that first called
 * fc_debuginfod_get_default(), once per batch of changes; n-found growing means debug info
 * arrived and what was symbolized before may be named now (fc-resymbolize.h). */
#define FC_TYPE_DEBUGINFOD (fc_debuginfod_get_type ())
G_DECLARE_FINAL_TYPE (FcDebuginfod, fc_debuginfod, FC, DEBUGINFOD, GObject)

/* The process's one instance, never freed. */
FcDebuginfod *fc_debuginfod_get_default    (void);

typedef struct {
  guint n_asked;        /* build-ids asked for since the process started */
  guint n_pending;      /* ... still being fetched */
  guint n_found;        /* ... found: on a server, or in the client's cache */
  guint n_downloaded;   /* ... of which came over the network (the rest from the cache) */
  guint n_failed;       /* ... no server had it, or none answered */
} FcDebuginfodProgress;

/* DEBUGINFOD_URLS is set and not empty. */
gboolean  fc_debuginfod_enabled            (void);
/* Asks for the debug file of @build_id (a module named @module, for messages) unless it was asked
 * for already; returns at once. */
void      fc_debuginfod_request            (const guint8         *build_id,
                                            gsize                 len,
                                            const char           *module);
/* The debug file of @build_id once fetched; while its fetch runs, waits until @deadline_us
 * (g_get_monotonic_time()); NULL if it is not there by then, or could not be fetched. */
char     *fc_debuginfod_wait               (const guint8         *build_id,
                                            gsize                 len,
                                            gint64                deadline_us);
/* Grows by one whenever a debug file arrives: symbolizers that looked before look again. */
guint     fc_debuginfod_get_generation     (void);
void      fc_debuginfod_get_progress       (FcDebuginfodProgress *progress);
/* One line for people, e.g. "debuginfod: debug info for 2 of 3 modules (1 downloaded, 1 from the
 * cache); not found: libfoo.so (...)", or NULL when nothing was asked for. */
char     *fc_debuginfod_dup_summary        (void);

G_END_DECLS
