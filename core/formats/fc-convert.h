/* fc-convert.h - V1 transaction profiles <-> V2 continuous chunks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/* A V2 chunk holding the samples of @v1 (timestamps are absolute in the
 * model already) with a new chunk_id and profiler_id; platform, release,
 * environment, client_sdk and debug_meta carry over, measurements are
 * re-timed from elapsed_since_start_ns to absolute seconds. */
FcProfile *fc_convert_v1_to_v2 (FcProfile   *v1,
                                GError     **error);

/* V1 profiles (FcProfile*) for the samples of @v2, each at most 30 s long
 * and carrying its transaction object: a new id, @transaction_name (NULL:
 * "flamecast"), a new trace_id and segment_id, the busiest thread of its
 * window as active_thread_id, relative_start_ns and relative_end_ns. Each
 * also gets its transaction event as linked event
 * (fc_profile_get_linked_event()). Thread ids become decimal ("0x1f" ->
 * "31"). device and os describe this machine when @v2 does not say.
 *
 * Samples spanning more than 30 s are refused with FC_FORMAT_ERROR_TOO_LARGE
 * unless @split, which cuts them into consecutive 30 s windows. */
GPtrArray *fc_convert_v2_to_v1 (FcProfile   *v2,
                                const char  *transaction_name,
                                gboolean     split,
                                GError     **error);

G_END_DECLS
