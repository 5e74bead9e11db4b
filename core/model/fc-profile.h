/* fc-profile.h - the in-memory profile model shared by readers, writers, sampler and views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "fc-client-sdk.h"
#include "fc-debug-image.h"

G_BEGIN_DECLS

/*
 * The model is columnar and interned:
 *
 *  - strings are interned into ids (guint32, 0 means "absent");
 *  - frames are de-duplicated by content (FcFrame, ids 0..n_frames-1);
 *  - stacks form a prefix tree rooted at FC_STACK_EMPTY: a stack id names a
 *    node (parent stack, frame), parent being the caller side, so equal
 *    stacks share one id and a stack's callers are its ancestors;
 *  - samples are an array of FcSample (timestamp in ns since the Unix epoch,
 *    thread index, stack id);
 *  - threads are a table of FcThread (thread id string, name, priority).
 *
 * Everything in the payload that the model does not interpret is kept as
 * JSON so that a read -> write round trip loses nothing: top-level keys in
 * the "meta" object (but the SDK and the loaded images, which are typed
 * and keep their own unknown keys), unknown keys of profile{} in
 * "profile-extra", and unknown keys of frames, samples and thread_metadata
 * entries as compact JSON object text in an interned string ("extra").
 *
 * One thread builds a profile; then either
 *
 *  - it calls fc_profile_finish() and hands the profile over: finished, it is
 *    immutable (sorted and indexed when building ended, nothing computed in
 *    a getter) and any number of threads may read it; or
 *  - it calls fc_profile_publish() after each batch it appends: the profile
 *    is live, and readers on other threads see the published prefix, which
 *    never changes and whose storage never moves under them. Readers follow
 *    references in the order they were published: a sample's thread indexes
 *    before fc_profile_get_samples(), then its stack, frames and strings.
 *
 * Until either, getters on the building thread see everything appended.
 */

#define FC_STRING_NONE 0u
#define FC_STACK_EMPTY 0u
#define FC_LINE_NONE   (-1)

typedef enum {
  FC_FORMAT_UNKNOWN = 0,
  FC_FORMAT_V1,       /* Sample Format V1: transaction profile */
  FC_FORMAT_V2,       /* Sample Format V2: continuous profiling chunk */
} FcFormat;

typedef enum {
  FC_IN_APP_UNKNOWN = -1,
  FC_IN_APP_NO      = 0,
  FC_IN_APP_YES     = 1,
} FcInApp;

typedef struct {
  guint32  function;          /* string ids, FC_STRING_NONE when absent */
  guint32  module;
  guint32  package;
  guint32  filename;
  guint32  abs_path;
  guint32  platform;
  guint32  extra;             /* compact JSON object of uninterpreted keys */
  gint32   lineno;            /* FC_LINE_NONE when absent */
  gint32   colno;             /* FC_LINE_NONE when absent */
  gint8    in_app;            /* FcInApp */
  guint8   has_instruction_addr;
  guint8   in_app_inferred;   /* in_app was inferred (fc-in-app.h), not read */
  guint8   _pad;
  guint64  instruction_addr;
} FcFrame;

typedef struct {
  guint32 parent;             /* caller-side stack id; FC_STACK_EMPTY at the root */
  guint32 frame;              /* frame id of this node (meaningless for FC_STACK_EMPTY) */
  guint32 depth;              /* number of frames in this stack; 0 for FC_STACK_EMPTY */
} FcStackNode;

/* 20 bytes, 4-aligned: an hour's recording holds millions (x86-64 and arm64
 * read the timestamp at any 4-byte boundary at full speed) */
typedef struct __attribute__ ((packed, aligned (4))) {
  gint64  timestamp_ns;       /* Unix epoch, nanoseconds */
  guint32 thread;             /* index into the thread table */
  guint32 stack;              /* stack id */
  guint32 extra;              /* compact JSON object of uninterpreted sample keys */
} FcSample;

G_STATIC_ASSERT (sizeof (FcSample) == 20);

typedef struct {
  guint32 tid;                /* string id of the thread id as written ("12345", "0x...") */
  guint32 name;               /* string id, FC_STRING_NONE when unnamed */
  gint32  priority;           /* -1 when absent */
  guint32 extra;              /* uninterpreted thread_metadata keys */
  gboolean has_metadata;      /* listed in thread_metadata */
  guint32 n_samples;
  gint64  first_ns;           /* G_MAXINT64 / G_MININT64 while there are no samples */
  gint64  last_ns;
} FcThread;

#define FC_TYPE_PROFILE (fc_profile_get_type ())
G_DECLARE_FINAL_TYPE (FcProfile, fc_profile, FC, PROFILE, GObject)

FcProfile         *fc_profile_new                  (FcFormat           format);
FcFormat           fc_profile_get_format           (FcProfile         *self);
void               fc_profile_set_format           (FcProfile         *self,
                                                    FcFormat           format);

/* strings */
guint32            fc_profile_intern               (FcProfile         *self,
                                                    const char        *str);
guint32            fc_profile_intern_len           (FcProfile         *self,
                                                    const char        *str,
                                                    gsize              len);
const char        *fc_profile_string               (FcProfile         *self,
                                                    guint32            id);
guint              fc_profile_get_n_strings        (FcProfile         *self);

/* frames */
void               fc_frame_init                   (FcFrame           *frame);
guint32            fc_profile_intern_frame         (FcProfile         *self,
                                                    const FcFrame     *frame);
guint              fc_profile_get_n_frames         (FcProfile         *self);
const FcFrame     *fc_profile_get_frame            (FcProfile         *self,
                                                    guint32            frame_id);
const char        *fc_profile_frame_label          (FcProfile         *self,
                                                    guint32            frame_id,
                                                    char              *buf,
                                                    gsize              buf_len);

/* stacks */
void               fc_profile_reserve_stacks       (FcProfile         *self,
                                                    guint              n_stacks);
guint32            fc_profile_intern_stack         (FcProfile         *self,
                                                    guint32            parent,
                                                    guint32            frame_id);
guint32            fc_profile_intern_stack_frames  (FcProfile         *self,
                                                    const guint32     *frames_leaf_first,
                                                    guint              n_frames);
guint              fc_profile_get_n_stacks         (FcProfile         *self);
const FcStackNode *fc_profile_get_stack            (FcProfile         *self,
                                                    guint32            stack_id);
const FcStackNode *fc_profile_get_stacks           (FcProfile         *self,
                                                    guint             *n_stacks);
guint              fc_profile_stack_frames         (FcProfile         *self,
                                                    guint32            stack_id,
                                                    guint32           *frames_leaf_first,
                                                    guint              max_frames);

/* threads */
guint32            fc_profile_ensure_thread        (FcProfile         *self,
                                                    const char        *tid);
gboolean           fc_profile_lookup_thread        (FcProfile         *self,
                                                    const char        *tid,
                                                    guint32           *thread_index);
void               fc_profile_set_thread_name      (FcProfile         *self,
                                                    guint32            thread_index,
                                                    const char        *name);
FcThread          *fc_profile_get_thread_mut       (FcProfile         *self,
                                                    guint32            thread_index);
guint              fc_profile_get_n_threads        (FcProfile         *self);
const FcThread    *fc_profile_get_thread           (FcProfile         *self,
                                                    guint32            thread_index);

/* samples */
void               fc_profile_append_sample        (FcProfile         *self,
                                                    gint64             timestamp_ns,
                                                    guint32            thread_index,
                                                    guint32            stack_id,
                                                    guint32            extra);
/* takes @samples (g_malloc'd, room for @capacity, @n used) as the samples of
 * a profile that has none yet, as if appended one by one */
void               fc_profile_take_samples         (FcProfile         *self,
                                                    FcSample          *samples,
                                                    guint              n,
                                                    guint              capacity);
guint              fc_profile_get_n_samples        (FcProfile         *self);
const FcSample    *fc_profile_get_samples          (FcProfile         *self,
                                                    guint             *n_samples);
void               fc_profile_sort_samples         (FcProfile         *self);
/* building ends / a live batch is visible; see the comment at the top */
void               fc_profile_finish               (FcProfile         *self);
void               fc_profile_publish              (FcProfile         *self);
gboolean           fc_profile_is_finished          (FcProfile         *self);
gboolean           fc_profile_is_live              (FcProfile         *self);
const guint32     *fc_profile_get_thread_samples   (FcProfile         *self,
                                                    guint32            thread_index,
                                                    guint             *n_samples);
void               fc_profile_get_time_range       (FcProfile         *self,
                                                    gint64            *first_ns,
                                                    gint64            *last_ns);
void               fc_profile_find_range           (FcProfile         *self,
                                                    guint32            thread_index,
                                                    gint64             begin_ns,
                                                    gint64             end_ns,
                                                    guint             *first,
                                                    guint             *last);

/* metadata: every top-level key other than "profile", "client_sdk" and
 * "debug_meta" (typed below), kept as JSON */
JsonObject        *fc_profile_get_meta             (FcProfile         *self);
JsonObject        *fc_profile_get_profile_extra    (FcProfile         *self);
const char        *fc_profile_get_meta_string      (FcProfile         *self,
                                                    const char        *key);
void               fc_profile_set_meta_string      (FcProfile         *self,
                                                    const char        *key,
                                                    const char        *value);
const char        *fc_profile_get_platform         (FcProfile         *self);
const char        *fc_profile_get_release          (FcProfile         *self);
const char        *fc_profile_get_environment      (FcProfile         *self);
const char        *fc_profile_get_profiler_id      (FcProfile         *self);
const char        *fc_profile_get_chunk_id         (FcProfile         *self);
const char        *fc_profile_get_event_id         (FcProfile         *self);
JsonObject        *fc_profile_get_transaction      (FcProfile         *self);
gint64             fc_profile_get_start_ns         (FcProfile         *self);
void               fc_profile_set_start_ns         (FcProfile         *self,
                                                    gint64             start_ns);
const char        *fc_profile_get_active_thread_id (FcProfile         *self);

/* The SDK and the loaded images, typed (fc-client-sdk.h, fc-debug-image.h);
 * not in the "meta" object. The formats layer reads and writes them as
 * client_sdk and debug_meta (fc-chunk-meta.h). */
const FcClientSdk *fc_profile_get_client_sdk       (FcProfile         *self);
/* takes @sdk (nullable) */
void               fc_profile_take_client_sdk      (FcProfile         *self,
                                                    FcClientSdk       *sdk);
/* (element-type FcDebugImage): NULL when the profile lists none */
GPtrArray         *fc_profile_get_images           (FcProfile         *self);
/* replaces the list by @images (nullable, taken; frees its FcDebugImage) */
void               fc_profile_take_images          (FcProfile         *self,
                                                    GPtrArray         *images);
/* takes @image */
void               fc_profile_add_image            (FcProfile         *self,
                                                    FcDebugImage      *image);
/* the first image whose code_file is @code_file, or NULL */
const FcDebugImage *fc_profile_find_image          (FcProfile         *self,
                                                    const char        *code_file);
/* keys of debug_meta other than the images, as compact JSON object text, or NULL */
const char        *fc_profile_get_debug_meta_extra (FcProfile         *self);
void               fc_profile_set_debug_meta_extra (FcProfile         *self,
                                                    const char        *json);
/* @dst's SDK, images and debug_meta keys become copies of @src's */
void               fc_profile_copy_sdk_and_images  (FcProfile         *dst,
                                                    FcProfile         *src);

/* the transaction event linked to this profile (from an envelope), or NULL */
JsonObject        *fc_profile_get_linked_event     (FcProfile         *self);
void               fc_profile_set_linked_event     (FcProfile         *self,
                                                    JsonObject        *event);

/* size in bytes of the JSON payload this profile was read from (0 if built in memory) */
gsize              fc_profile_get_source_size      (FcProfile         *self);
void               fc_profile_set_source_size      (FcProfile         *self,
                                                    gsize              size);

/* whole-model helpers */
/* a new profile of the same format and metadata holding the samples in
 * [begin_ns, end_ns) (end_ns <= begin_ns: all samples) */
FcProfile         *fc_profile_copy_range           (FcProfile         *self,
                                                    gint64             begin_ns,
                                                    gint64             end_ns);
/* a copy whose frames differ only by function identity (no line, column or
 * address when a function name is known): what aggregated views merge by */
FcProfile         *fc_profile_dup_by_function      (FcProfile         *self);
/* by function, with in_app inferred where the payload left it out
 * (@rules: an FcInAppRules from fc-in-app.h, or NULL) */
typedef struct _FcInAppRules FcInAppRules;
FcProfile         *fc_profile_dup_for_view         (FcProfile         *self,
                                                    const FcInAppRules *rules);
/* a live copy by function of growing profiles (a recording's chunks, one
 * after another), brought up to date batch by batch (views of a recording
 * while it runs) */
typedef struct _FcProfileFollower FcProfileFollower;
FcProfileFollower *fc_profile_follower_new         (FcProfile         *src);
void               fc_profile_follower_add_source  (FcProfileFollower *self,
                                                    FcProfile         *src);
void               fc_profile_follower_source_done (FcProfileFollower *self,
                                                    FcProfile         *src);
FcProfileFollower *fc_profile_follower_ref         (FcProfileFollower *self);
void               fc_profile_follower_unref       (FcProfileFollower *self);
FcProfile         *fc_profile_follower_get_profile (FcProfileFollower *self);
guint              fc_profile_follower_update      (FcProfileFollower *self);
FcProfile         *fc_profile_follower_finish      (FcProfileFollower *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcProfileFollower, fc_profile_follower_unref)
/* append the samples of @src in [begin_ns, end_ns) (end_ns <= begin_ns: all),
 * re-interning their threads, stacks, frames and strings into @self */
void               fc_profile_import               (FcProfile         *self,
                                                    FcProfile         *src,
                                                    gint64             begin_ns,
                                                    gint64             end_ns);
/* Samples @first .. @first + @n - 1 of @src (a live source's published batch, say),
 * with what they refer to. Unlike a time range, this never drops or repeats samples
 * that share a timestamp with the previous batch's last one. */
void               fc_profile_import_range         (FcProfile         *self,
                                                    FcProfile         *src,
                                                    guint              first,
                                                    guint              n);
/* TRUE when both have the same samples in the same order: same thread id,
 * same timestamp to the microsecond, same frame sequence (by content);
 * otherwise @why (if not NULL) says where they first differ */
gboolean           fc_profile_equal_samples        (FcProfile         *a,
                                                    FcProfile         *b,
                                                    GString           *why);

G_END_DECLS
