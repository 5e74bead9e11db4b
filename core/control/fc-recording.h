/* fc-recording.h - one recording end to end: target, lifecycle, chunk files, sending
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-lifecycle.h"
#include "fc-recorder.h"
#include "fc-sender.h"
#include "fc-settings.h"

G_BEGIN_DECLS

/*
 * FcRecording runs what `flamecast-cli record` and the app's Record button do:
 *
 *   recording = fc_recording_new ();
 *   fc_recording_apply_settings (recording, settings);      optional: the user's defaults
 *   g_object_set (recording, "frequency", 499, "output-dir", dir, NULL);
 *   fc_recording_attach (recording, pid, &error);           or fc_recording_spawn ()
 *   fc_recording_start (recording, &error);                 manual lifecycle: profiling starts
 *   ... "samples-added", fc_recording_get_lifecycle () for spans ...
 *   fc_recording_stop_async (recording, NULL, stopped_cb, data);
 *
 * Properties (set before attaching; the lifecycle ones are read when the
 * target is attached): frequency, mode (FcSamplerMode), stack-size,
 * chunk-duration-ms, platform, release, environment, follow-children (the
 * processes the target starts are recorded too, each its own profile session:
 * its own profiler_id and chunk files), stacks (FcStacksMode: how a CPython
 * program's stacks are recorded; auto: Python frames, platform python), lifecycle
 * (FcProfileLifecycle), profile-session-sample-rate, traces-sample-rate,
 * output-dir (chunk files go there; NULL: none), format (FC_FORMAT_V2: one
 * chunk file per chunk; FC_FORMAT_V1: one envelope per <= 30 s), sender
 * (FcSender: each chunk and each profiled root span is queued for sending;
 * NULL: nothing is sent), keep-profile (fc_recording_get_document () keeps
 * every chunk, the same the files get, and fc_recording_get_profile () the
 * whole recording by function for views; default FALSE: chunks are let go).
 * Read-only: profiling (the recorder is sampling), n-files, stopped.
 *
 * Signals, on the main context that was the thread default at construction:
 *   "samples-added" (guint first, guint n)  samples appended and published to the
 *                                           target's live chunk
 *                                           (fc_recording_get_live_profile ())
 *   "chunk-ready"   (FcProfile *chunk)      a chunk is complete (after it was written and queued)
 *   "target-exited" (int wait status)
 *   "warning"       (const char *message)   a chunk or span could not be written or queued;
 *                                           the recording goes on
 *
 * Nothing here iterates a main context: the caller's loop delivers
 * everything, and stop_async completes from it.
 */
#define FC_TYPE_RECORDING (fc_recording_get_type ())
G_DECLARE_FINAL_TYPE (FcRecording, fc_recording, FC, RECORDING, GObject)

FcRecording   *fc_recording_new                (void);
/* frequency, mode, stack bytes, platform, chunk duration, lifecycle, sample
 * rates, release, environment, follow-children: what flamecast-cli record starts from */
void           fc_recording_apply_settings     (FcRecording          *self,
                                                FcSettings           *settings);

gboolean       fc_recording_attach             (FcRecording          *self,
                                                GPid                  pid,
                                                GError              **error);
/* @cwd (nullable): the command's working directory, entered by the child after fork */
gboolean       fc_recording_spawn              (FcRecording          *self,
                                                const char * const   *argv,
                                                const char           *cwd,
                                                GError              **error);
/* Manual lifecycle: starts the profiler (a no-op with a warning when the
 * session is not sampled). Trace lifecycle: nothing until a root span begins.
 * FALSE when the sampler could not start. */
gboolean       fc_recording_start              (FcRecording          *self,
                                                GError              **error);

/* Ends open root spans, stops the profiler, waits (on the main context,
 * without iterating it) until the last chunk is written and queued, releases
 * the target (a launched command keeps running), then delivers what the
 * sender queued. */
void           fc_recording_stop_async         (FcRecording          *self,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
/* FALSE when the last delivery failed (@error says why); @report (may be
 * NULL) receives the sender's report, NULL without a sender. */
gboolean       fc_recording_stop_finish        (FcRecording          *self,
                                                GAsyncResult         *result,
                                                FcFlushReport       **report,
                                                GError              **error);

FcRecorder    *fc_recording_get_recorder       (FcRecording          *self);
/* NULL before attaching */
FcLifecycle   *fc_recording_get_lifecycle      (FcRecording          *self);
FcProfile     *fc_recording_get_live_profile   (FcRecording          *self);
/* keep-profile, NULL before attaching or without it. The document: every
 * chunk of every process recorded so far, as written and sent (chunk_id,
 * profiler_id, client_sdk, release, environment, debug_meta); it grows on
 * the main context, complete once stopped. Send, save and export it. */
FcDocument    *fc_recording_get_document       (FcRecording          *self);
/* The whole recording by function, for views: the follower's copy of the
 * chunks (live while recording), brought up to date by
 * fc_profile_follower_update () on any one thread at a time, and finished
 * (fc_profile_follower_finish ()) by whoever shows it once stopped. */
FcProfileFollower *fc_recording_get_follower   (FcRecording          *self);
/* fc_profile_follower_get_profile () of the follower */
FcProfile     *fc_recording_get_profile        (FcRecording          *self);
gboolean       fc_recording_get_profiling      (FcRecording          *self);
gboolean       fc_recording_get_stopped        (FcRecording          *self);
GPid           fc_recording_get_pid            (FcRecording          *self);
gboolean       fc_recording_get_target_exited  (FcRecording          *self,
                                                int                  *status);
/* Sends SIGTERM to a launched command ("Stop and end the program"); FALSE for
 * an attached process or one that has exited. */
gboolean       fc_recording_terminate_target   (FcRecording          *self);

guint          fc_recording_get_n_files        (FcRecording          *self);
guint          fc_recording_get_n_chunks       (FcRecording          *self);
/* a chunk file could not be written */
gboolean       fc_recording_get_write_failed   (FcRecording          *self);
/* While recording: the live figures; after stop: as they were at the end. */
void           fc_recording_get_sampler_stats  (FcRecording          *self,
                                                FcSamplerStats       *stats);
void           fc_recording_get_unwind_stats   (FcRecording          *self,
                                                FcUnwindStats        *stats);

G_END_DECLS
