/* fc-interop-private.h - what the OTLP, pprof, speedscope and folded writers and readers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"
#include "fc-profile.h"
#include "fc-read-limits.h"

G_BEGIN_DECLS

/* A string table with "" at index 0, as OTLP and pprof both want. Strings
 * are borrowed (the profiles outlive the table) unless added with _copy. */
typedef struct {
  GHashTable   *index;       /* const char* -> index + 1 */
  GPtrArray    *strings;     /* const char* */
  GStringChunk *owned;
} FcStringTable;

void        fc_string_table_init       (FcStringTable *table);
void        fc_string_table_clear      (FcStringTable *table);
/* NULL and "" are 0 */
guint       fc_string_table_add        (FcStringTable *table,
                                        const char    *str);
guint       fc_string_table_add_copy   (FcStringTable *table,
                                        const char    *str);

/* A bump allocator for the many small messages of an export: one free at the end. */
typedef struct {
  GPtrArray *blocks;
  guint8    *cur;
  gsize      left;
} FcArena;

void        fc_arena_init              (FcArena       *arena);
void        fc_arena_clear             (FcArena       *arena);
/* zeroed, 8-byte aligned, alive until fc_arena_clear() */
gpointer    fc_arena_alloc0            (FcArena       *arena,
                                        gsize          size);

/* The leaf-side location of @stack: a run of frames at one instruction
 * address, inlined callees first and the real function last (how the
 * symbolizer emits them), into @frames (cleared first). Returns the stack
 * above that run, whose locations follow: a writer keeps one location per
 * stack id and walks up the prefix tree, instead of cutting every stack
 * from its leaf to the root. */
guint32     fc_interop_leaf_location   (FcProfile     *profile,
                                        guint32        stack,
                                        GArray        *frames);

/* The sampling interval: the median gap between a thread's consecutive
 * samples (at most a minute), or 1/101 s (Flamecast's default) when there
 * are none. */
gint64      fc_interop_period_ns       (FcProfile     *profile);

/* FALSE with an error that starts with @where when @profile holds more
 * distinct stacks than FC_READ_MAX_STACK_NODES: called after interning. */
gboolean    fc_interop_check_stacks    (FcProfile     *profile,
                                        const char    *where,
                                        GError       **error);

/* Counts expand into as many samples (pprof and OTLP values, folded counts,
 * speedscope weights), so a few bytes can ask for billions: an import
 * refuses a document that would hold more than this many in all. Ten
 * million is 28 hours of one thread at 100 Hz, and ~0.5 GB with the sort. */
#define FC_INTEROP_MAX_EXPANDED_SAMPLES FC_READ_MAX_SAMPLES

/* The limit in force: FC_INTEROP_MAX_EXPANDED_SAMPLES unless lowered. */
guint64     fc_interop_max_expanded_samples     (void);
/* For the fuzz harnesses, which run each input in a few seconds under ASan
 * and learn nothing from a million copies of one sample: lowers the limit
 * for the whole process. */
void        fc_interop_set_max_expanded_samples (guint64        max);

/* A V2 chunk with fresh chunk and profiler ids and @platform, ready for
 * samples read from another format. */
FcProfile  *fc_interop_new_profile     (const char    *platform);

/* Sorts the samples and adds the profile to @document, unless a sample's
 * time is outside 1970..2200 (what the Sentry formats accept, so that what
 * was imported can be written as V2 and read again): then FALSE, with an
 * error that names @where (the format and the place in it). */
gboolean    fc_interop_finish_profile  (FcDocument    *document,
                                        FcProfile     *profile,
                                        const char    *where,
                                        GError       **error);

/* A GBytes with @str's bytes, taking @str. */
GBytes     *fc_interop_string_to_bytes (GString       *str);

/* @str as a JSON string, quotes included */
void        fc_interop_append_json_string (GString   *out,
                                           const char *str);

/* gzip */
GBytes     *fc_interop_gzip            (const guint8  *data,
                                        gsize          len,
                                        GError       **error);

G_END_DECLS
