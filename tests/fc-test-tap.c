/* fc-test-tap.c - the TAP stream belongs to the test alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * meson parses a test's stdout as TAP. A program the test starts without a pipe of its own (a
 * target launched by the recorder, which gives it the caller's stdout as `record -- CMD` must,
 * a shell, the CLI) would write into that stream: a target's "ready" became an "UNKNOWN" TAP
 * line, and a line written while GLib writes one of its own can cut an "ok" in two. So before
 * main() runs, the TAP stream moves to a descriptor that no child inherits (close-on-exec) and
 * descriptor 1, which children get, becomes the test's stderr: what they print is in the log,
 * never in the TAP. GLib writes TAP through the stdio stream stdout, which follows the move.
 * Linked whole into every test (fc_test_util_dep), so no test has to ask for it.
 */

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

__attribute__ ((constructor)) static void
fc_test_tap_keep_own (void)
{
  int tap = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  FILE *stream;

  if (tap < 0)
    return;
  stream = fdopen (tap, "w");
  if (stream == NULL || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0)
    {
      if (stream != NULL)
        fclose (stream);
      else
        close (tap);
      return;
    }
  /* a line at a time, as GLib expects of a stdout that meson reads as it comes */
  setvbuf (stream, NULL, _IOLBF, 0);
  stdout = stream;
}
