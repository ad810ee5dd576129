/* The point-cloud elements: octopusplysrc (files, sequences, errors),
 * octopuspcenc (send order, viewport, volumetric tags, the same as
 * octopustag's), octopuspcdec (merge of any subset, density meta,
 * malformed layers counted) and octopusplyenc. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "gstoctopuspcdec.h"
#include "pc-layer.h"
#include "pc-partition.h"
#include "pc-ply.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A cloud with @per_cell points in each quadrant of the x-z square
 * [-1, 1]^2, so a 2x2 grid splits it evenly. */
static GstBuffer *
quadrant_cloud (guint per_cell, guint32 seed)
{
  GRand *r = g_rand_new_with_seed (seed);
  GstBuffer *buf = gst_buffer_new_allocate (NULL,
      4 * per_cell * sizeof (OctoPcPoint), NULL);
  GstMapInfo map;
  OctoPcPoint *p;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  p = (OctoPcPoint *) map.data;
  for (guint q = 0; q < 4; q++)
    for (guint i = 0; i < per_cell; i++, p++) {
      /* the corners pin the bounds to exactly [-1, 1] */
      float u = i == 0 ? 1.0f : (float) g_rand_double_range (r, 0.01, 1.0);
      float v = i == 0 ? 1.0f : (float) g_rand_double_range (r, 0.01, 1.0);
      p->xyz[0] = (q & 1) ? u : -u;
      p->xyz[1] = (float) g_rand_double_range (r, 0.0, 1.0);
      p->xyz[2] = (q & 2) ? v : -v;
      memset (p->rgb, 100 + q, 3);
      p->pad = 0;
    }
  gst_buffer_unmap (buf, &map);
  g_rand_free (r);
  GST_BUFFER_PTS (buf) = 0;
  return buf;
}

static GstHarness *
encoder_harness (const gchar *launch)
{
  GstHarness *h = gst_harness_new_parse (launch);
  gst_harness_set_src_caps_str (h, "application/x-octopus-pointcloud, "
      "format = (string) xyz32f-rgb8, framerate = (fraction) 20/1");
  return h;
}

static void
header_of (GstBuffer *buf, OctoPcLayerHeader *hdr)
{
  guint8 b[OCTO_PC_LAYER_HEADER_LEN];
  fail_unless_equals_int (gst_buffer_extract (buf, 0, b, sizeof b),
      sizeof b);
  fail_unless (octo_pc_layer_header_parse (b, sizeof b, hdr, NULL));
}

/* docs/design.md's volumetric tags for message @i of frame @frame in send
 * order, with 4 cells x 5 layers. */
static void
expected_tags (guint i, guint frame, guint *rank, guint *layer,
    guint *priority, gboolean *drop, guint *threshold)
{
  *rank = i < 10 ? i % 2 : 2 + (i - 10) % 2;
  *layer = i < 10 ? i / 2 : (i - 10) / 2;
  *priority = *rank >= 2 ? 3 : *layer == 0 ? 0 : *layer <= 2 ? 1 : 2;
  *drop = *rank == 0 && *layer == 0;
  *threshold = *drop ? 3 - frame % 4 : 0;
}

static void
check_frame_tags (GstHarness *h, guint frame, const guint by_rank[4])
{
  for (guint i = 0; i < 20; i++) {
    GstBuffer *out = gst_harness_pull (h);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (out);
    OctoPcLayerHeader hdr;
    guint rank, layer, priority, threshold;
    gboolean drop;

    expected_tags (i, frame, &rank, &layer, &priority, &drop, &threshold);
    fail_unless (m != NULL);
    header_of (out, &hdr);
    fail_unless_equals_int (m->frame_id, frame);
    fail_unless_equals_int (m->cell_id, rank);
    fail_unless_equals_int (m->density_layer, layer);
    fail_unless_equals_int (m->priority, priority);
    fail_unless_equals_int (m->drop, drop);
    fail_unless_equals_int (m->priority_threshold, threshold);
    fail_unless_equals_int (hdr.rank, rank);
    fail_unless_equals_int (hdr.layer, layer);
    fail_unless_equals_int (hdr.cell, by_rank[rank]);
    fail_unless_equals_int (hdr.cell_points, 250);
    gst_buffer_unref (out);
  }
}

GST_START_TEST (test_encoder_order_and_tags_follow_the_viewport)
{
  static const struct {
    const gchar *launch;
    guint by_rank[4];
  } cases[] = {
    /* in front (-z) looking along +z: the low-z cells 0, 1 are front */
    {"octopuspcenc", {0, 1, 2, 3}},
    /* behind (+z) looking back: cells 2, 3 are front */
    {"octopuspcenc camera-position=\"<0.0, 0.0, 10.0>\" "
          "camera-direction=\"<0.0, 0.0, -1.0>\"", {2, 3, 0, 1}},
    /* from +x looking along -x: cells 1, 3 */
    {"octopuspcenc camera-position=\"<10.0, 0.0, 0.0>\" "
          "camera-direction=\"<-1.0, 0.0, 0.0>\"", {1, 3, 0, 2}},
    /* octopustag's volumetric policy gives the same tags */
    {"octopuspcenc camera-position=\"<0.0, 0.0, 10.0>\" "
          "camera-direction=\"<0.0, 0.0, -1.0>\" ! octopustag "
          "policy=volumetric density-layers=5", {2, 3, 0, 1}},
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstHarness *h = encoder_harness (cases[c].launch);
    for (guint frame = 0; frame < 5; frame++) {
      fail_unless_equals_int (gst_harness_push (h, quadrant_cloud (250,
                  frame)), GST_FLOW_OK);
      check_frame_tags (h, frame, cases[c].by_rank);
    }
    fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Density 0.5 and 1 at distances 1 and 3: with 5 layers, T(k/5) at
 * distance >= 3 is 0.24, 0.48, 0.68, 0.84, 1. */
static const gchar *small_table = "distance,density,ssim\n"
    "1,0.5,0.4\n1,1,0.8\n3,0.5,0.6\n3,1,1.0\n";

GST_START_TEST (test_encoder_sent_log_scores_layers_by_the_ssim_table)
{
  /* the default viewer is about 5 extents (the quadrant cloud spans 2)
   * from every cell, beyond the table: each cell (a quarter of the
   * points) adds 0.25 x the increments 0.24, 0.24, 0.2, 0.16, 0.16 */
  static const double increment[5] = { 0.24, 0.24, 0.2, 0.16, 0.16 };
  gchar *dir = g_dir_make_tmp ("pcenc-XXXXXX", NULL);
  gchar *table = g_build_filename (dir, "t.csv", NULL);
  gchar *log = g_build_filename (dir, "sent.csv", NULL);
  gchar *launch, *text, **lines;
  GstHarness *h;
  double sum[2] = { 0, 0 };

  fail_unless (g_file_set_contents (table, small_table, -1, NULL));
  launch = g_strdup_printf ("octopuspcenc sent-log=%s ssim-table=%s", log,
      table);
  h = encoder_harness (launch);
  for (guint frame = 0; frame < 2; frame++)
    fail_unless_equals_int (gst_harness_push (h, quadrant_cloud (250,
                frame)), GST_FLOW_OK);
  gst_harness_teardown (h);

  fail_unless (g_file_get_contents (log, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  fail_unless_equals_string (lines[0],
      "frame,index,capture_ns,keyframe,temporal_layer,level,quality");
  for (guint i = 0; i < 40; i++) {
    gchar **f = g_strsplit (lines[i + 1], ",", -1);
    guint frame = i / 20, index = i % 20, rank, layer;
    double q = g_ascii_strtod (f[6], NULL);
    octo_pc_send_order (4, 5, index, &rank, &layer);
    fail_unless_equals_int (atoi (f[0]), frame);
    fail_unless_equals_int (atoi (f[1]), index);
    fail_unless (fabs (q - 0.25 * increment[layer]) < 1e-9,
        "frame %u message %u: quality %g, expected %g", frame, index, q,
        0.25 * increment[layer]);
    sum[frame] += q;
    g_strfreev (f);
  }
  fail_unless_equals_string (lines[41], "");
  /* all layers of every cell: full density scores 1 */
  fail_unless (fabs (sum[0] - 1.0) < 1e-9 && fabs (sum[1] - 1.0) < 1e-9);

  g_strfreev (lines);
  g_free (text);
  g_free (launch);
  g_unlink (log);
  g_unlink (table);
  g_rmdir (dir);
  g_free (log);
  g_free (table);
  g_free (dir);
}

GST_END_TEST;

static void
keep_message (const gchar *domain, GLogLevelFlags level,
    const gchar *message, gpointer user_data)
{
  (void) domain, (void) level;
  *(gchar **) user_data = g_strdup (message);
}

/* A zero camera direction ranks no cells: it is refused with a warning and
 * the previous direction kept. */
GST_START_TEST (test_encoder_refuses_a_zero_camera_direction)
{
  GstElement *enc = gst_element_factory_make ("octopuspcenc",
      "octopuspcenc");
  GValue set = G_VALUE_INIT, got = G_VALUE_INIT;
  const gdouble zero[3] = { 0.0, 0.0, 0.0 }, keep[3] = { 0.0, 0.0, 1.0 };

  g_value_init (&set, GST_TYPE_ARRAY);
  for (guint i = 0; i < 3; i++) {
    GValue d = G_VALUE_INIT;
    g_value_init (&d, G_TYPE_DOUBLE);
    g_value_set_double (&d, zero[i]);
    gst_value_array_append_and_take_value (&set, &d);
  }
  gchar *said = NULL;
  guint handler = g_log_set_handler ("octopus", G_LOG_LEVEL_WARNING,
      keep_message, &said);
  g_object_set_property (G_OBJECT (enc), "camera-direction", &set);
  g_log_remove_handler ("octopus", handler);
  fail_unless_equals_string (said, "octopuspcenc: camera-direction "
      "<0, 0, 0> gives no direction (a non-zero, finite vector is needed); "
      "keeping <0, 0, 1>");
  g_free (said);
  g_value_init (&got, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (enc), "camera-direction", &got);
  for (guint i = 0; i < 3; i++)
    fail_unless_equals_float (g_value_get_double
        (gst_value_array_get_value (&got, i)), keep[i]);
  g_value_unset (&set);
  g_value_unset (&got);
  gst_object_unref (enc);
}

GST_END_TEST;

GST_START_TEST (test_encoder_bad_ssim_table_names_file_and_line)
{
  gchar *dir = g_dir_make_tmp ("pcenc-XXXXXX", NULL);
  gchar *table = g_build_filename (dir, "bad.csv", NULL);
  gchar *expected = g_strdup_printf ("%s:3: expected distance > 0, "
      "0 < density <= 1, -1 <= ssim <= 1", table);
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *enc = gst_element_factory_make ("octopuspcenc", NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  fail_unless (g_file_set_contents (table,
          "distance,density,ssim\n1,1,1\n1,0.5,oops\n", -1, NULL));
  g_object_set (enc, "ssim-table", table, NULL);
  gst_bin_add (GST_BIN (pipeline), enc);
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (strstr (error->message, table) != NULL, "%s", error->message);
  fail_unless (debug && strstr (debug, expected) != NULL, "%s", debug);

  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_unlink (table);
  g_rmdir (dir);
  g_free (expected);
  g_free (table);
  g_free (dir);
}

GST_END_TEST;

static guint
density_layers_of (GstBuffer *frame, guint cell)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (frame,
      GST_OCTOPUS_PC_DENSITY_META);
  const GValue *arr;
  fail_unless (meta != NULL);
  arr = gst_structure_get_value (gst_custom_meta_get_structure (meta),
      "layers");
  fail_unless_equals_int (gst_value_array_get_size (arr), 4);
  return g_value_get_uint (gst_value_array_get_value (arr, cell));
}

GST_START_TEST (test_decoder_merges_any_subset_with_density)
{
  GstHarness *enc = encoder_harness ("octopuspcenc");
  GstHarness *dec = gst_harness_new ("octopuspcdec");
  GstBuffer *layers[2][20];
  GstBuffer *frame;
  guint expected = 0;
  GstStructure *stats;
  GstElement *el;
  guint64 added, frames;

  gst_harness_set_src_caps_str (dec, "application/x-octopus-pc-layer");
  for (guint f = 0; f < 2; f++) {
    gst_harness_push (enc, quadrant_cloud (250, 7));
    for (guint i = 0; i < 20; i++)
      layers[f][i] = gst_harness_pull (enc);
  }
  /* frame 0: front cells' L0-L2 (cells 0, 1) and cell 2's L4 only */
  for (guint i = 0; i < 20; i++) {
    OctoPcLayerHeader hdr;
    header_of (layers[0][i], &hdr);
    if ((hdr.rank < 2 && hdr.layer <= 2) || (hdr.cell == 2 && hdr.layer == 4)) {
      expected += 50;
      fail_unless_equals_int (gst_harness_push (dec,
              gst_buffer_ref (layers[0][i])), GST_FLOW_OK);
    }
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (dec), 0);
  /* the first layer of frame 1 completes frame 0 */
  gst_harness_push (dec, gst_buffer_ref (layers[1][19]));
  frame = gst_harness_pull (dec);
  fail_unless_equals_int (gst_buffer_get_size (frame),
      expected * sizeof (OctoPcPoint));
  fail_unless_equals_int (density_layers_of (frame, 0), 3);
  fail_unless_equals_int (density_layers_of (frame, 1), 3);
  fail_unless_equals_int (density_layers_of (frame, 2), 1);
  fail_unless_equals_int (density_layers_of (frame, 3), 0);
  gst_buffer_unref (frame);
  /* a late layer of frame 0 is refused; EOS completes frame 1 */
  gst_harness_push (dec, gst_buffer_ref (layers[0][19]));
  gst_harness_push_event (dec, gst_event_new_eos ());
  frame = gst_harness_pull (dec);
  fail_unless_equals_int (gst_buffer_get_size (frame),
      50 * sizeof (OctoPcPoint));
  fail_unless_equals_int (density_layers_of (frame, 3), 1);
  gst_buffer_unref (frame);

  el = gst_harness_find_element (dec, "octopuspcdec");
  g_object_get (el, "stats", &stats, NULL);
  gst_object_unref (el);
  fail_unless (gst_structure_get_uint64 (stats, "layers-added", &added));
  fail_unless (gst_structure_get_uint64 (stats, "frames", &frames));
  fail_unless_equals_int (added, expected / 50 + 1);
  fail_unless_equals_int (frames, 2);
  gst_structure_free (stats);

  for (guint f = 0; f < 2; f++)
    for (guint i = 0; i < 20; i++)
      gst_buffer_unref (layers[f][i]);
  gst_harness_teardown (enc);
  gst_harness_teardown (dec);
}

GST_END_TEST;

GST_START_TEST (test_decoder_counts_malformed_layers_without_output)
{
  GstHarness *enc = encoder_harness ("octopuspcenc");
  GstHarness *dec = gst_harness_new ("octopuspcdec");
  GstElement *el = gst_harness_find_element (dec, "octopuspcdec");
  GstBuffer *good, *bad;
  GstMapInfo map;
  GstStructure *stats;
  guint64 malformed, added;
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;

  gst_element_set_bus (el, bus);
  gst_harness_set_src_caps_str (dec, "application/x-octopus-pc-layer");
  gst_harness_push (enc, quadrant_cloud (250, 1));
  good = gst_harness_pull (enc);
  /* the same header with its Draco payload scrambled */
  bad = gst_buffer_copy_deep (good);
  gst_buffer_map (bad, &map, GST_MAP_WRITE);
  for (gsize i = OCTO_PC_LAYER_HEADER_LEN; i < map.size; i++)
    map.data[i] ^= 0x5a;
  gst_buffer_unmap (bad, &map);
  fail_unless_equals_int (gst_harness_push (dec, bad), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (dec,
          gst_buffer_new_wrapped (g_strdup ("junk"), 4)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (dec, good), GST_FLOW_OK);

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  g_object_get (el, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, "malformed", &malformed));
  fail_unless (gst_structure_get_uint64 (stats, "layers-added", &added));
  fail_unless_equals_int (malformed, 2);
  fail_unless_equals_int (added, 1);
  gst_structure_free (stats);
  gst_harness_push_event (dec, gst_event_new_eos ());
  {
    GstBuffer *frame = gst_harness_pull (dec);
    fail_unless_equals_int (gst_buffer_get_size (frame),
        50 * sizeof (OctoPcPoint));
    gst_buffer_unref (frame);
  }
  gst_element_set_bus (el, NULL);
  gst_object_unref (bus);
  gst_object_unref (el);
  gst_harness_teardown (enc);
  gst_harness_teardown (dec);
}

GST_END_TEST;

static gchar *
write_ply (const gchar *dir, const gchar *name, guint n)
{
  OctoPcPoint *pts = g_new0 (OctoPcPoint, n);
  gchar *path = g_build_filename (dir, name, NULL);
  GBytes *b;
  for (guint i = 0; i < n; i++)
    pts[i].xyz[0] = (float) i;
  b = octo_pc_ply_write (pts, n, NULL);
  fail_unless (g_file_set_contents (path, g_bytes_get_data (b, NULL),
          g_bytes_get_size (b), NULL));
  g_bytes_unref (b);
  g_free (pts);
  return path;
}

GST_START_TEST (test_ply_source_reads_a_numbered_sequence)
{
  gchar *dir = g_dir_make_tmp ("octopus-pc-XXXXXX", NULL);
  gchar *files[3], *pattern, *launch;
  GstHarness *h;

  for (guint i = 0; i < 3; i++) {
    gchar *name = g_strdup_printf ("f%03u.ply", i + 4);
    files[i] = write_ply (dir, name, 10 + i);
    g_free (name);
  }
  pattern = g_build_filename (dir, "f%03d.ply", NULL);
  launch = g_strdup_printf ("octopusplysrc location=\"%s\" start-index=4",
      pattern);
  h = gst_harness_new_parse (launch);
  gst_harness_play (h);
  for (guint i = 0; i < 3; i++) {
    GstBuffer *buf = gst_harness_pull (h);
    fail_unless_equals_int (gst_buffer_get_size (buf),
        (10 + i) * sizeof (OctoPcPoint));
    fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), i * GST_SECOND / 20);
    gst_buffer_unref (buf);
  }
  /* the sequence ends at the first missing number */
  {
    GstEvent *ev;
    while ((ev = gst_harness_pull_event (h))) {
      gboolean eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
      gst_event_unref (ev);
      if (eos)
        break;
    }
  }
  gst_harness_teardown (h);
  for (guint i = 0; i < 3; i++) {
    g_unlink (files[i]);
    g_free (files[i]);
  }
  g_rmdir (dir);
  g_free (launch);
  g_free (pattern);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_ply_source_animates_one_file)
{
  gchar *dir = g_dir_make_tmp ("octopus-pc-XXXXXX", NULL);
  gchar *path = write_ply (dir, "one.ply", 5);
  gchar *launch = g_strdup_printf ("octopusplysrc location=\"%s\" "
      "num-frames=3 framerate=4/1 degrees-per-second=360", path);
  GstHarness *h = gst_harness_new_parse (launch);
  GstMapInfo map;

  gst_harness_play (h);
  for (guint i = 0; i < 3; i++) {
    GstBuffer *buf = gst_harness_pull (h);
    const OctoPcPoint *p;
    gst_buffer_map (buf, &map, GST_MAP_READ);
    p = (const OctoPcPoint *) map.data;
    /* a quarter turn per frame about the centre x = 2: point 4 (x = 4)
     * goes to z = 0, -2, 0 relative to the centre */
    fail_unless (fabs (p[4].xyz[2] - (i == 1 ? -2.0f : 0.0f)) < 1e-5);
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  gst_harness_teardown (h);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (launch);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_ply_source_error_names_file_and_line)
{
  gchar *dir = g_dir_make_tmp ("octopus-pc-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "bad.ply", NULL);
  gchar *launch = g_strdup_printf ("octopusplysrc location=\"%s\" "
      "! fakesink", path);
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  GError *error = NULL;
  gchar *debug = NULL;

  fail_unless (g_file_set_contents (path, "ply\nformat ascii 1.0\n"
          "element vertex 2\nproperty float x\nproperty float y\n"
          "property float z\nend_header\n1 2 3\n4 5\n", -1, NULL));
  pipeline = gst_parse_launch (launch, NULL);
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &error, &debug);
  fail_unless (strstr (error->message, path) != NULL);
  fail_unless (strstr (error->message,
          "line 9: too few values (property 3 of 3)") != NULL);
  g_error_free (error);
  g_free (debug);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (launch);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_ply_writer_output_reads_back)
{
  GstHarness *h = encoder_harness ("octopusplyenc");
  GstBuffer *in = quadrant_cloud (3, 2), *out;
  GstMapInfo in_map, out_map;
  GArray *pts;

  gst_harness_push (h, gst_buffer_ref (in));
  out = gst_harness_pull (h);
  gst_buffer_map (in, &in_map, GST_MAP_READ);
  gst_buffer_map (out, &out_map, GST_MAP_READ);
  pts = octo_pc_ply_parse (out_map.data, out_map.size, NULL);
  fail_unless (pts != NULL);
  fail_unless_equals_int (pts->len * sizeof (OctoPcPoint), in_map.size);
  fail_unless (memcmp (pts->data, in_map.data, in_map.size) == 0);
  g_array_unref (pts);
  gst_buffer_unmap (out, &out_map);
  gst_buffer_unmap (in, &in_map);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
pointcloud_suite (void)
{
  Suite *s = suite_create ("pointcloud");
  TCase *tc = tcase_create ("elements");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_encoder_order_and_tags_follow_the_viewport);
  tcase_add_test (tc, test_encoder_sent_log_scores_layers_by_the_ssim_table);
  tcase_add_test (tc, test_encoder_bad_ssim_table_names_file_and_line);
  tcase_add_test (tc, test_encoder_refuses_a_zero_camera_direction);
  tcase_add_test (tc, test_decoder_merges_any_subset_with_density);
  tcase_add_test (tc, test_decoder_counts_malformed_layers_without_output);
  tcase_add_test (tc, test_ply_source_reads_a_numbered_sequence);
  tcase_add_test (tc, test_ply_source_animates_one_file);
  tcase_add_test (tc, test_ply_source_error_names_file_and_line);
  tcase_add_test (tc, test_ply_writer_output_reads_back);
  return s;
}

GST_CHECK_MAIN (pointcloud);
