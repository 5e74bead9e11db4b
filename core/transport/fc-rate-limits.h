/* fc-rate-limits.h - Relay's rate limits per data category, remembered across runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define FC_TYPE_RATE_LIMITS (fc_rate_limits_get_type ())
G_DECLARE_FINAL_TYPE (FcRateLimits, fc_rate_limits, FC, RATE_LIMITS, GObject)

/* Times are wall-clock microseconds (g_get_real_time()) so that limits
 * survive a restart; callers pass "now" so tests can move time. */

/* @path: the file limits are persisted to; NULL for
 * g_get_user_state_dir()/flamecast/rate-limits.ini. Existing limits are loaded. */
FcRateLimits *fc_rate_limits_new              (const char    *path);
const char   *fc_rate_limits_get_path         (FcRateLimits  *self);

/* Read X-Sentry-Rate-Limits (any status) and, for a 429 without it,
 * Retry-After (default 60 s). Saves to disk when something changed.
 * Returns TRUE when a limit was added or extended. */
gboolean      fc_rate_limits_update           (FcRateLimits  *self,
                                               guint          status,
                                               const char    *x_sentry_rate_limits,
                                               const char    *retry_after,
                                               gint64         now_us);

/* Until when @category ("profile_chunk", "profile", "transaction", ...) is
 * limited, taking the catch-all into account; 0 when it is not. */
gint64        fc_rate_limits_get_limited_until (FcRateLimits *self,
                                               const char    *category,
                                               gint64         now_us);
gboolean      fc_rate_limits_is_limited       (FcRateLimits  *self,
                                               const char    *category,
                                               gint64         now_us);
void          fc_rate_limits_clear            (FcRateLimits  *self);

/* Data category of an envelope item type ("profile_chunk" -> "profile_chunk",
 * "event" -> "error"); @platform picks profile_chunk_ui for UI platforms. */
const char   *fc_rate_limits_category_for_item (const char   *item_type,
                                               const char    *platform);

/* A Retry-After header's delay from @now_us in microseconds: delta-seconds
 * or an HTTP date (RFC 9110). FALSE for garbage and for dates not in the future. */
gboolean      fc_retry_after_parse            (const char    *value,
                                               gint64         now_us,
                                               gint64        *delay_us);

G_END_DECLS
