/* test-runtimes.c - Python, Node, Java, Go and Rust programs with a known split, recorded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each target (tests/targets/split.*) runs two functions with the same loop, 7 iterations of
 * the hot one for 3 of the cold one: 70% of its samples belong to the first by construction.
 * A recording must name both as their language does, find that split within five standard
 * deviations of the samples taken (plus 3 points for caches and alignment, which no two
 * functions share exactly), and reach the stacks' roots.
 *
 * Runtimes: Debian's (python3.11, nodejs, openjdk-17-jdk-headless, golang-go, rustc, all in
 * the Makefile's DEB_PACKAGES) must be there; every other CPython found under pyenv is
 * recorded too, and the test output lists what is not there.
 */

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fc-capture-summary.h"
#include "fc-jitdump.h"
#include "fc-recorder.h"
#include "fc-test-capture.h"
#include "fc-validate.h"

#define DEADLINE_US (180 * G_USEC_PER_SEC)

typedef struct {
  const char * const *argv;    /* launch this, or */
  GPid                pid;     /* attach to this */
  FcSamplerMode       mode;
  guint               frequency;
  FcStacksMode        stacks;
  guint               min_samples; /* stop once this many were taken; 0: when the target exits */
} Plan;

typedef struct {
  GPtrArray        *chunks;
  FcCaptureSummary *summary;
  gboolean          exited;
} Recorded;

static void
recorded_clear (Recorded *r)
{
  g_clear_pointer (&r->chunks, g_ptr_array_unref);
  g_clear_pointer (&r->summary, fc_capture_summary_free);
}

static void
chunk_cb (FcRecorder *recorder,
          FcProfile  *chunk,
          Recorded   *r)
{
  g_ptr_array_add (r->chunks, g_object_ref (chunk));
}

static void
exited_cb (FcRecorder *recorder,
           int         status,
           Recorded   *r)
{
  r->exited = TRUE;
}

static void
iterate_until_stopped (FcRecorder *recorder)
{
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;

  while (fc_recorder_get_stopping (recorder) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (fc_recorder_get_stopping (recorder));
}

static void
run_plan (const Plan *plan,
          Recorded   *r)
{
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;
  GPid pid;

  r->chunks = g_ptr_array_new_with_free_func (g_object_unref);
  g_object_set (recorder, "mode", plan->mode, "frequency", plan->frequency, "stacks", plan->stacks, NULL);
  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_cb), r);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (exited_cb), r);
  if (plan->argv != NULL)
    g_assert_true (fc_recorder_spawn (recorder, plan->argv, NULL, &error));
  else
    g_assert_true (fc_recorder_attach (recorder, plan->pid, &error));
  g_assert_no_error (error);
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  while (!r->exited && (plan->min_samples == 0 || fc_recorder_get_n_samples (recorder) < plan->min_samples) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (g_get_monotonic_time (), <, deadline);
  fc_recorder_stop (recorder);
  iterate_until_stopped (recorder);
  r->summary = fc_recorder_dup_summary (recorder);
  if (plan->argv != NULL && !r->exited)
    fc_recorder_end_target (recorder, SIGKILL, 0);
  pid = fc_recorder_get_pid (recorder);
  fc_recorder_detach (recorder);
  /* ours to reap: the recorder goes with this function (it may have reaped it already) */
  if (plan->argv != NULL)
    waitpid (pid, NULL, 0);
  {
    g_autofree char *text = fc_capture_summary_format (r->summary);
    g_test_message ("%s", text);
  }
}

/* ---- reading what was recorded ---- */

static const char *
frame_function (FcProfile *chunk,
                guint32    frame)
{
  return fc_profile_string (chunk, fc_profile_get_frame (chunk, frame)->function);
}

typedef struct {
  const char *hot;      /* a function name, or a part of one (JIT names carry more) */
  const char *cold;
  gboolean    exact;
  const char *thread;   /* count this thread's samples only (its tid), or NULL */
  guint       n_all;
  guint       n_hot;
  guint       n_cold;
  guint       n_rooted;  /* of the samples naming hot or cold: the stacks of the work measured */
  const FcFrame *hot_frame;  /* one of the hot function's frames, with its chunk */
  FcProfile  *hot_chunk;
} Count;

static gboolean
matches (const Count *c,
         const char  *function,
         const char  *name)
{
  return c->exact ? strcmp (function, name) == 0 : strstr (function, name) != NULL;
}

static void
count (GPtrArray *chunks,
       Count     *c)
{
  for (guint k = 0; k < chunks->len; k++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, k);
      guint n = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n);

      for (guint i = 0; i < n; i++)
        {
          guint32 frames[512];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          const FcThread *t = fc_profile_get_thread (chunk, samples[i].thread);

          if (c->thread != NULL && strcmp (fc_profile_string (chunk, t->tid), c->thread) != 0)
            continue;
          gboolean named = FALSE;

          c->n_all++;
          /* the innermost of the two: the one running */
          for (guint f = 0; f < depth && !named; f++)
            {
              const char *function = frame_function (chunk, frames[f]);

              if (matches (c, function, c->hot))
                {
                  c->n_hot++;
                  c->hot_frame = fc_profile_get_frame (chunk, frames[f]);
                  c->hot_chunk = chunk;
                  named = TRUE;
                }
              else if (matches (c, function, c->cold))
                {
                  c->n_cold++;
                  named = TRUE;
                }
            }
          /* start-up (an interpreter importing from C, a JVM loading) has other roots: the
           * stacks that matter are those of the work */
          for (guint f = depth, seen = 0; named && f-- > 0 && seen < 4; seen++)
            if (fc_capture_is_root_function (frame_function (chunk, frames[f])))
              {
                c->n_rooted++;
                break;
              }
        }
    }
}

/* The split by construction, within five standard deviations of what was sampled */
static void
assert_split (const Count *c,
              const char  *what)
{
  guint n = c->n_hot + c->n_cold;
  double share, margin;

  g_test_message ("%s: %u samples, %u name %s, %u name %s (%.1f%% of those; 70%% by construction), "
                  "%u of those reach a root (%.1f%%)", what, c->n_all, c->n_hot, c->hot, c->n_cold, c->cold,
                  n > 0 ? 100.0 * c->n_hot / n : 0.0, c->n_rooted, n ? 100.0 * c->n_rooted / n : 0.0);
  g_assert_cmpuint (n, >=, 100);
  /* most samples name one of the two: the program spends its time there */
  g_assert_cmpuint (n * 2, >=, c->n_all);
  share = (double) c->n_hot / n;
  margin = 5 * sqrt (0.7 * 0.3 / n) + 0.03;
  g_assert_cmpfloat (fabs (share - 0.7), <=, margin);
}

static void
assert_valid (GPtrArray  *chunks,
              const char *platform)
{
  g_assert_cmpuint (chunks->len, >, 0);
  for (guint k = 0; k < chunks->len; k++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, k);
      g_autoptr(GPtrArray) problems = fc_validate_profile (chunk);

      for (guint i = 0; i < problems->len; i++)
        {
          g_autofree char *text = fc_problem_to_string (g_ptr_array_index (problems, i));
          g_test_message ("%s", text);
        }
      g_assert_false (fc_problems_has_errors (problems));
      if (platform != NULL)
        g_assert_cmpstr (fc_profile_get_platform (chunk), ==, platform);
    }
}

static gboolean
summary_says (const FcCaptureSummary *summary,
              const char             *text)
{
  for (guint i = 0; i < summary->runtimes->len; i++)
    if (strstr (g_ptr_array_index (summary->runtimes, i), text) != NULL)
      return TRUE;
  return FALSE;
}

static char *
source_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "targets", name, NULL);
}

static char *
built_path (const char *name)
{
  const char *dir = g_getenv ("FC_TARGETS_DIR");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static int
line_of (const char *file,
         const char *marker)
{
  g_autofree char *path = source_path (file);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], marker) != NULL)
      return i + 1;
  g_assert_not_reached ();
}

/* A program a test needs: Debian's are required (DEB_PACKAGES installs them). */
static char *
require_program (const char *name,
                 const char *package)
{
  char *path = g_find_program_in_path (name);

  if (path == NULL)
    g_error ("%s is not installed: the Debian package %s is (the Makefile's DEB_PACKAGES)", name, package);
  return path;
}

/* ---- Python ---- */

typedef struct {
  char *path;      /* the interpreter */
  char *version;   /* "3.11.2" */
  char *label;     /* "debian-3.11.2", "pyenv-3.12.1" */
} Python;

static GPtrArray *pythons;       /* Python*: the CPythons to test */
static GPtrArray *old_pythons;   /* Python*: older ones, whose frames are not read */

static void
python_free (Python *py)
{
  g_free (py->path);
  g_free (py->version);
  g_free (py->label);
  g_free (py);
}

static char *
python_version (const char *path)
{
  const char *argv[] = { path, "-c", "import platform; print(platform.python_version())", NULL };
  g_autofree char *out = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    return NULL;
  return g_strstrip (g_strdup (out));
}

static void
add_python (const char *path,
            const char *origin)
{
  g_autofree char *version = python_version (path);
  Python *py;
  guint major = 0, minor = 0;

  if (version == NULL || sscanf (version, "%u.%u", &major, &minor) != 2)
    return;
  py = g_new0 (Python, 1);
  py->path = g_strdup (path);
  py->version = g_steal_pointer (&version);
  py->label = g_strdup_printf ("%s-%s", origin, py->version);
  g_ptr_array_add (major == 3 && minor >= 11 && minor <= 13 ? pythons : old_pythons, py);
}

static int
compare_python (gconstpointer a,
                gconstpointer b)
{
  const Python *x = *(Python * const *) a, *y = *(Python * const *) b;
  return strcmp (x->label, y->label);
}

/* Debian's python3.11, then pyenv's builds ($PYENV_ROOT or ~/.pyenv) */
static void
find_pythons (void)
{
  const char *root = g_getenv ("PYENV_ROOT");
  g_autofree char *home_root = g_build_filename (g_getenv ("HOME") ? g_getenv ("HOME") : "/", ".pyenv", NULL);
  g_autofree char *versions = g_build_filename (root != NULL ? root : home_root, "versions", NULL);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  pythons = g_ptr_array_new_with_free_func ((GDestroyNotify) python_free);
  old_pythons = g_ptr_array_new_with_free_func ((GDestroyNotify) python_free);
  if (!g_file_test ("/usr/bin/python3.11", G_FILE_TEST_IS_EXECUTABLE))
    g_error ("/usr/bin/python3.11 is not installed: the Debian package python3.11 is (DEB_PACKAGES)");
  add_python ("/usr/bin/python3.11", "debian");
  dir = g_dir_open (versions, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      guint major = 0, minor = 0;
      g_autofree char *exe = NULL;

      if (sscanf (name, "%u.%u", &major, &minor) != 2 || major != 3)
        continue;
      exe = g_strdup_printf ("%s/%s/bin/python%u.%u", versions, name, major, minor);
      if (g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE))
        add_python (exe, "pyenv");
    }
  g_ptr_array_sort (pythons, compare_python);
  g_ptr_array_sort (old_pythons, compare_python);
}

static void
report_pythons (void)
{
  static const char * const wanted[] = { "3.11", "3.12", "3.13" };

  for (guint w = 0; w < G_N_ELEMENTS (wanted); w++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < pythons->len; i++)
        found |= g_str_has_prefix (((Python *) g_ptr_array_index (pythons, i))->version, wanted[w]);
      g_test_message ("CPython %s: %s", wanted[w], found ? "tested" : "not on this machine, not tested");
    }
  for (guint i = 0; i < pythons->len; i++)
    g_test_message ("tested: %s (%s)", ((Python *) g_ptr_array_index (pythons, i))->label,
                    ((Python *) g_ptr_array_index (pythons, i))->path);
}

/* Python frames as the SDK sends them, on a platform python chunk */
static void
check_python_frames (Recorded   *r,
                     const char *what,
                     const char *thread)
{
  g_autofree char *script = source_path ("split.py");
  Count c = { "fc_hot", "fc_cold", TRUE, thread };
  int def_line = line_of ("split.py", "def fc_hot");
  int end_line = line_of ("split.py", "def fc_cold") - 1;
  FcProfile *chunk;
  const FcFrame *f;

  count (r->chunks, &c);
  assert_split (&c, what);
  g_assert_cmpuint (c.n_rooted * 10, >=, (c.n_hot + c.n_cold) * 9);
  chunk = c.hot_chunk;
  f = c.hot_frame;
  g_assert_cmpstr (fc_profile_string (chunk, f->abs_path), ==, script);
  g_assert_cmpstr (fc_profile_string (chunk, f->filename), ==, "split.py");
  g_assert_cmpstr (fc_profile_string (chunk, f->module), ==, "split");
  g_assert_cmpstr (fc_profile_string (chunk, f->platform), ==, "python");
  g_assert_cmpint (f->in_app, ==, FC_IN_APP_YES);
  g_assert_false (f->has_instruction_addr);
  g_assert_cmpint (f->lineno, >, def_line);
  g_assert_cmpint (f->lineno, <, end_line);
}

static const char *
main_tid (Recorded *r,
          char      buf[16])
{
  FcProfile *chunk = g_ptr_array_index (r->chunks, 0);
  guint n = 0;
  const FcSample *samples = fc_profile_get_samples (chunk, &n);
  guint lowest = G_MAXUINT;

  /* the main thread's tid is the process's, the lowest */
  for (guint i = 0; i < n; i++)
    lowest = MIN (lowest, (guint) atoi (fc_profile_string (chunk, fc_profile_get_thread (chunk, samples[i].thread)->tid)));
  g_snprintf (buf, 16, "%u", lowest);
  return buf;
}

static void
test_python_launch (gconstpointer data)
{
  const Python *py = data;
  g_autofree char *script = source_path ("split.py");
  const char *argv[] = { py->path, script, "0", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_AUTO, 600 };
  Recorded r = { 0 };

  run_plan (&plan, &r);
  assert_valid (r.chunks, "python");
  check_python_frames (&r, py->label, NULL);
  g_assert_true (summary_says (r.summary, "Python frames read from the interpreter's memory"));
  recorded_clear (&r);
}

/* wall mode: every thread, the one waiting without the GIL too */
static void
test_python_wall (gconstpointer data)
{
  const Python *py = data;
  g_autofree char *script = source_path ("split.py");
  const char *argv[] = { py->path, script, "0", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_WALL, 199, FC_STACKS_PYTHON, 800 };
  Recorded r = { 0 };
  char tid[16];
  guint n_sleeper = 0, n_other = 0;

  run_plan (&plan, &r);
  assert_valid (r.chunks, "python");
  check_python_frames (&r, py->label, main_tid (&r, tid));
  for (guint k = 0; k < r.chunks->len; k++)
    {
      FcProfile *chunk = g_ptr_array_index (r.chunks, k);
      guint n = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n);

      for (guint i = 0; i < n; i++)
        {
          guint32 frames[256];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          const char *thread = fc_profile_string (chunk, fc_profile_get_thread (chunk, samples[i].thread)->tid);

          if (strcmp (thread, tid) == 0 || depth == 0)
            continue;
          if (strcmp (frame_function (chunk, frames[0]), "fc_sleeper") == 0)
            n_sleeper++;
          else
            n_other++;
        }
    }
  g_test_message ("the sleeping thread: %u samples in fc_sleeper, %u elsewhere", n_sleeper, n_other);
  g_assert_cmpuint (n_sleeper, >=, 50);
  g_assert_cmpuint (n_sleeper, >=, 9 * n_other);
  /* the main thread's ticks before the interpreter ran Python are left out, and say so */
  fc_test_assert_ticks_add_up (r.summary, NULL);
  recorded_clear (&r);
}

static void
test_python_attach (gconstpointer data)
{
  const Python *py = data;
  g_autofree char *script = source_path ("split.py");
  const char *argv[] = { py->path, script, "0", NULL };
  g_autoptr(GError) error = NULL;
  Plan plan = { NULL, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_AUTO, 600 };
  Recorded r = { 0 };
  char buf[16] = { 0 };
  int out_fd, status;
  GPid pid;

  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                           NULL, &out_fd, NULL, &error));
  g_assert_no_error (error);
  /* "ready": both threads run Python */
  g_assert_cmpint (read (out_fd, buf, sizeof buf - 1), >, 0);
  g_assert_true (g_str_has_prefix (buf, "ready"));
  plan.pid = pid;
  run_plan (&plan, &r);
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  close (out_fd);
  assert_valid (r.chunks, "python");
  check_python_frames (&r, py->label, NULL);
  recorded_clear (&r);
}

/* mixed: native stacks with the Python frames in place of the interpreter's activations */
static void
test_python_mixed (gconstpointer data)
{
  const Python *py = data;
  g_autofree char *script = source_path ("split.py");
  const char *argv[] = { py->path, script, "0", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_MIXED, 600 };
  Recorded r = { 0 };
  Count c = { "fc_hot", "fc_cold", TRUE };
  guint n_both = 0;

  run_plan (&plan, &r);
  assert_valid (r.chunks, "native");
  count (r.chunks, &c);
  assert_split (&c, py->label);
  /* the interpreter's callers stay: Python frames sit on top of main() */
  for (guint k = 0; k < r.chunks->len; k++)
    {
      FcProfile *chunk = g_ptr_array_index (r.chunks, k);
      guint n = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n);

      for (guint i = 0; i < n; i++)
        {
          guint32 frames[512];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));
          gboolean python = FALSE, native_root = FALSE;

          for (guint f = 0; f < depth; f++)
            {
              const FcFrame *frame = fc_profile_get_frame (chunk, frames[f]);
              if (frame->platform != FC_STRING_NONE)
                python = TRUE;
              else if (python && fc_capture_is_root_function (frame_function (chunk, frames[f])))
                native_root = TRUE;
            }
          n_both += python && native_root;
        }
    }
  g_test_message ("%u samples have Python frames above a native root", n_both);
  g_assert_cmpuint (n_both * 2, >=, c.n_all);
  recorded_clear (&r);
}

/* an older CPython: recorded natively, and the summary names its version */
static void
test_python_unsupported (gconstpointer data)
{
  const Python *py = data;
  g_autofree char *script = source_path ("split.py");
  const char *argv[] = { py->path, script, "0", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 199, FC_STACKS_AUTO, 100 };
  Recorded r = { 0 };
  g_autofree char *minor = g_strndup (py->version, strrchr (py->version, '.') - py->version);
  g_autofree char *expected = g_strdup_printf ("CPython %s", minor);

  run_plan (&plan, &r);
  assert_valid (r.chunks, "native");
  g_assert_true (summary_says (r.summary, expected));
  g_assert_true (summary_says (r.summary, "is not supported"));
  recorded_clear (&r);
}

/* ---- Node ---- */

static void
record_node (const char *flag,
             Recorded   *r)
{
  g_autofree char *node = require_program ("node", "nodejs");
  g_autofree char *script = source_path ("split.js");
  const char *argv[] = { node, flag, script, "0", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_AUTO, 800 };

  if (flag == NULL)
    {
      argv[1] = script;
      argv[2] = "0";
      argv[3] = NULL;
    }
  run_plan (&plan, r);
  assert_valid (r->chunks, "native");
}

/* --perf-basic-prof: V8 names its code in /tmp/perf-PID.map */
static void
test_node_perf_map (void)
{
  Recorded r = { 0 };
  Count c = { "JS:*fcHot ", "JS:*fcCold ", FALSE };

  record_node ("--perf-basic-prof", &r);
  count (r.chunks, &c);
  assert_split (&c, "node --perf-basic-prof");
  g_assert_cmpuint (c.n_rooted * 10, >=, (c.n_hot + c.n_cold) * 9);
  g_assert_true (summary_says (r.summary, "Node.js: JIT code named from /tmp/perf-"));
  recorded_clear (&r);
}

/* Every JIT frame that @path (the jitdump as the run left it) names is named in the profile:
 * the file is read once more at the end, for the code sampled before it was written there. */
static void
assert_jitdump_names (GPtrArray  *chunks,
                      const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(FcJitTable) table = fc_jit_table_new ();
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  guint n_unnamed = 0, n_named_by_file = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  fc_jitdump_parse ((const guint8 *) contents, len, TRUE, table, &error);
  g_assert_no_error (error);
  for (guint k = 0; k < chunks->len; k++)
    {
      FcProfile *chunk = g_ptr_array_index (chunks, k);
      guint n = 0;
      const FcSample *samples = fc_profile_get_samples (chunk, &n);

      for (guint i = 0; i < n; i++)
        {
          guint32 frames[512];
          guint depth = fc_profile_stack_frames (chunk, samples[i].stack, frames, G_N_ELEMENTS (frames));

          for (guint f = 0; f < depth; f++)
            {
              const FcFrame *frame = fc_profile_get_frame (chunk, frames[f]);
              const FcJitEntry *e;

              if (strcmp (frame_function (chunk, frames[f]), "[JIT code]") != 0 || !frame->has_instruction_addr)
                continue;
              n_unnamed++;
              e = fc_jit_table_lookup (table, frame->instruction_addr);
              if (e == NULL && f > 0)
                e = fc_jit_table_lookup (table, frame->instruction_addr - 1);
              if (e != NULL)
                {
                  if (n_named_by_file++ < 5)
                    g_test_message ("frame 0x%" G_GINT64_MODIFIER "x (depth %u) unnamed, the jitdump names it %s",
                                    frame->instruction_addr, f, e->name);
                }
            }
        }
    }
  g_test_message ("%s: %u entries; %u JIT frames sampled without a name, %u of them named by the file",
                  path, fc_jit_table_get_n_entries (table), n_unnamed, n_named_by_file);
  g_assert_cmpuint (n_named_by_file, ==, 0);
}

/* --perf-prof: a jitdump file, mapped by the process */
static void
test_node_jitdump (void)
{
  g_autofree char *node = require_program ("node", "nodejs");
  g_autofree char *script = source_path ("split.js");
  g_autofree char *tmp = g_dir_make_tmp ("fc-jitdump-XXXXXX", NULL);
  g_autofree char *quoted_tmp = g_shell_quote (tmp);
  g_autofree char *quoted_node = g_shell_quote (node);
  g_autofree char *quoted_script = g_shell_quote (script);
  /* node writes jit-PID.dump into its working directory: a shell enters it and execs node. V8
   * buffers what it writes there: the last code it compiled is named once it exits, so it runs
   * to its end, 3 seconds of its own CPU time: node's start-up (not JIT code, named by no
   * jitdump) is then the same small share of the samples however loaded the machine is. */
  g_autofree char *command = g_strdup_printf ("cd %s && exec %s --perf-prof %s 3", quoted_tmp, quoted_node,
                                              quoted_script);
  const char *argv[] = { "/bin/sh", "-c", command, NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_AUTO, 0 };
  Recorded r = { 0 };
  Count c = { "fcHot", "fcCold", FALSE };
  g_autoptr(GDir) dir = NULL;
  const char *name;

  run_plan (&plan, &r);
  assert_valid (r.chunks, "native");
  count (r.chunks, &c);
  assert_split (&c, "node --perf-prof");
  g_assert_true (summary_says (r.summary, "JIT code named from the jitdump "));
  dir = g_dir_open (tmp, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp, name, NULL);

      if (g_str_has_suffix (name, ".dump"))
        assert_jitdump_names (r.chunks, path);
      g_unlink (path);
    }
  g_rmdir (tmp);
  recorded_clear (&r);
}

/* without a map: the summary says what would help */
static void
test_node_no_map (void)
{
  Recorded r = { 0 };
  Count c = { "fcHot", "fcCold", FALSE };

  record_node (NULL, &r);
  count (r.chunks, &c);
  g_assert_cmpuint (c.n_hot + c.n_cold, ==, 0);
  g_assert_true (summary_says (r.summary, "start node with --perf-basic-prof"));
  recorded_clear (&r);
}

/* ---- Java ---- */

/* HotSpot with frame pointers writes its map at exit: the last chunk is named then */
static void
test_java (void)
{
  g_autofree char *java = require_program ("java", "openjdk-17-jdk-headless");
  g_autofree char *classes = built_path ("");
  const char *argv[] = { java, "-XX:+PreserveFramePointer", "-XX:+UnlockDiagnosticVMOptions", "-XX:+DumpPerfMapAtExit",
                         "-cp", classes, "Split", "4", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_AUTO, 0 };
  g_autofree char *class_file = built_path ("Split.class");
  Recorded r = { 0 };
  Count c = { "int Split.fcHot(int)", "int Split.fcCold(int)", TRUE };

  if (!g_file_test (class_file, G_FILE_TEST_EXISTS))
    g_error ("%s was not built: javac (openjdk-17-jdk-headless) was not found at setup", class_file);
  run_plan (&plan, &r);
  assert_valid (r.chunks, "native");
  count (r.chunks, &c);
  assert_split (&c, "java");
  g_assert_cmpuint (c.n_rooted * 10, >=, (c.n_hot + c.n_cold) * 9);
  g_assert_true (summary_says (r.summary, "Java: JIT code named from /tmp/perf-"));
  recorded_clear (&r);
}

/* ---- Go and Rust ---- */

static void
test_go (void)
{
  g_autofree char *exe = built_path ("fc-target-split-go");
  const char *argv[] = { exe, "0", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_AUTO, 600 };
  Recorded r = { 0 };
  Count c = { "main.fcHot", "main.fcCold", TRUE };
  int def_line = line_of ("split.go", "func fcHot");

  if (!g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE))
    g_error ("%s was not built: go (golang-go) was not found at setup", exe);
  run_plan (&plan, &r);
  assert_valid (r.chunks, "native");
  count (r.chunks, &c);
  assert_split (&c, "go");
  /* Go's roots: runtime.goexit, runtime.main */
  g_assert_cmpuint (c.n_rooted * 10, >=, (c.n_hot + c.n_cold) * 9);
  /* file:line from its DWARF */
  g_assert_cmpstr (fc_profile_string (c.hot_chunk, c.hot_frame->filename), ==, "split.go");
  g_assert_cmpint (c.hot_frame->lineno, >, def_line);
  g_assert_cmpint (c.hot_frame->lineno, <, def_line + 6);
  g_assert_true (summary_says (r.summary, "Go: stacks followed by frame pointer"));
  recorded_clear (&r);
}

static void
test_rust (gconstpointer data)
{
  const char *name = data;
  g_autofree char *exe = built_path (name);
  const char *argv[] = { exe, "0", NULL };
  Plan plan = { argv, 0, FC_SAMPLER_MODE_CPU, 499, FC_STACKS_AUTO, 600 };
  Recorded r = { 0 };
  /* legacy: split::Worker<T>::fc_hot; v0: <split::Worker<u32>>::fc_hot */
  Count c = { "Worker<", "Worker<", FALSE };
  Count hot = { "::fc_hot", "::fc_cold", FALSE };

  if (!g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE))
    g_error ("%s was not built: rustc (rustc) was not found at setup", exe);
  run_plan (&plan, &r);
  assert_valid (r.chunks, "native");
  count (r.chunks, &hot);
  assert_split (&hot, name);
  g_assert_cmpuint (hot.n_rooted * 10, >=, (hot.n_hot + hot.n_cold) * 9);
  /* demangled whole: no $LT$ or hash left, the type's generic argument written as Rust does */
  count (r.chunks, &c);
  g_assert_cmpuint (c.n_hot, ==, hot.n_hot + hot.n_cold);
  g_assert_null (strstr (fc_profile_string (hot.hot_chunk, hot.hot_frame->function), "$LT$"));
  g_assert_null (strstr (fc_profile_string (hot.hot_chunk, hot.hot_frame->function), "::h"));
  g_assert_false (g_str_has_prefix (fc_profile_string (hot.hot_chunk, hot.hot_frame->function), "_R"));
  recorded_clear (&r);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  find_pythons ();
  report_pythons ();
  for (guint i = 0; i < pythons->len; i++)
    {
      Python *py = g_ptr_array_index (pythons, i);
      g_autofree char *launch = g_strdup_printf ("/core/runtimes/python/%s/launch-cpu", py->label);
      g_autofree char *wall = g_strdup_printf ("/core/runtimes/python/%s/launch-wall", py->label);
      g_autofree char *attach = g_strdup_printf ("/core/runtimes/python/%s/attach-cpu", py->label);
      g_autofree char *mixed = g_strdup_printf ("/core/runtimes/python/%s/mixed-cpu", py->label);

      g_test_add_data_func (launch, py, test_python_launch);
      g_test_add_data_func (wall, py, test_python_wall);
      g_test_add_data_func (attach, py, test_python_attach);
      g_test_add_data_func (mixed, py, test_python_mixed);
    }
  for (guint i = 0; i < old_pythons->len; i++)
    {
      Python *py = g_ptr_array_index (old_pythons, i);
      g_autofree char *path = g_strdup_printf ("/core/runtimes/python/%s/unsupported", py->label);

      g_test_add_data_func (path, py, test_python_unsupported);
    }
  g_test_add_func ("/core/runtimes/node/perf-map", test_node_perf_map);
  g_test_add_func ("/core/runtimes/node/jitdump", test_node_jitdump);
  g_test_add_func ("/core/runtimes/node/no-map", test_node_no_map);
  g_test_add_func ("/core/runtimes/java/perf-map-at-exit", test_java);
  g_test_add_func ("/core/runtimes/go", test_go);
  g_test_add_data_func ("/core/runtimes/rust/legacy", "fc-target-split-rust", test_rust);
  g_test_add_data_func ("/core/runtimes/rust/v0", "fc-target-split-rust-v0", test_rust);
  return g_test_run ();
}
