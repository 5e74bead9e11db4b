/* fc-time.h - instants and ids as Sentry writes them: RFC 3339, float seconds, UUID v4 hex
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define FC_TIME_NS_PER_S G_GINT64_CONSTANT (1000000000)
/* Instants from 1970-01-01 up to 2200-01-01 are accepted;
 * anything else in a profile is a broken clock, and ns since the epoch in
 * a gint64 end in 2262 anyway. */
#define FC_TIME_MAX_S    G_GINT64_CONSTANT (7258118400)

/* Relay's rule (chrono's RFC 3339): "YYYY-MM-DD", 'T', 't' or ' ', "hh:mm:ss",
 * an optional fraction (digits past the ninth are dropped) and a REQUIRED
 * offset: 'Z', 'z', "+hh:mm" or "+hhmm". The reader and the validator both
 * use this one function, so they accept and reject the same timestamps. */
gboolean  fc_time_parse_rfc3339  (const char  *text,
                                  gint64      *out_ns);
/* "2022-09-01T09:45:00.000000Z": microseconds, or nanoseconds when the
 * instant is not a whole microsecond; always UTC. */
char     *fc_time_format_rfc3339 (gint64       unix_ns);

/*
 * Seconds (the float timestamps of V2 samples and transaction events) carry
 * microseconds, the precision Sentry keeps. The one rounding rule: ns -> s
 * drops what lies below the microsecond (floor), so that the value read back
 * has the model's whole microseconds; s -> ns rounds to the nearest ns (exact
 * for every value ns -> s produces).
 */
double    fc_time_ns_to_s        (gint64       ns);
gint64    fc_time_s_to_ns        (double       s);
/* ns -> "1710805788.500000" with integer arithmetic (a double holds 1.7e9 s
 * only to ~0.2 µs); the same floor as fc_time_ns_to_s(). */
void      fc_time_format_seconds (gint64       unix_ns,
                                  char        *buf,
                                  gsize        buf_len);
/* Seconds as JSON number text ("1724762625.5756555", "1.7e9") -> ns, exact
 * (no double in between), rounded to the nearest ns; FALSE when negative
 * (-0 is 0), not a number or beyond FC_TIME_MAX_S. */
gboolean  fc_time_parse_seconds  (const char  *text,
                                  gsize        len,
                                  gint64      *out_ns);

/* A random UUID v4 as 32 lowercase hex digits (the form Sentry ids take). */
char     *fc_uuid_hex_new        (void);
/* A random span id: 16 lowercase hex digits. */
char     *fc_span_id_hex_new     (void);
/* TRUE for 32 hex digits, or a hyphenated 8-4-4-4-12 UUID; @canonical (may be
 * NULL) says whether it is the form the specs ask for: 32 lowercase hex. */
gboolean  fc_uuid_is_valid       (const char  *str,
                                  gboolean    *canonical);
/* TRUE for exactly @len lowercase or uppercase hex digits */
gboolean  fc_hex_is_valid        (const char  *str,
                                  gsize        len);

G_END_DECLS
