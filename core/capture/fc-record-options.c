/* fc-record-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-record-options.h"

static const FcRecordOptionInfo options[FC_N_RECORD_OPTIONS] = {
  /* Sentry's SDKs sample at 101 Hz, out of step with periodic work */
  [FC_RECORD_OPTION_FREQUENCY] = { "frequency", "frequency", 1, 1000, 101 },
  /* perf events copy at most 65528 bytes of user stack: a sample's size is 16 bits */
  [FC_RECORD_OPTION_STACK_BYTES] = { "stack-bytes", "stack-size", 1024, 65528, 32768 },
  [FC_RECORD_OPTION_CHUNK_DURATION] = { "chunk-duration", NULL, 1, 3600, 60 },
  /* Relay drops a chunk longer than 66 s; tests cut chunks every 100 ms */
  [FC_RECORD_OPTION_CHUNK_MS] = { NULL, "chunk-duration-ms", 100, 66000, 60000 },
};

const FcRecordOptionInfo *
fc_record_option_get (FcRecordOption option)
{
  g_return_val_if_fail (option < FC_N_RECORD_OPTIONS, NULL);
  return &options[option];
}

int
fc_record_option_clamp (FcRecordOption option,
                        gint64         value)
{
  const FcRecordOptionInfo *info = fc_record_option_get (option);

  g_return_val_if_fail (info != NULL, 0);
  return (int) CLAMP (value, info->minimum, info->maximum);
}

guint
fc_record_option_chunk_ms (int seconds)
{
  return (guint) fc_record_option_clamp (FC_RECORD_OPTION_CHUNK_MS, (gint64) seconds * 1000);
}

/* FcSettings holds ints (GSettings keys are "i"); the recorder, unsigned counts */
static GParamSpec *
param_spec (FcRecordOption option,
            gboolean       setting,
            GParamFlags    flags)
{
  const FcRecordOptionInfo *info = fc_record_option_get (option);
  const char *name = info != NULL ? (setting ? info->key : info->property) : NULL;

  g_return_val_if_fail (name != NULL, NULL);
  if (setting)
    return g_param_spec_int (name, NULL, NULL, info->minimum, info->maximum, info->default_value, flags);
  return g_param_spec_uint (name, NULL, NULL, info->minimum, info->maximum, info->default_value, flags);
}

GParamSpec *
fc_record_option_setting_spec (FcRecordOption option,
                               GParamFlags    flags)
{
  return param_spec (option, TRUE, flags);
}

GParamSpec *
fc_record_option_property_spec (FcRecordOption option,
                                GParamFlags    flags)
{
  return param_spec (option, FALSE, flags);
}
