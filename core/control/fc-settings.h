/* fc-settings.h - what the user chose: sampling, lifecycle, where and how to send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "fc-python-splice.h"
#include "fc-record-options.h"
#include "fc-sampler.h"

G_BEGIN_DECLS

typedef enum {
  FC_PROFILE_LIFECYCLE_MANUAL, /*< nick=manual >*/
  FC_PROFILE_LIFECYCLE_TRACE,  /*< nick=trace >*/
} FcProfileLifecycle;

#define FC_TYPE_PROFILE_LIFECYCLE (fc_profile_lifecycle_get_type ())
GType fc_profile_lifecycle_get_type (void) G_GNUC_CONST;

/*
 * Properties, named like the GSettings keys of io.github.flamecast.Flamecast
 * so the app can g_settings_bind() them one to one (the recording options'
 * ranges and defaults are those of fc-record-options.h):
 *   frequency                    int, Hz
 *   mode                         FcSamplerMode ("wall" | "cpu"), default wall
 *   stack-bytes                  int, bytes copied per sample
 *   profile-session-sample-rate  double, 0..1, default 1.0
 *   profile-lifecycle            FcProfileLifecycle ("manual" | "trace"), default manual
 *   traces-sample-rate           double, 0..1, default 1.0
 *   chunk-duration               int, seconds
 *   dsn, release                 string, default ""
 *   environment                  string, default "production"
 *   otlp-endpoint                string, an OTLP/HTTP base URL, default ""
 *   platform                     string, default "native" (empty reads as the default)
 *   follow-children              boolean, record the processes the target starts, default false
 *   stacks                       FcStacksMode ("auto" | "python" | "mixed" | "native"), default auto
 */
#define FC_TYPE_SETTINGS (fc_settings_get_type ())
G_DECLARE_FINAL_TYPE (FcSettings, fc_settings, FC, SETTINGS, GObject)

FcSettings         *fc_settings_new                        (void);

int                 fc_settings_get_frequency              (FcSettings         *self);
void                fc_settings_set_frequency              (FcSettings         *self,
                                                            int                 frequency);
FcSamplerMode       fc_settings_get_mode                   (FcSettings         *self);
void                fc_settings_set_mode                   (FcSettings         *self,
                                                            FcSamplerMode       mode);
int                 fc_settings_get_stack_bytes            (FcSettings         *self);
void                fc_settings_set_stack_bytes            (FcSettings         *self,
                                                            int                 bytes);
double              fc_settings_get_profile_session_sample_rate (FcSettings    *self);
void                fc_settings_set_profile_session_sample_rate (FcSettings    *self,
                                                                 double         rate);
FcProfileLifecycle  fc_settings_get_profile_lifecycle      (FcSettings         *self);
void                fc_settings_set_profile_lifecycle      (FcSettings         *self,
                                                            FcProfileLifecycle  lifecycle);
double              fc_settings_get_traces_sample_rate     (FcSettings         *self);
void                fc_settings_set_traces_sample_rate     (FcSettings         *self,
                                                            double              rate);
int                 fc_settings_get_chunk_duration         (FcSettings         *self);
void                fc_settings_set_chunk_duration         (FcSettings         *self,
                                                            int                 seconds);
const char         *fc_settings_get_dsn                    (FcSettings         *self);
void                fc_settings_set_dsn                    (FcSettings         *self,
                                                            const char         *dsn);
const char         *fc_settings_get_release                (FcSettings         *self);
void                fc_settings_set_release                (FcSettings         *self,
                                                            const char         *release);
const char         *fc_settings_get_environment            (FcSettings         *self);
void                fc_settings_set_environment            (FcSettings         *self,
                                                            const char         *environment);
const char         *fc_settings_get_otlp_endpoint          (FcSettings         *self);
void                fc_settings_set_otlp_endpoint          (FcSettings         *self,
                                                            const char         *otlp_endpoint);

const char         *fc_settings_get_platform               (FcSettings         *self);
void                fc_settings_set_platform               (FcSettings         *self,
                                                            const char         *platform);

/* "manual" / "trace" */
const char         *fc_profile_lifecycle_to_string         (FcProfileLifecycle  lifecycle);
gboolean            fc_profile_lifecycle_from_string       (const char         *text,
                                                            FcProfileLifecycle *lifecycle,
                                                            GError            **error);

/* Load: first the keys the user set in the app's GSettings store (schema from
 * fc_settings_schema_get(), default backend), then the CLI's keyfile on top,
 * each value checked against the schema's range or choices. @path NULL for
 * g_get_user_config_dir()/flamecast/settings.ini. A missing file or schema is
 * not an error (defaults stay). Save writes the keyfile only. */
char               *fc_settings_dup_default_path           (void);
gboolean            fc_settings_load                       (FcSettings         *self,
                                                            const char         *path,
                                                            GError            **error);
gboolean            fc_settings_save                       (FcSettings         *self,
                                                            const char         *path,
                                                            GError            **error);

/* The DSN to use: @explicit_dsn (a --dsn flag) if set, then $SENTRY_DSN, then
 * the "dsn" property; NULL when none is set. */
char               *fc_settings_dup_effective_dsn          (FcSettings         *self,
                                                            const char         *explicit_dsn);

gboolean            fc_settings_get_follow_children        (FcSettings         *self);
FcStacksMode        fc_settings_get_stacks                 (FcSettings         *self);
void                fc_settings_set_stacks                 (FcSettings         *self,
                                                            FcStacksMode        stacks);
void                fc_settings_set_follow_children        (FcSettings         *self,
                                                            gboolean            follow);

G_END_DECLS
