/* fc-cli.h - subcommands of flamecast-cli; each lives in fc-cli-NAME.c and only calls core
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Each returns the process exit status. argv[0] is the subcommand name. */
int fc_cli_inspect  (int argc, char **argv);
int fc_cli_validate (int argc, char **argv);
int fc_cli_convert  (int argc, char **argv);
int fc_cli_record   (int argc, char **argv);
int fc_cli_send     (int argc, char **argv);
int fc_cli_diff     (int argc, char **argv);
int fc_cli_doctor   (int argc, char **argv);

G_END_DECLS
