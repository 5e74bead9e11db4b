/* fc-transport-error.h - the transport layer's error domain: envelopes that did not reach Sentry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Messages name what was not sent and why:
 * "Chunk not sent: it is not a V2 profile chunk". */

#define FC_TRANSPORT_ERROR (fc_transport_error_quark ())

typedef enum {
  FC_TRANSPORT_ERROR_FAILED,
  FC_TRANSPORT_ERROR_INVALID_DSN,
  FC_TRANSPORT_ERROR_RATE_LIMITED,
  FC_TRANSPORT_ERROR_REJECTED,  /* 400/403/413: permanent, envelope kept aside */
  FC_TRANSPORT_ERROR_RETRY,     /* 5xx or network: retry later */
  FC_TRANSPORT_ERROR_INVALID,   /* payload failed validation, not sent */
} FcTransportError;

GQuark fc_transport_error_quark (void);

G_END_DECLS
