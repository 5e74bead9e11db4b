/* fc-cli-send.c - flamecast-cli send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-cli.h"

int
fc_cli_send (int argc, char **argv)
{
  fprintf (stderr, "flamecast-cli send: not implemented yet\n");
  return 2;
}
