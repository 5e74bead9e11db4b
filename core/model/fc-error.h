/* fc-error.h - error domains of libflamecast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Messages name the problem and the place:
 * "sample 4012: stack_id 90210 but only 513 stacks". */

#define FC_FORMAT_ERROR    (fc_format_error_quark ())
#define FC_SAMPLER_ERROR   (fc_sampler_error_quark ())
#define FC_TRANSPORT_ERROR (fc_transport_error_quark ())
#define FC_SETTINGS_ERROR  (fc_settings_error_quark ())

typedef enum {
  FC_FORMAT_ERROR_UNSUPPORTED,  /* valid JSON, but not a format we read */
  FC_FORMAT_ERROR_SYNTAX,       /* not JSON, truncated, invalid UTF-8, too deep */
  FC_FORMAT_ERROR_TYPE,         /* a key holds the wrong JSON type */
  FC_FORMAT_ERROR_RANGE,        /* dangling ids, negative or absurd numbers */
  FC_FORMAT_ERROR_MISSING,      /* a required key is missing */
  FC_FORMAT_ERROR_TOO_LARGE,    /* beyond the reader's limits */
  FC_FORMAT_ERROR_ENVELOPE,     /* malformed envelope framing */
} FcFormatError;

typedef enum {
  FC_SAMPLER_ERROR_FAILED,
  FC_SAMPLER_ERROR_PERMISSION,  /* EPERM: yama, other user, container, already traced */
  FC_SAMPLER_ERROR_NO_PROCESS,  /* ESRCH: no such process / it exited */
  FC_SAMPLER_ERROR_NOT_SUPPORTED, /* e.g. perf events not permitted */
} FcSamplerError;

typedef enum {
  FC_TRANSPORT_ERROR_FAILED,
  FC_TRANSPORT_ERROR_INVALID_DSN,
  FC_TRANSPORT_ERROR_RATE_LIMITED,
  FC_TRANSPORT_ERROR_REJECTED,  /* 400/403/413: permanent, envelope kept aside */
  FC_TRANSPORT_ERROR_RETRY,     /* 5xx or network: retry later */
  FC_TRANSPORT_ERROR_INVALID,   /* payload failed validation, not sent */
} FcTransportError;

typedef enum {
  FC_SETTINGS_ERROR_INVALID,
} FcSettingsError;

GQuark fc_format_error_quark    (void);
GQuark fc_sampler_error_quark   (void);
GQuark fc_transport_error_quark (void);
GQuark fc_settings_error_quark  (void);

G_END_DECLS
