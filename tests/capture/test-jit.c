/* test-jit.c - perf maps, jitdump files and the table of JIT code they fill
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fc-jit-table.h"
#include "fc-jitdump.h"
#include "fc-perf-map.h"

static void
test_perf_map_lines (void)
{
  guint64 start, size;
  const char *name;
  gsize len;
  /* V8, CPython -X perf: hex without 0x; HotSpot: with 0x, sixteen digits, names with spaces */
  const char *v8 = "3f0c4a0 14 JS:*fcHot /t/split.js:8:15";
  const char *hotspot = "0x00007f6518ec7620 0x0000000000000298 int Split.fcHot(int)";
  g_autofree char *v8_name = NULL;

  g_assert_true (fc_perf_map_parse_line (v8, strlen (v8), &start, &size, &name, &len));
  g_assert_cmphex (start, ==, 0x3f0c4a0);
  g_assert_cmphex (size, ==, 0x14);
  v8_name = g_strndup (name, len);
  g_assert_cmpstr (v8_name, ==, "JS:*fcHot /t/split.js:8:15");
  g_assert_true (fc_perf_map_parse_line (hotspot, strlen (hotspot), &start, &size, &name, &len));
  g_assert_cmphex (start, ==, 0x7f6518ec7620);
  g_assert_cmphex (size, ==, 0x298);
  g_assert_cmpint (len, ==, strlen ("int Split.fcHot(int)"));
  /* not a map line */
  g_assert_false (fc_perf_map_parse_line ("", 0, &start, &size, &name, &len));
  g_assert_false (fc_perf_map_parse_line ("zz 10 x", 7, &start, &size, &name, &len));
  g_assert_false (fc_perf_map_parse_line ("10 20", 5, &start, &size, &name, &len));
  g_assert_false (fc_perf_map_parse_line ("10 20 ", 6, &start, &size, &name, &len));
}

/* code freed and its range reused: the region added last names an address */
static void
test_table_overlap (void)
{
  g_autoptr(FcJitTable) table = fc_jit_table_new ();
  const FcJitEntry *e;

  fc_jit_table_add (table, 0x1000, 0x100, "old", 3, NULL, -1);
  fc_jit_table_add (table, 0x3000, 0x10, "other", 5, NULL, -1);
  fc_jit_table_add (table, 0x1080, 0x40, "new", 3, "/t/a.js", 7);
  g_assert_null (fc_jit_table_lookup (table, 0xfff));
  g_assert_cmpstr (fc_jit_table_lookup (table, 0x1000)->name, ==, "old");
  e = fc_jit_table_lookup (table, 0x10a0);
  g_assert_cmpstr (e->name, ==, "new");
  g_assert_cmpstr (e->file, ==, "/t/a.js");
  g_assert_cmpint (e->line, ==, 7);
  g_assert_cmpstr (fc_jit_table_lookup (table, 0x10c0)->name, ==, "old");
  g_assert_null (fc_jit_table_lookup (table, 0x1100));
  g_assert_cmpstr (fc_jit_table_lookup (table, 0x300f)->name, ==, "other");
  fc_jit_table_add (table, 0x1000, 0x100, "newest", 6, NULL, -1);
  g_assert_cmpstr (fc_jit_table_lookup (table, 0x10a0)->name, ==, "newest");
  fc_jit_table_move (table, 0x3000, 0x5000);
  g_assert_cmpstr (fc_jit_table_lookup (table, 0x5008)->name, ==, "other");
  g_assert_cmpuint (fc_jit_table_get_n_entries (table), ==, 5);
}

/* a perf map growing while it is read: whole lines only, the rest next time */
static void
test_perf_map_growing (void)
{
  g_autofree char *path = g_strdup_printf ("/tmp/perf-%d.map", getpid ());
  g_autoptr(FcPerfMap) map = fc_perf_map_new (getpid ());
  g_autoptr(FcJitTable) table = fc_jit_table_new ();
  FILE *f;

  unlink (path);
  g_assert_false (fc_perf_map_read (map, table));
  g_assert_cmpstr (fc_perf_map_get_name (map), ==, path);
  f = fopen (path, "w");
  g_assert_nonnull (f);
  fputs ("1000 10 first\n2000 10 sec", f);
  fflush (f);
  g_assert_true (fc_perf_map_read (map, table));
  g_assert_cmpuint (fc_jit_table_get_n_entries (table), ==, 1);
  fputs ("ond\n3000 10 third\n", f);
  fclose (f);
  g_assert_true (fc_perf_map_read (map, table));
  g_assert_cmpuint (fc_jit_table_get_n_entries (table), ==, 3);
  g_assert_cmpstr (fc_jit_table_lookup (table, 0x2008)->name, ==, "second");
  unlink (path);
}

static void
put32 (GByteArray *b,
       guint32     v)
{
  g_byte_array_append (b, (guint8 *) &v, 4);
}

static void
put64 (GByteArray *b,
       guint64     v)
{
  g_byte_array_append (b, (guint8 *) &v, 8);
}

static void
record_header (GByteArray *b,
               guint32     id,
               guint32     size)
{
  put32 (b, id);
  put32 (b, size);
  put64 (b, 0);
}

/* perf's jitdump-specification.txt, written here byte by byte */
static GByteArray *
make_jitdump (void)
{
  GByteArray *b = g_byte_array_new ();
  static const char name[] = "JS:*fcHot";
  static const char file[] = "/t/split.js";

  put32 (b, 0x4A695444);
  put32 (b, 1);
  put32 (b, 40);
  put32 (b, 62);
  put32 (b, 0);
  put32 (b, 1234);
  put64 (b, 0);
  put64 (b, 0);
  /* DEBUG_INFO for the code loaded next: one entry, line 8 */
  record_header (b, 2, 16 + 16 + 16 + sizeof file);
  put64 (b, 0x7000);
  put64 (b, 1);
  put64 (b, 0x7000);
  put32 (b, 8);
  put32 (b, 0);
  g_byte_array_append (b, (const guint8 *) file, sizeof file);
  /* CODE_LOAD: pid, tid, vma, code_addr, code_size, code_index, name, 4 bytes of code */
  record_header (b, 0, 16 + 40 + sizeof name + 4);
  put32 (b, 1234);
  put32 (b, 1234);
  put64 (b, 0x7000);
  put64 (b, 0x7000);
  put64 (b, 0x40);
  put64 (b, 1);
  g_byte_array_append (b, (const guint8 *) name, sizeof name);
  put32 (b, 0xc3c3c3c3);
  /* CODE_MOVE to 0x9000 */
  record_header (b, 1, 16 + 48);
  put32 (b, 1234);
  put32 (b, 1234);
  put64 (b, 0x7000);
  put64 (b, 0x7000);
  put64 (b, 0x9000);
  put64 (b, 0x40);
  put64 (b, 1);
  /* CLOSE */
  record_header (b, 3, 16);
  return b;
}

static void
test_jitdump (void)
{
  g_autoptr(GByteArray) dump = make_jitdump ();
  g_autoptr(FcJitTable) table = fc_jit_table_new ();
  g_autoptr(GError) error = NULL;
  const FcJitEntry *e;
  gsize used;

  /* a record cut short is left for later */
  used = fc_jitdump_parse (dump->data, dump->len - 20, TRUE, table, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (used, <, dump->len - 20);
  g_assert_cmpuint (fc_jit_table_get_n_entries (table), ==, 1);
  e = fc_jit_table_lookup (table, 0x7010);
  g_assert_cmpstr (e->name, ==, "JS:*fcHot");
  g_assert_cmpstr (e->file, ==, "/t/split.js");
  g_assert_cmpint (e->line, ==, 8);

  fc_jit_table_free (g_steal_pointer (&table));
  table = fc_jit_table_new ();
  used = fc_jitdump_parse (dump->data, dump->len, TRUE, table, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (used, ==, dump->len);
  g_assert_cmpstr (fc_jit_table_lookup (table, 0x9020)->name, ==, "JS:*fcHot");
}

static void
test_jitdump_broken (void)
{
  g_autoptr(GByteArray) dump = make_jitdump ();
  g_autoptr(FcJitTable) table = fc_jit_table_new ();
  g_autoptr(GError) error = NULL;
  guint32 bad = 8;

  /* the other byte order's magic */
  memcpy (dump->data, "\x4a\x69\x54\x44", 4);
  g_assert_cmpuint (fc_jitdump_parse (dump->data, dump->len, TRUE, table, &error), ==, 0);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  /* a record smaller than its own header */
  g_byte_array_free (dump, TRUE);
  dump = make_jitdump ();
  memcpy (dump->data + 40 + 4, &bad, 4);
  fc_jitdump_parse (dump->data, dump->len, TRUE, table, &error);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "byte 40"));
  g_assert_cmpuint (fc_jit_table_get_n_entries (table), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/jit/perf-map-lines", test_perf_map_lines);
  g_test_add_func ("/core/jit/perf-map-growing", test_perf_map_growing);
  g_test_add_func ("/core/jit/table-overlap", test_table_overlap);
  g_test_add_func ("/core/jit/jitdump", test_jitdump);
  g_test_add_func ("/core/jit/jitdump-broken", test_jitdump_broken);
  return g_test_run ();
}
