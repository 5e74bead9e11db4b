/* fc-record-options.h - the recording options: one table of their ranges and defaults
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "fc-python-splice.h"
#include "fc-sampler.h"

G_BEGIN_DECLS

/* Read by FcRecorder and FcRecording (their properties), FcSettings (its
 * properties, which name the GSettings keys), the CLI (its checks and help)
 * and the test that holds the GSettings schema to it. */
typedef enum {
  FC_RECORD_OPTION_FREQUENCY,       /* samples per second per thread, Hz */
  FC_RECORD_OPTION_STACK_BYTES,     /* stack bytes copied per sample */
  FC_RECORD_OPTION_CHUNK_DURATION,  /* seconds: what the user sets */
  FC_RECORD_OPTION_CHUNK_MS,        /* milliseconds: where the recorder cuts a chunk */
  FC_N_RECORD_OPTIONS,
} FcRecordOption;

typedef struct {
  const char *key;        /* FcSettings property and GSettings key; NULL if not a setting */
  const char *property;   /* FcRecorder and FcRecording property; NULL if not theirs */
  int         minimum;
  int         maximum;
  int         default_value;
} FcRecordOptionInfo;

#define FC_RECORD_DEFAULT_MODE            FC_SAMPLER_MODE_WALL
#define FC_RECORD_DEFAULT_STACKS          FC_STACKS_AUTO
#define FC_RECORD_DEFAULT_PLATFORM        "native"
#define FC_RECORD_DEFAULT_FOLLOW_CHILDREN FALSE

const FcRecordOptionInfo *fc_record_option_get          (FcRecordOption  option);
int                       fc_record_option_clamp        (FcRecordOption  option,
                                                         gint64          value);
/* The chunk length the recorder takes for a "chunk-duration" setting. */
guint                     fc_record_option_chunk_ms     (int             seconds);
/* g_param_spec_int (key, ...) for FcSettings; g_param_spec_uint (property, ...) for the recorder. */
GParamSpec               *fc_record_option_setting_spec (FcRecordOption  option,
                                                         GParamFlags     flags);
GParamSpec               *fc_record_option_property_spec (FcRecordOption option,
                                                          GParamFlags    flags);

G_END_DECLS
