/* GstOctopusMeta, its mapping to the core's structs, and octopustag's
 * policy presets. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <string.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-preset.h"

GST_START_TEST (test_meta_has_no_tags_and_survives_copies)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 100, NULL), *copy, *sub;
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (buf);
  const gchar *const *tags = gst_meta_api_type_get_tags
      (GST_OCTOPUS_META_API_TYPE);

  fail_unless (tags == NULL || tags[0] == NULL);
  fail_unless_equals_int (m->spatial_layer, GST_OCTOPUS_LAYER_NONE);
  fail_unless (m->capture_time == GST_CLOCK_TIME_NONE);
  m->stream_id = 9;
  m->priority = 3;
  m->drop = TRUE;
  m->priority_threshold = 2;
  m->link_bitrate_threshold_bps = 1500000;
  m->slack_ms = 100;
  m->frame_id = 77;
  m->temporal_layer = 1;
  m->keyframe = TRUE;

  copy = gst_buffer_copy (buf);
  sub = gst_buffer_copy_region (buf, GST_BUFFER_COPY_ALL, 10, 20);
  for (GstBuffer **b = (GstBuffer *[]) { copy, sub, NULL }; *b; b++) {
    GstOctopusMeta *c = gst_buffer_get_octopus_meta (*b);
    fail_unless (c != NULL);
    fail_unless_equals_int (c->stream_id, 9);
    fail_unless_equals_int (c->priority, 3);
    fail_unless (c->drop);
    fail_unless_equals_int (c->priority_threshold, 2);
    fail_unless_equals_uint64 (c->link_bitrate_threshold_bps, 1500000);
    fail_unless_equals_int (c->slack_ms, 100);
    fail_unless_equals_int (c->frame_id, 77);
    fail_unless_equals_int (c->temporal_layer, 1);
    fail_unless (c->keyframe);
  }
  gst_buffer_unref (copy);
  gst_buffer_unref (sub);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* A meta with every field away from its default; the bytes between fields
 * hold a pattern, so any field the mapping forgets differs in memcmp. */
static void
init_full_meta (GstOctopusMeta *m)
{
  memset (m, 0x5a, sizeof (*m));
  gst_octopus_meta_reset (m);
  m->stream_id = 0xbeef;
  m->priority = GST_OCTOPUS_PRIORITY_MAX;
  m->drop = TRUE;
  m->priority_threshold = 5;
  m->link_bitrate_threshold_bps = octo_bitrate_decode (octo_bitrate_encode
      (2500000));
  m->slack_ms = GST_OCTOPUS_SLACK_MS_MAX;
  m->capture_time = 0x0123456789abcdefull;
  m->frame_id = 0xfedcba98;
  m->spatial_layer = 1;
  m->temporal_layer = 2;
  m->cell_id = 3;
  m->density_layer = 4;
  m->keyframe = TRUE;
  m->msg_id = 0x80000001;
}

/* meta -> core -> a data packet's bytes -> core -> meta gives the meta
 * back; only the media rate, which no packet carries, stays at default. */
GST_START_TEST (test_meta_core_wire_round_trip)
{
  GstOctopusMeta in, out;
  OctoHeader header, parsed_header;
  OctoMsgInfo info;
  OctoDataPacket pkt;
  guint8 msg[100] = { 0 }, wire[1400];
  gsize len;

  init_full_meta (&in);
  gst_octopus_meta_to_core (&in, &header, &info);
  fail_if (header.first || header.last);
  len = octo_fragment_write (&header, &info, msg, sizeof msg, sizeof wire,
      0, 1, wire);
  fail_unless_equals_int (octo_data_parse (wire, len, &pkt, NULL),
      OCTO_DATA_OK);
  memset (&out, 0x5a, sizeof out);
  gst_octopus_meta_reset (&out);
  gst_octopus_meta_from_core (&out, &pkt.header, &pkt.info);
  fail_unless (memcmp (&in, &out, sizeof in) == 0);

  /* The header alone (the RTP extension's bytes) restores its fields and
   * leaves the description. */
  fail_unless (octo_header_pack (&header, wire));
  fail_unless_equals_int (octo_header_parse (wire, OCTO_WIRE_HEADER_LEN,
          &parsed_header), OCTO_PARSE_OK);
  memset (&out, 0x5a, sizeof out);
  gst_octopus_meta_reset (&out);
  gst_octopus_meta_from_core (&out, &parsed_header, NULL);
  fail_unless_equals_int (out.frame_id, 0);
  fail_unless (out.capture_time == GST_CLOCK_TIME_NONE);
  gst_octopus_meta_to_core (&in, NULL, &info);
  gst_octopus_meta_from_core (&out, &parsed_header, &info);
  fail_unless (memcmp (&in, &out, sizeof in) == 0);

  /* The media rate is the meta's own: the core never sees it. */
  in.media_bitrate_threshold_bps = 3000000;
  gst_octopus_meta_to_core (&in, &header, NULL);
  fail_unless_equals_uint64 (header.link_bitrate_threshold_bps,
      out.link_bitrate_threshold_bps);
  gst_octopus_meta_from_core (&in, &header, NULL);
  fail_unless_equals_uint64 (in.media_bitrate_threshold_bps, 3000000);
}

GST_END_TEST;

/* The meta's limits are the core's. */
GST_START_TEST (test_meta_limits_are_the_cores)
{
  GstOctopusMeta m;
  OctoHeader header;
  guint8 wire[OCTO_WIRE_HEADER_LEN];

  gst_octopus_meta_reset (&m);
  m.priority = GST_OCTOPUS_PRIORITY_MAX;
  m.priority_threshold = GST_OCTOPUS_PRIORITY_MAX;
  m.slack_ms = GST_OCTOPUS_SLACK_MS_MAX;
  gst_octopus_meta_to_core (&m, &header, NULL);
  fail_unless (octo_header_pack (&header, wire));
  m.slack_ms = GST_OCTOPUS_SLACK_MS_MAX + 1;
  gst_octopus_meta_to_core (&m, &header, NULL);
  fail_if (octo_header_pack (&header, wire));
  m.slack_ms = 0;
  m.priority = GST_OCTOPUS_PRIORITY_MAX + 1;
  gst_octopus_meta_to_core (&m, &header, NULL);
  fail_if (octo_header_pack (&header, wire));
}

GST_END_TEST;

GST_START_TEST (test_bandwidth_event_round_trip)
{
  GstEvent *ev = gst_octopus_event_new_bandwidth (12345678);
  guint64 bps = 0;

  fail_unless (gst_octopus_event_parse_bandwidth (ev, &bps));
  fail_unless_equals_uint64 (bps, 12345678);
  gst_event_unref (ev);
  ev = gst_event_new_flush_start ();
  fail_if (gst_octopus_event_parse_bandwidth (ev, &bps));
  gst_event_unref (ev);
}

GST_END_TEST;

/* vp8enc's layer properties are GValueArrays, deprecated but still its API. */
static void
set_int_array (GstElement *enc, const gchar *name, const gint *values, guint n)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  GValueArray *array = g_value_array_new (n);
  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_TYPE_INT);
  for (guint i = 0; i < n; i++) {
    g_value_set_int (&v, values[i]);
    g_value_array_append (array, &v);
  }
  g_object_set (enc, name, array, NULL);
  g_value_array_free (array);
  G_GNUC_END_IGNORE_DEPRECATIONS;
}

/* vp8enc with 3 temporal layers in the 0,2,1,2 pattern, configured from code
 * (array properties cannot be set from gst-launch). */
static void
configure_vp8_temporal_layers (GstElement *enc)
{
  GValue flags = G_VALUE_INIT, v = G_VALUE_INIT;
  static const gboolean sync[] = { FALSE, TRUE, TRUE, FALSE,
    FALSE, FALSE, FALSE, FALSE
  };

  set_int_array (enc, "temporal-scalability-layer-id", (gint[]) {0, 2, 1, 2}, 4);
  set_int_array (enc, "temporal-scalability-rate-decimator", (gint[]) {4, 2, 1},
      3);
  set_int_array (enc, "temporal-scalability-target-bitrate",
      (gint[]) {200000, 300000, 500000}, 3);
  gst_util_set_object_arg (G_OBJECT (enc), "temporal-scalability-layer-flags",
      "<no-ref-golden+no-upd-golden+no-upd-alt,"
      "no-ref-golden+no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
      "no-ref-golden+no-upd-last+no-upd-alt,"
      "no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
      "no-ref-golden+no-upd-golden+no-upd-alt,"
      "no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
      "no-upd-last+no-upd-alt,"
      "no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy>");
  gst_value_array_init (&flags, 8);
  g_value_init (&v, G_TYPE_BOOLEAN);
  for (guint i = 0; i < 8; i++) {
    g_value_set_boolean (&v, sync[i]);
    gst_value_array_append_value (&flags, &v);
  }
  /* vp8enc crashes with temporal layers but no sync flags. */
  g_object_set_property (G_OBJECT (enc),
      "temporal-scalability-layer-sync-flags", &flags);
  g_value_unset (&flags);
  g_value_unset (&v);
  g_object_set (enc, "temporal-scalability-number-layers", 3,
      "temporal-scalability-periodicity", 4, "error-resilient", 1,
      "keyframe-max-dist", 8, NULL);
}

static GstBuffer *
video_frame (guint8 fill, guint i)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 160 * 120 * 3 / 2, NULL);
  gst_buffer_memset (buf, 0, fill, 160 * 120 * 3 / 2);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 30);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (1, GST_SECOND, 30);
  return buf;
}

GST_START_TEST (test_framerate_policy_tags_vp8_temporal_layers)
{
  GstHarness *h = gst_harness_new_parse ("vp8enc ! octopustag policy=framerate");
  GstElement *enc = gst_harness_find_element (h, "vp8enc");
  /* Key frame 0/0, TL0 1/2, TL1 2/2, TL2 3/3 over layers 0,2,1,2,0,2,1,2. */
  static const guint prio[] = { 0, 3, 2, 3, 1, 3, 2, 3 };
  static const guint thr[] = { 0, 3, 2, 3, 2, 3, 2, 3 };

  configure_vp8_temporal_layers (enc);
  gst_object_unref (enc);
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=I420,width=160,height=120,framerate=30/1");
  for (guint i = 0; i < 8; i++) {
    GstBuffer *in = video_frame (0x42, i);
    GstBuffer *out;
    GstOctopusMeta *m;

    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
    out = gst_harness_pull (h);
    m = gst_buffer_get_octopus_meta (out);
    fail_unless (m != NULL);
    fail_unless_equals_int (m->priority, prio[i]);
    fail_unless_equals_int (m->priority_threshold, thr[i]);
    fail_unless (m->drop);
    fail_unless_equals_int (m->keyframe, i == 0);
    fail_unless_equals_int (m->frame_id, i);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static GstBuffer *
meta_buffer_full (guint32 frame, gboolean keyframe, guint8 spatial,
    guint8 temporal, guint8 cell, guint8 density, guint64 bitrate)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 10000, NULL);
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (buf);
  m->frame_id = frame;
  m->keyframe = keyframe;
  m->spatial_layer = spatial;
  m->temporal_layer = temporal;
  m->cell_id = cell;
  m->density_layer = density;
  m->media_bitrate_threshold_bps = bitrate;
  return buf;
}

static GstBuffer *
meta_buffer (gboolean keyframe, guint8 spatial, guint8 temporal, guint8 cell,
    guint8 density, guint64 bitrate)
{
  return meta_buffer_full (0, keyframe, spatial, temporal, cell, density,
      bitrate);
}

static GstOctopusMeta *
push_pull (GstHarness *h, GstBuffer *in, GstBuffer **out)
{
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  *out = gst_harness_pull (h);
  return gst_buffer_get_octopus_meta (*out);
}

/* Tags come from the key-frame flag and the layer id, not the position. */
GST_START_TEST (test_framerate_policy_ignores_frame_position)
{
  GstHarness *h = gst_harness_new_parse ("octopustag policy=framerate");
  GstBuffer *out;
  GstOctopusMeta *m;

  gst_harness_set_src_caps_str (h, "video/x-vp8");
  /* An off-pattern key frame declared as TL2 still gets 0/0. */
  m = push_pull (h, meta_buffer (TRUE, 0xff, 2, 0xff, 0xff, 0), &out);
  fail_unless_equals_int (m->priority, 0);
  fail_unless_equals_int (m->priority_threshold, 0);
  gst_buffer_unref (out);
  /* A delta TL0 frame is 1/2 wherever it sits. */
  m = push_pull (h, meta_buffer (FALSE, 0xff, 0, 0xff, 0xff, 0), &out);
  fail_unless_equals_int (m->priority, 1);
  fail_unless_equals_int (m->priority_threshold, 2);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_quality_policy)
{
  GstHarness *h = gst_harness_new_parse ("octopustag policy=quality");
  GstBuffer *out;
  GstOctopusMeta *m;

  gst_harness_set_src_caps_str (h, "video/x-h264");
  m = push_pull (h, meta_buffer (TRUE, 0, 0xff, 0xff, 0xff, 0), &out);
  fail_unless_equals_int (m->priority, 0);
  fail_unless (m->drop);
  fail_unless_equals_int (m->priority_threshold, 0);
  fail_unless_equals_uint64 (m->link_bitrate_threshold_bps, 0);
  gst_buffer_unref (out);

  m = push_pull (h, meta_buffer (FALSE, 0, 0xff, 0xff, 0xff, 0), &out);
  fail_if (m->drop);
  gst_buffer_unref (out);

  /* Q2: threshold = its cumulative rate plus the transport's overhead. */
  m = push_pull (h, meta_buffer (FALSE, 2, 0xff, 0xff, 0xff, 3000000), &out);
  fail_unless_equals_int (m->priority, 2);
  fail_if (m->drop);
  fail_unless (m->link_bitrate_threshold_bps > 3000000);
  fail_unless (m->link_bitrate_threshold_bps < 3000000 * 1.06);
  fail_unless_equals_int (m->slack_ms, OCTO_PRESET_QUALITY_SLACK_MS);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* slack=-1 (the default) is the policy's: 10 ms for quality, 0 for the
 * others (none with no upstream meta: its property values); a slack the app
 * sets wins, 0 included. */
GST_START_TEST (test_slack_is_the_policys_unless_set)
{
  const struct {
    const gchar *launch;
    guint want;
  } cases[] = {
    {"octopustag policy=quality", OCTO_PRESET_QUALITY_SLACK_MS},
    {"octopustag policy=quality slack=0", 0},
    {"octopustag policy=quality slack=40", 40},
    {"octopustag policy=framerate", 0},
    {"octopustag policy=framerate slack=25", 25},
    {"octopustag policy=volumetric", 0},
    {"octopustag policy=none", 0},
    {"octopustag policy=none slack=7", 7},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstHarness *h = gst_harness_new_parse (cases[i].launch);
    GstBuffer *out;
    GstOctopusMeta *m;
    gboolean none = strstr (cases[i].launch, "none") != NULL;
    gst_harness_set_src_caps_str (h, "video/x-vp8");
    m = push_pull (h, none ? gst_buffer_new_allocate (NULL, 10, NULL) :
        meta_buffer (FALSE, 1, 0, 0, 0, 1000000), &out);
    fail_unless_equals_int (m->slack_ms, cases[i].want);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_volumetric_policy_live_and_trace_tables)
{
  GstHarness *h = gst_harness_new_parse ("octopustag policy=volumetric");
  GstBuffer *out;
  GstOctopusMeta *m;
  /* cell, layer -> priority for the live table */
  static const guint live[][3] = {
    {0, 0, 0}, {1, 0, 0}, {0, 1, 1}, {1, 2, 1}, {0, 3, 2}, {1, 4, 2},
    {2, 0, 3}, {3, 4, 3},
  };
  static const guint trace[][3] = {
    {1, 0, 0}, {0, 1, 1}, {1, 4, 1}, {0, 5, 2}, {1, 6, 3}, {0, 9, 3},
  };

  gst_harness_set_src_caps_str (h, "application/x-pointcloud");
  for (guint i = 0; i < G_N_ELEMENTS (live); i++) {
    m = push_pull (h, meta_buffer (FALSE, 0xff, 0xff, live[i][0], live[i][1],
            0), &out);
    fail_unless_equals_int (m->priority, live[i][2]);
    fail_unless_equals_int (m->drop, live[i][0] == 0 && live[i][1] == 0);
    gst_buffer_unref (out);
  }
  /* Cell 0's L0 threshold cycles 3, 2, 1, 0 over consecutive frames. */
  for (guint f = 1; f <= 4; f++) {
    m = push_pull (h, meta_buffer_full (f, FALSE, 0xff, 0xff, 0, 0, 0), &out);
    fail_unless (m->drop);
    fail_unless_equals_int (m->priority_threshold, 3 - (f % 4));
    gst_buffer_unref (out);
  }

  gst_harness_set (h, "octopustag", "density-layers", 10, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (trace); i++) {
    m = push_pull (h, meta_buffer (FALSE, 0xff, 0xff, trace[i][0],
            trace[i][1], 0), &out);
    fail_unless_equals_int (m->priority, trace[i][2]);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

static void
raise_priority (GstElement *tag, GstBuffer *buf, GstStructure *params,
    gpointer data)
{
  guint frame_id;
  (void) tag;
  (void) data;
  fail_unless (gst_structure_has_name (params, "octopus-params"));
  fail_unless (gst_structure_get_uint (params, "frame_id", &frame_id));
  if (gst_buffer_get_size (buf) == 7) {
    /* as a binding sets it: a signed int; out-of-range values clamp */
    gst_structure_set (params, "priority", G_TYPE_INT, 6,
        "slack_ms", G_TYPE_INT64, (gint64) 1 << 40, NULL);
    /* the description is read only */
    gst_structure_set (params, "frame_id", G_TYPE_UINT, 999, NULL);
  }
}

GST_START_TEST (test_none_policy_uses_properties_and_signal)
{
  GstHarness *h = gst_harness_new_parse ("octopustag stream-id=4 priority=2 "
      "drop=true priority-threshold=5 slack=30");
  GstElement *tag = gst_harness_find_element (h, "octopustag");
  GstBuffer *out;
  GstOctopusMeta *m;

  g_signal_connect (tag, "tag", G_CALLBACK (raise_priority), NULL);
  gst_harness_set_src_caps_str (h, "application/octet-stream");
  m = push_pull (h, gst_buffer_new_allocate (NULL, 10, NULL), &out);
  fail_unless_equals_int (m->stream_id, 4);
  fail_unless_equals_int (m->priority, 2);
  fail_unless (m->drop);
  fail_unless_equals_int (m->priority_threshold, 5);
  fail_unless_equals_int (m->slack_ms, 30);
  gst_buffer_unref (out);
  m = push_pull (h, gst_buffer_new_allocate (NULL, 7, NULL), &out);
  fail_unless_equals_int (m->priority, 6);
  fail_unless_equals_int (m->slack_ms, GST_OCTOPUS_SLACK_MS_MAX);
  fail_unless (m->frame_id != 999);
  gst_buffer_unref (out);
  gst_object_unref (tag);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
octopus_meta_tag_suite (void)
{
  Suite *s = suite_create ("octopus-meta-tag");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_meta_has_no_tags_and_survives_copies);
  tcase_add_test (tc, test_meta_core_wire_round_trip);
  tcase_add_test (tc, test_meta_limits_are_the_cores);
  tcase_add_test (tc, test_bandwidth_event_round_trip);
  tcase_add_test (tc, test_framerate_policy_tags_vp8_temporal_layers);
  tcase_add_test (tc, test_framerate_policy_ignores_frame_position);
  tcase_add_test (tc, test_quality_policy);
  tcase_add_test (tc, test_slack_is_the_policys_unless_set);
  tcase_add_test (tc, test_volumetric_policy_live_and_trace_tables);
  tcase_add_test (tc, test_none_policy_uses_properties_and_signal);
  return s;
}

GST_CHECK_MAIN (octopus_meta_tag);
