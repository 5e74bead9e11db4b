/* fc-format-error.h - the formats layer's error domain: bytes we cannot read or write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Messages name the problem and the place:
 * "sample 4012: stack_id 90210 but only 513 stacks". */

#define FC_FORMAT_ERROR (fc_format_error_quark ())

typedef enum {
  FC_FORMAT_ERROR_UNSUPPORTED,  /* valid JSON, but not a format we read */
  FC_FORMAT_ERROR_SYNTAX,       /* not JSON, truncated, invalid UTF-8, too deep */
  FC_FORMAT_ERROR_TYPE,         /* a key holds the wrong JSON type */
  FC_FORMAT_ERROR_RANGE,        /* dangling ids, negative or absurd numbers */
  FC_FORMAT_ERROR_MISSING,      /* a required key is missing */
  FC_FORMAT_ERROR_TOO_LARGE,    /* beyond the reader's limits */
  FC_FORMAT_ERROR_ENVELOPE,     /* malformed envelope framing */
} FcFormatError;

GQuark fc_format_error_quark (void);

G_END_DECLS
