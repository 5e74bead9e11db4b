/* fc-helper-error.h - the helper's errors, as the D-Bus names its callers match
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  FC_HELPER_ERROR_FAILED,           /* io.github.flamecast.Helper1.Error.Failed */
  FC_HELPER_ERROR_NOT_AUTHORIZED,   /* ...Error.NotAuthorized: polkit said no */
  FC_HELPER_ERROR_NO_PROCESS,       /* ...Error.NoProcess: no such process or thread */
  FC_HELPER_ERROR_INVALID_ARGUMENT, /* ...Error.InvalidArgument */
} FcHelperError;

#define FC_HELPER_ERROR (fc_helper_error_quark ())
GQuark fc_helper_error_quark (void);

G_END_DECLS
