/* fc-test-debuginfod.h - Debian's debuginfod on 127.0.0.1 serving the stripped target's debug file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the tests of names fetched by build-id (tests/capture/test-debuginfod.c,
 * tests/app/window/test-window-symbols.c): fc-target-stripped has no symbol
 * table and no DWARF; its debug file (objcopy --only-keep-debug) is served
 * from a folder of the test's own, and read here for what it names.
 */

#pragma once

#include <gio/gio.h>

#include "flamecast.h"

G_BEGIN_DECLS

/* where fc_test_unnamed_document() says the program was loaded */
#define FC_TEST_LOAD_ADDRESS G_GUINT64_CONSTANT (0x555555554000)

typedef struct {
  guint64  start;
  guint64  end;
  char    *name;
} FcTestFunction;

typedef struct {
  char        *dir;
  char        *url;
  GSubprocess *server;
  gboolean    *exited;   /* set when it has exited (a GRcBox the wait shares) */
} FcTestDebuginfod;

/* the GNU build-id of the ELF file at @path, in hex */
char             *fc_test_read_build_id          (const char       *path);
/* the function symbols (FcTestFunction) of the ELF file at @path */
GArray           *fc_test_read_functions         (const char       *path);
/* a server under @dir serving @debug_file, up and answering for @build_id */
FcTestDebuginfod *fc_test_debuginfod_start       (const char       *dir,
                                                  const char       *debug_file,
                                                  const char       *build_id);
void              fc_test_debuginfod_stop        (FcTestDebuginfod *server);
/* A document of one chunk with a frame "NAME+0xSTART" (NAME @program's basename) for each of
 * @functions, as the recorder writes it without debug info, @program's image with @build_id */
FcDocument       *fc_test_unnamed_document       (const char       *program,
                                                  const char       *build_id,
                                                  GArray           *functions);

G_END_DECLS
