/* fc-test-relay.h - a fake Relay for transport tests: SoupServer on 127.0.0.1 in its own thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fake Relay runs in its own thread with its own main context, so both
 * the asynchronous flush (driven by the test's main context) and the
 * blocking flush (a private context) can talk to it. It checks the path,
 * the auth header and the framing of every envelope, and answers from a
 * script: 200, 400 with a reason, 403, 413, 429 with limits, 500, 503, a
 * dropped connection, an answer held until the test releases it, no answer.
 * relay_free() fails the test if any request broke the protocol.
 */

#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "fc-dsn.h"

#define KEY     "0123456789abcdef0123456789abcdef"
#define SECRET  "fedcba9876543210fedcba9876543210"
#define PROJECT "42"

typedef enum {
  REPLY_OK,
  REPLY_OK_WITH_LIMITS,   /* 200 + X-Sentry-Rate-Limits: 30:profile_chunk:key */
  REPLY_400,
  REPLY_403,
  REPLY_413,
  REPLY_429_LIMITS,       /* 429 + X-Sentry-Rate-Limits: 60:profile_chunk;profile:key */
  REPLY_429_RETRY_AFTER,  /* 429 + Retry-After: 30 */
  REPLY_500,
  REPLY_503,
  REPLY_503_RETRY_AFTER,  /* 503 + Retry-After: relay->retry_after ("7" when NULL) */
  REPLY_DROP,             /* close the connection without an answer */
  REPLY_HOLD,             /* 200 once the test calls relay_release(): a request in flight
                           * for as long as the test needs, however loaded the machine */
  REPLY_NEVER,            /* no answer until the relay is freed: beyond any client timeout */
} Reply;

typedef struct {
  GMutex        mutex;
  GCond         cond;
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  SoupServer   *server;
  guint         port;
  gboolean      ready;
  gboolean      tls;

  /* guarded by mutex */
  GQueue        script;       /* Reply, GINT_TO_POINTER; REPLY_OK when empty */
  GPtrArray    *requests;     /* GBytes*: every envelope received, decompressed */
  GPtrArray    *delivered;    /* GBytes*: envelopes answered with a 2xx */
  GPtrArray    *problems;     /* char*: protocol violations */
  GPtrArray    *held;         /* GSource*: the REPLY_HOLD answers not released yet */
  guint         n_gzipped;
  char         *retry_after;  /* for REPLY_503_RETRY_AFTER: seconds or an HTTP date */
} Relay;

Relay  *relay_new        (void);
/* HTTPS with a self-signed certificate for 127.0.0.1 (tests/data/fake-relay-tls.pem):
 * a client that verifies certificates must refuse it. */
Relay  *relay_new_tls    (void);
void    relay_free       (Relay *relay);
/* Replies for the next requests, ended by -1; REPLY_OK once they run out. */
void    relay_script     (Relay *relay,
                          ...);
guint   relay_n_requests (Relay *relay);
/* Answers every REPLY_HOLD request received so far (200). */
void    relay_release    (Relay *relay);
void    relay_set_retry_after (Relay      *relay,
                               const char *value);
FcDsn  *relay_dsn        (Relay *relay);
