/* fc-release.h - the release a recording names when the user gives none
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "<executable name>@<first 12 hex digits of its GNU build id>" for the
 * program @pid runs (/proc/PID/exe), or of the file's SHA-256 when it has no
 * build id: it tells builds of one program apart, as SDK releases do.
 * NULL when the executable cannot be read. */
char *fc_release_default_for_pid  (GPid        pid);
/* The same for an executable file. */
char *fc_release_default_for_file (const char *path,
                                   const char *name);

G_END_DECLS
