/* test-i18n.c - the built flamecast-cli in German: its own messages, core's, and plurals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CLI binds its text domain to the catalogs compiled in the build tree's
 * po/ (fc_locale_dir()); LANGUAGE=de with the C.UTF-8 locale picks German
 * (GNU gettext ignores LANGUAGE only in the plain "C" locale), so the test
 * needs no generated de_DE locale. The same runs without LANGUAGE print
 * English, so a catalog that is not found fails the test.
 */

#include <string.h>
#include <gio/gio.h>

#include "fc-test-fixtures.h"

typedef struct {
  int   status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* flamecast-cli with the arguments (NULL-terminated; "@name" is a file of
 * tests/data), in the C.UTF-8 locale, with LANGUAGE set to @language or unset */
static void
run_cli (Run        *run,
         const char *language,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("FC_CLI");
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, g_strdup (cli));
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, arg[0] == '@' ? fc_test_fixture_path (arg + 1) : g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LANG");
  g_subprocess_launcher_unsetenv (launcher, "LC_MESSAGES");
  if (language != NULL)
    g_subprocess_launcher_setenv (launcher, "LANGUAGE", language, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
  g_test_message ("$ LANGUAGE=%s %s ... -> %d\n%s%s", language ? language : "", cli, run->status, run->out,
                  run->err);
}

/* the CLI's own text: usage, the command list, a usage error */
static void
test_cli_messages (void)
{
  g_auto(Run) de = { 0 };
  g_auto(Run) en = { 0 };
  g_auto(Run) usage = { 0 };

  run_cli (&de, "de", "--help", NULL);
  g_assert_cmpint (de.status, ==, 0);
  g_assert_nonnull (strstr (de.out, "Aufruf: flamecast-cli BEFEHL [OPTIONEN...]"));
  g_assert_nonnull (strstr (de.out, "Befehle:"));
  g_assert_nonnull (strstr (de.out, "Zwei Profile nach Funktion und Aufrufpfad vergleichen"));
  g_assert_null (strstr (de.out, "Commands:"));

  run_cli (&en, NULL, "--help", NULL);
  g_assert_cmpint (en.status, ==, 0);
  g_assert_nonnull (strstr (en.out, "Commands:"));
  g_assert_null (strstr (en.out, "Befehle:"));

  run_cli (&usage, "de", "inspect", NULL);
  g_assert_cmpint (usage.status, ==, 2);
  g_assert_nonnull (strstr (usage.err, "flamecast-cli inspect: genau eine DATEI erwartet (siehe --help)"));
}

/* a GError made in core (fc-dsn.c), in the library's own text domain */
static void
test_core_error (void)
{
  g_auto(Run) de = { 0 };
  g_auto(Run) en = { 0 };

  run_cli (&de, "de", "send", "--dsn", "not-a-dsn", "@good/compact-v2.json", NULL);
  g_assert_cmpint (de.status, ==, 2);
  g_assert_nonnull (strstr (de.err, "Ungültiger DSN „***“: kein Schema (erwartet: https://SCHLÜSSEL@HOST/PROJEKT_ID)"));

  run_cli (&en, NULL, "send", "--dsn", "not-a-dsn", "@good/compact-v2.json", NULL);
  g_assert_cmpint (en.status, ==, 2);
  g_assert_nonnull (strstr (en.err, "Invalid DSN “***”: no scheme (expected https://KEY@HOST/PROJECT_ID)"));
}

/* ngettext with the catalog's Plural-Forms: one warning, then two */
static void
test_plurals (void)
{
  g_auto(Run) one = { 0 };
  g_auto(Run) two = { 0 };
  g_auto(Run) en = { 0 };

  run_cli (&one, "de", "validate", "@good/compact-v2.json", NULL);
  g_assert_cmpint (one.status, ==, 0);
  g_assert_nonnull (strstr (one.out, ": in Ordnung (1 Warnung)\n"));
  /* a problem found by the core validator, with its own plural */
  g_assert_nonnull (strstr (one.out, ": Warnung: thread 2: 1 Sample mit nicht leerem Stack: Relay verwirft diesen Thread\n"));

  run_cli (&two, "de", "validate", "@good/length-no-final-newline.envelope", NULL);
  g_assert_cmpint (two.status, ==, 0);
  g_assert_nonnull (strstr (two.out, ": in Ordnung (2 Warnungen)\n"));

  run_cli (&en, NULL, "validate", "@good/length-no-final-newline.envelope", NULL);
  g_assert_nonnull (strstr (en.out, ": ok (2 warnings)\n"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/i18n/cli-messages", test_cli_messages);
  g_test_add_func ("/cli/i18n/core-error", test_core_error);
  g_test_add_func ("/cli/i18n/plurals", test_plurals);

  return g_test_run ();
}
