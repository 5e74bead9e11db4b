/* fc-test-util.h - what the tests share: temporary trees, target programs, test data,
 * private homes, waits on a condition with a deadline, a terminal, statistical margins,
 * skips that say why
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How long a wait may take before its test is called stuck. Far beyond what a loaded machine
 * under a sanitizer needs for anything the tests wait for: reaching it is a hang, not luck. */
#define FC_TEST_DEADLINE_SECONDS 90

/* ---- files ---- */

char *fc_test_make_tmp_dir (const char *prefix);
void  fc_test_remove_tree  (const char *path);
char *fc_test_data_path    (const char *relative);
char *fc_test_target_path  (const char *name);

/* ---- processes ---- */

/* A GSpawnChildSetupFunc: the child is killed when the test ends, however it ends (an abort
 * included), so that no target outlives a failed test holding its output pipe open. */
void  fc_test_die_with_test (gpointer user_data);

/* ---- a private home ---- */

void  fc_test_init_private_home (int    *argc,
                                 char ***argv);
int   fc_test_run               (void);

/* ---- waits ---- */

typedef struct {
  const char *what;
  const char *file;
  int         line;
  gint64      deadline;
  guint       wake_id;
} FcTestWait;

void  fc_test_wait_begin   (FcTestWait *wait,
                            const char *what,
                            const char *file,
                            int         line);
void  fc_test_wait_iterate (FcTestWait *wait);
void  fc_test_wait_poll    (FcTestWait *wait);
void  fc_test_wait_end     (FcTestWait *wait);

/* Dispatches what the default main context had ready when called (an idle at the default
 * priority runs in the same iteration). Unlike iterating "while anything is ready", it ends
 * while a live recording keeps queueing work. */
void  fc_test_drain        (void);

/**
 * fc_test_spin_until:
 * @cond: an expression that a main-loop callback makes true
 *
 * Iterates the default main context until @cond holds; a test still waiting after
 * %FC_TEST_DEADLINE_SECONDS fails, naming @cond and the place.
 */
#define fc_test_spin_until(cond)                                          \
  G_STMT_START {                                                          \
    FcTestWait fc_test_wait_;                                             \
    fc_test_wait_begin (&fc_test_wait_, #cond, __FILE__, __LINE__);       \
    while (!(cond))                                                       \
      fc_test_wait_iterate (&fc_test_wait_);                              \
    fc_test_wait_end (&fc_test_wait_);                                    \
  } G_STMT_END

/**
 * fc_test_poll_until:
 * @cond: an expression about the world outside this process (/proc, files)
 *
 * Checks @cond every millisecond or so, iterating the default main context in between,
 * until it holds; fails after %FC_TEST_DEADLINE_SECONDS like fc_test_spin_until().
 */
#define fc_test_poll_until(cond)                                          \
  G_STMT_START {                                                          \
    FcTestWait fc_test_wait_;                                             \
    fc_test_wait_begin (&fc_test_wait_, #cond, __FILE__, __LINE__);       \
    while (!(cond))                                                       \
      fc_test_wait_poll (&fc_test_wait_);                                 \
    fc_test_wait_end (&fc_test_wait_);                                    \
  } G_STMT_END

/**
 * fc_test_cond_wait_until:
 * @cond: a #GCond signalled whenever @expr may have changed
 * @mutex: the #GMutex that guards @expr, held by the caller
 * @expr: the condition waited for
 *
 * Waits on @cond until @expr holds; fails after %FC_TEST_DEADLINE_SECONDS.
 */
#define fc_test_cond_wait_until(cond, mutex, expr)                                            \
  G_STMT_START {                                                                              \
    gint64 fc_test_deadline_ = g_get_monotonic_time () +                                      \
                               FC_TEST_DEADLINE_SECONDS * G_TIME_SPAN_SECOND;                 \
    while (!(expr))                                                                           \
      if (!g_cond_wait_until ((cond), (mutex), fc_test_deadline_) && !(expr))                 \
        g_error ("%s:%d: still waiting for %s after %d s", __FILE__, __LINE__, #expr,        \
                 FC_TEST_DEADLINE_SECONDS);                                                   \
  } G_STMT_END

/* ---- a terminal ---- */

GPid  fc_test_spawn_on_terminal (const char * const    *argv,
                                 GSpawnChildSetupFunc   child_setup,
                                 int                   *terminal);
void  fc_test_terminal_read     (int                    terminal,
                                 GString               *text);
guint fc_test_terminal_count    (int                    terminal,
                                 GString               *text,
                                 const char            *unit);

/* ---- statistics ---- */

double fc_test_binomial_margin (double n,
                                double p);

/* ---- skips ---- */

/* What a test may need that a kernel can refuse. A test asks fc_test_skip_unless() before it
 * starts, never after the code under test failed: a skip names the facility ("needs
 * perf-events: ..."), why this machine refuses it and the setting that enables it, and says
 * what was tested instead. `make check-skips` (in `make check`) fails a run where a test
 * skipped for a facility that tests/fc-test-facilities finds available. */
typedef enum {
  FC_TEST_FACILITY_PERF_EVENTS,      /* perf_event_open() on a child: a cpu clock with user
                                      * registers and stack, context switches, a ring buffer */
  FC_TEST_FACILITY_PTRACE_NON_CHILD, /* PTRACE_SEIZE of a process that is not a descendant (a
                                      * sibling): what `record --pid` does (Yama refuses it) */
  FC_TEST_FACILITY_OTHER_USER,       /* this build's programs run as another user (nobody), from
                                      * root: every folder above the build tree lets others in */
  FC_TEST_N_FACILITIES
} FcTestFacility;

const char *fc_test_facility_name      (FcTestFacility   facility);
gboolean    fc_test_facility_lookup    (const char      *name,
                                        FcTestFacility  *facility);
gboolean    fc_test_facility_available (FcTestFacility   facility,
                                        char           **why_not);
gboolean    fc_test_skip_unless        (FcTestFacility   facility,
                                        const char      *instead);

G_END_DECLS
