/* fc-test-hostile-server.h - an HTTP server on 127.0.0.1 that misbehaves on purpose, bounded in time and bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thread with a listening socket and plain blocking I/O (no HTTP
 * library between the test and the bytes): it reads each request whole,
 * keeps it, and answers as its mode says. Every misbehaviour has an end
 * (a drip stops after a minute, a huge answer after 512 MiB, silence when
 * the client goes or after two minutes), so a client that does not defend
 * itself makes a test fail, never hang.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  HOSTILE_OK,        /* 200, "{}" */
  HOSTILE_500,       /* 500, "{}" */
  HOSTILE_DRIP,      /* a 200 answer one byte every 100 ms, for at most a minute */
  HOSTILE_HUGE,      /* 200 claiming 3 GB, zeros as fast as the client reads, at most 512 MiB */
  HOSTILE_SILENT,    /* reads the request, then never answers (until the client goes) */
  HOSTILE_DEEP_400,  /* 400 whose JSON body is 60000 '[' (a recursive parser overflows its stack) */
} HostileMode;

#define HOSTILE_HUGE_MAX (G_GUINT64_CONSTANT (512) << 20)

typedef struct _HostileServer HostileServer;

HostileServer *hostile_server_new          (HostileMode    mode);
void           hostile_server_free         (HostileServer *server);
guint          hostile_server_get_port     (HostileServer *server);
void           hostile_server_set_mode     (HostileServer *server,
                                            HostileMode    mode);
/* requests read whole so far */
guint          hostile_server_n_requests   (HostileServer *server);
/* the request line ("POST /api/42/envelope/") and body of request @i */
char          *hostile_server_dup_request  (HostileServer *server,
                                            guint          i,
                                            GBytes       **body);
/* Blocks until @n requests were read whole, or fails the test after FC_TEST_DEADLINE_SECONDS. */
void           hostile_server_wait         (HostileServer *server,
                                            guint          n);
/* Blocks until @n answers were given (or given up: the client went), or
 * fails the test after FC_TEST_DEADLINE_SECONDS. */
void           hostile_server_wait_answered (HostileServer *server,
                                             guint          n);
/* bytes of answer written to the client that went last (HOSTILE_HUGE) */
guint64        hostile_server_bytes_sent   (HostileServer *server);

G_END_DECLS
