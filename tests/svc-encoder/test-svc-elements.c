/* octopussvcenc and octopussvcdec in GstHarness: one buffer per layer with
 * the contract's metas and flags, VP8 layer metas read by octopustag,
 * bitrate changes at GoP starts, and the decoder's choice of layers when
 * messages are lost. */
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "svc-config.h"
#include "transport/octo-packet.h"

#define W 320
#define H 180
#define VP9_ENC_FOR_FLUSH \
  "octopussvcenc codec=vp9 spatial-layers=3 gop=30 bitrate=600000 speed=8"
#define CAPS "video/x-raw,format=I420,width=320,height=180,framerate=30/1"

static GstBuffer *
synth_buffer (guint f)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H * 3 / 2, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (guint j = 0; j < H; j++)
    for (guint i = 0; i < W; i++)
      map.data[j * W + i] = (guint8) (128 + 60 * sin ((i + 2.0 * f) / 9.0) *
          cos ((j + 1.0 * f) / 13.0));
  memset (map.data + W * H, 128, W * H / 2);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = f * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

static GstHarness *
encoder_harness (const gchar *launch)
{
  GstHarness *h = gst_harness_new_parse (launch);

  gst_harness_set_src_caps_str (h, CAPS);
  return h;
}

/* Pushes frames [from, to) and returns every buffer that came out. */
static GPtrArray *
encode (GstHarness *h, guint from, guint to)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  GstBuffer *buf;

  for (guint f = from; f < to; f++) {
    fail_unless_equals_int (gst_harness_push (h, synth_buffer (f)),
        GST_FLOW_OK);
    while ((buf = gst_harness_try_pull (h)))
      g_ptr_array_add (out, buf);
  }
  return out;
}

GST_START_TEST (test_vp9_one_buffer_per_spatial_layer_with_metas_and_flags)
{
  GstHarness *h = encoder_harness ("octopussvcenc codec=vp9 spatial-layers=3 "
      "gop=5 bitrate=600000 speed=8");
  GPtrArray *out = encode (h, 0, 12);
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  GstStructure *s = gst_caps_get_structure (caps, 0);
  static const guint64 cumulative[3] = { 120000, 300000, 600000 };
  gint v;

  fail_unless (gst_structure_has_name (s, "video/x-vp9"));
  fail_unless (gst_structure_get_int (s, "width", &v) && v == W);
  fail_unless (gst_structure_get_int (s, "height", &v) && v == H);
  fail_unless (gst_structure_get_int (s, "spatial-layers", &v) && v == 3);
  fail_unless (gst_structure_get_int (s, "temporal-layers", &v) && v == 1);
  gst_caps_unref (caps);

  fail_unless_equals_int (out->len, 36);
  for (guint i = 0; i < out->len; i++) {
    GstBuffer *buf = g_ptr_array_index (out, i);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    guint frame = i / 3, layer = i % 3;
    gboolean key = frame % 5 == 0;

    fail_unless (m != NULL);
    fail_unless_equals_int (m->frame_id, frame);
    fail_unless_equals_int (m->spatial_layer, layer);
    fail_unless_equals_int (m->temporal_layer, 0);
    fail_unless_equals_int (m->keyframe, key);
    fail_unless_equals_uint64 (m->media_bitrate_threshold_bps,
        cumulative[layer]);
    fail_unless_equals_uint64 (m->link_bitrate_threshold_bps, 0);
    fail_unless_equals_int (m->priority, 0);
    fail_unless_equals_int (m->drop, FALSE);
    fail_unless (GST_CLOCK_TIME_IS_VALID (m->capture_time));
    fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), frame * GST_SECOND / 30);
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (buf,
            GST_BUFFER_FLAG_DELTA_UNIT), !(key && layer == 0));
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (buf,
            GST_BUFFER_FLAG_MARKER), layer == 2);
  }
  g_ptr_array_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
vp8_meta_uint (GstBuffer *buf, const gchar *field)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, "GstVP8Meta");
  guint v = G_MAXUINT;

  fail_unless (meta != NULL);
  fail_unless (gst_structure_get_uint (gst_custom_meta_get_structure (meta),
          field, &v));
  return v;
}

static gboolean
vp8_meta_bool (GstBuffer *buf, const gchar *field)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, "GstVP8Meta");
  gboolean v = FALSE;

  fail_unless (gst_structure_get_boolean (gst_custom_meta_get_structure
          (meta), field, &v));
  return v;
}

GST_START_TEST (test_vp8_temporal_layers_tagged_by_octopustag)
{
  GstHarness *h = encoder_harness ("octopussvcenc codec=vp8 "
      "temporal-layers=3 gop=8 bitrate=500000 ! octopustag policy=framerate");
  GPtrArray *out = encode (h, 0, 16);
  static const guint layer[8] = { 0, 2, 1, 2, 0, 2, 1, 2 };
  static const gboolean sync[8] = { 0, 1, 1, 0, 0, 1, 1, 0 };
  /* docs/design.md framerate tags: key 0/0, TL0 1/2, TL1 2/2, TL2 3/3 */
  static const guint prio[8] = { 0, 3, 2, 3, 1, 3, 2, 3 };
  static const guint thresh[8] = { 0, 3, 2, 3, 2, 3, 2, 3 };
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);

  fail_unless (gst_structure_has_name (gst_caps_get_structure (caps, 0),
          "video/x-vp8"));
  {
    gint n = 0;
    fail_unless (gst_structure_get_int (gst_caps_get_structure (caps, 0),
            "temporal-layers", &n));
    fail_unless_equals_int (n, 3);
  }
  gst_caps_unref (caps);
  fail_unless_equals_int (out->len, 16);
  for (guint i = 0; i < out->len; i++) {
    GstBuffer *buf = g_ptr_array_index (out, i);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    guint p = i % 8;

    fail_unless_equals_int (m->frame_id, i);
    fail_unless_equals_int (m->keyframe, p == 0);
    fail_unless_equals_int (m->temporal_layer, layer[p]);
    fail_unless_equals_int (vp8_meta_uint (buf, "layer-id"), layer[p]);
    fail_unless_equals_int (vp8_meta_bool (buf, "use-temporal-scaling"),
        TRUE);
    fail_unless_equals_int (vp8_meta_bool (buf, "layer-sync"), sync[p]);
    /* TL0 frames so far, this one included */
    fail_unless_equals_int (vp8_meta_uint (buf, "tl0picidx"), i / 4 + 1);
    fail_unless_equals_int (m->priority, prio[p]);
    fail_unless_equals_int (m->priority_threshold, thresh[p]);
    fail_unless_equals_int (m->drop, TRUE);
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (buf,
            GST_BUFFER_FLAG_DELTA_UNIT), p != 0);
  }
  g_ptr_array_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

static guint64
top_layer_rate (GstBuffer *buf)
{
  return gst_buffer_get_octopus_meta (buf)->media_bitrate_threshold_bps;
}

GST_START_TEST (test_bitrate_change_takes_effect_at_gop_start)
{
  GstHarness *h = encoder_harness ("octopussvcenc codec=vp9 "
      "spatial-layers=1 gop=5 bitrate=600000 speed=8");
  GPtrArray *before, *after;

  before = encode (h, 0, 7);
  {
    GstElement *enc = gst_harness_find_element (h, "octopussvcenc");
    g_object_set (enc, "bitrate", 900000, NULL);
    gst_object_unref (enc);
  }
  after = encode (h, 7, 12);
  for (guint i = 0; i < before->len; i++)
    fail_unless_equals_uint64 (top_layer_rate (g_ptr_array_index (before, i)),
        600000);
  /* frames 7..9 finish the GoP at the old rate, 10 starts the new one */
  for (guint i = 0; i < after->len; i++)
    fail_unless_equals_uint64 (top_layer_rate (g_ptr_array_index (after, i)),
        i < 3 ? 600000 : 900000);
  g_ptr_array_unref (before);
  g_ptr_array_unref (after);
  gst_harness_teardown (h);
}

GST_END_TEST;

static void
check_follow_bandwidth (gboolean follow)
{
  GstHarness *h = encoder_harness (follow ?
      "octopussvcenc codec=vp9 spatial-layers=3 gop=5 bitrate=600000 speed=8 "
      "follow-bandwidth=true" :
      "octopussvcenc codec=vp9 spatial-layers=3 gop=5 bitrate=600000 speed=8");
  GPtrArray *before, *after;
  /* the estimate is a link rate; the target is the media rate inside it */
  guint64 followed = svc_config_media_rate_for_link (2000000,
      1400 - OCTO_DATA_PREFIX_LEN, OCTO_DATA_PREFIX_LEN + OCTO_LINK_OVERHEAD);

  before = encode (h, 0, 3);
  fail_unless (gst_harness_push_upstream_event (h,
          gst_octopus_event_new_bandwidth (2000000)));
  after = encode (h, 3, 7);
  fail_unless_equals_int (after->len, 12);
  for (guint i = 0; i < after->len; i++) {
    GstBuffer *buf = g_ptr_array_index (after, i);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    static const gdouble share[3] = { 0.2, 0.5, 1.0 };
    guint64 total = follow && m->frame_id >= 5 ? followed : 600000;

    fail_unless_equals_uint64 (m->media_bitrate_threshold_bps,
        (guint64) (total * share[m->spatial_layer] + 0.5));
  }
  g_ptr_array_unref (before);
  g_ptr_array_unref (after);
  gst_harness_teardown (h);
}

GST_START_TEST (test_follow_bandwidth_sets_rate_at_next_gop)
{
  check_follow_bandwidth (TRUE);
  check_follow_bandwidth (FALSE);
}

GST_END_TEST;

/* With the rate from the estimate, octopustag's Q2 threshold (a link rate)
 * is the estimate, not above it: the top layer is not dropped by the
 * bitrate rule while the link delivers the estimate. */
GST_START_TEST (test_followed_rate_keeps_top_threshold_within_estimate)
{
  GstHarness *h = encoder_harness ("octopussvcenc codec=vp9 "
      "spatial-layers=3 gop=2 bitrate=600000 speed=8 follow-bandwidth=true "
      "! octopustag policy=quality");
  GPtrArray *out;
  GstOctopusMeta *top;

  fail_unless (gst_harness_push_upstream_event (h,
          gst_octopus_event_new_bandwidth (3000000)));
  out = encode (h, 0, 3);
  top = gst_buffer_get_octopus_meta (g_ptr_array_index (out, 8));
  fail_unless_equals_int (top->frame_id, 2);
  fail_unless (top->link_bitrate_threshold_bps <= 3000000);
  fail_unless (top->link_bitrate_threshold_bps > 3000000 - 100);
  g_ptr_array_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A loopback estimate of ~900 Mbit/s is followed only up to max-bitrate
 * (default 20 Mbit/s); 0 lifts the cap. */
GST_START_TEST (test_followed_rate_is_capped_by_max_bitrate)
{
  static const struct {
    const gchar *option;
    guint expected;
  } cases[] = {
    {"", 20000000},
    {"max-bitrate=5000000", 5000000},
    {"max-bitrate=0", 0},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *launch = g_strdup_printf ("octopussvcenc codec=vp9 "
        "spatial-layers=3 follow-bandwidth=true %s", cases[i].option);
    GstHarness *h = encoder_harness (launch);
    GstElement *enc = gst_harness_find_element (h, "octopussvcenc");
    guint bitrate;

    fail_unless (gst_harness_push_upstream_event (h,
            gst_octopus_event_new_bandwidth (932000000)));
    g_object_get (enc, "bitrate", &bitrate, NULL);
    if (cases[i].expected > 0) {
      fail_unless_equals_int (bitrate, cases[i].expected);
    } else {
      fail_unless (bitrate > 800000000, "uncapped: %u", bitrate);
    }
    gst_object_unref (enc);
    gst_harness_teardown (h);
    g_free (launch);
  }
}

GST_END_TEST;

/* Tags by spatial layer alone, whatever the temporal layer (README). */
static void
check_quality_tags (guint temporal_layers)
{
  gchar *launch = g_strdup_printf ("octopussvcenc codec=vp9 spatial-layers=3 "
      "temporal-layers=%u gop=5 bitrate=1000000 speed=8 ! octopustag "
      "policy=quality", temporal_layers);
  GstHarness *h = encoder_harness (launch);
  GPtrArray *out = encode (h, 0, 6);
  /* 0,2,1,2 from each key picture */
  static const guint tl3[6] = { 0, 2, 1, 2, 0, 0 };

  fail_unless_equals_int (out->len, 18);
  for (guint i = 0; i < out->len; i++) {
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (g_ptr_array_index (out,
            i));
    guint layer = i % 3;

    fail_unless_equals_int (m->temporal_layer,
        temporal_layers == 3 ? tl3[m->frame_id] : 0);
    fail_unless_equals_int (m->priority, layer);
    /* every layer of a key picture: a dropper of its layer and above */
    fail_unless_equals_int (m->drop, m->frame_id % 5 == 0);
    if (m->drop)
      fail_unless_equals_int (m->priority_threshold, layer);
    if (layer == 0) {
      fail_unless_equals_uint64 (m->link_bitrate_threshold_bps, 0);
    } else {
      /* the layer's cumulative media rate as a link rate (a few % more) */
      guint64 media = layer == 1 ? 500000 : 1000000;
      fail_unless (m->link_bitrate_threshold_bps > media);
      fail_unless (m->link_bitrate_threshold_bps < media * 11 / 10);
    }
  }
  g_ptr_array_unref (out);
  gst_harness_teardown (h);
  g_free (launch);
}

GST_START_TEST (test_quality_tags_from_octopussvcenc_meta)
{
  check_quality_tags (1);
  check_quality_tags (3);
}

GST_END_TEST;

GST_START_TEST (test_flush_restarts_with_key_picture)
{
  GstHarness *h = encoder_harness (VP9_ENC_FOR_FLUSH);
  GPtrArray *before = encode (h, 0, 3), *after;
  GstOctopusMeta *m;

  /* a flush may have discarded upper layers already encoded */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  {
    GstSegment segment;
    gst_segment_init (&segment, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  }
  after = encode (h, 3, 5);
  fail_unless_equals_int (after->len, 6);
  m = gst_buffer_get_octopus_meta (g_ptr_array_index (after, 0));
  fail_unless_equals_int (m->frame_id, 3);
  fail_unless_equals_int (m->keyframe, TRUE);
  m = gst_buffer_get_octopus_meta (g_ptr_array_index (after, 3));
  fail_unless_equals_int (m->keyframe, FALSE);
  g_ptr_array_unref (before);
  g_ptr_array_unref (after);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Encodes @n frames and feeds octopussvcdec the buffers @keep allows;
 * returns the spatial layer each shown frame used, by frame id (-1: not
 * shown). */
static GArray *
decode_with_losses (const gchar *encoder, guint n,
    gboolean (*keep) (GstOctopusMeta *m), const gchar *decoder)
{
  GstHarness *enc = encoder_harness (encoder);
  GstHarness *dec = gst_harness_new_parse (decoder);
  GPtrArray *coded = encode (enc, 0, n);
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (gint));
  GstCaps *caps = gst_pad_get_current_caps (enc->sinkpad);
  GstBuffer *buf;

  g_array_set_size (shown, n);
  for (guint i = 0; i < n; i++)
    g_array_index (shown, gint, i) = -1;
  gst_harness_set_src_caps (dec, caps);
  for (guint i = 0; i < coded->len; i++) {
    GstBuffer *b = g_ptr_array_index (coded, i);
    if (keep (gst_buffer_get_octopus_meta (b)))
      fail_unless_equals_int (gst_harness_push (dec, gst_buffer_ref (b)),
          GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (dec, gst_event_new_eos ()));
  caps = gst_pad_get_current_caps (dec->sinkpad);
  fail_unless (caps != NULL);
  {
    GstVideoInfo info;
    fail_unless (gst_video_info_from_caps (&info, caps));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), W);
    fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&info), H);
  }
  gst_caps_unref (caps);
  while ((buf = gst_harness_try_pull (dec))) {
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    fail_unless (m != NULL);
    fail_unless_equals_int (gst_buffer_get_size (buf), W * H * 3 / 2);
    fail_unless (m->frame_id < n);
    fail_unless_equals_int (g_array_index (shown, gint, m->frame_id), -1);
    g_array_index (shown, gint, m->frame_id) = m->spatial_layer;
    gst_buffer_unref (buf);
  }
  g_ptr_array_unref (coded);
  gst_harness_teardown (enc);
  gst_harness_teardown (dec);
  return shown;
}

static void
assert_shown (GArray *shown, const gint *expected, guint n)
{
  fail_unless_equals_int (shown->len, n);
  for (guint i = 0; i < n; i++)
    fail_unless_equals_int (g_array_index (shown, gint, i), expected[i]);
  g_array_unref (shown);
}

#define VP9_ENC "octopussvcenc codec=vp9 spatial-layers=3 gop=5 " \
    "bitrate=600000 speed=8"

static gboolean
keep_all (GstOctopusMeta *m)
{
  (void) m;
  return TRUE;
}

/* frame 2 loses Q2, frame 6 Q1, frame 11 Q0 */
static gboolean
keep_some (GstOctopusMeta *m)
{
  return !((m->frame_id == 2 && m->spatial_layer == 2)
      || (m->frame_id == 6 && m->spatial_layer == 1)
      || (m->frame_id == 11 && m->spatial_layer == 0));
}

GST_START_TEST (test_octopussvcdec_shows_highest_decodable_layer)
{
  static const gint all[15] = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };
  /* Q2 lost at 2: 2..4 at Q1 until the key picture at 5; Q1 lost at 6: 6..9
   * at Q0 (Q2 needs Q1); Q0 lost at 11: 11..14 not decodable */
  static const gint some[15] = { 2, 2, 1, 1, 1, 2, 0, 0, 0, 0, 2, -1, -1, -1,
    -1
  };

  assert_shown (decode_with_losses (VP9_ENC, 15, keep_all, "octopussvcdec"),
      all, 15);
  assert_shown (decode_with_losses (VP9_ENC, 15, keep_some, "octopussvcdec"),
      some, 15);
}

GST_END_TEST;

#define VP9_SYNC_ENC "octopussvcenc codec=vp9 spatial-layers=3 gop=1000 " \
    "spatial-sync=5 bitrate=600000 speed=8"

/* Spatial syncs every 5 frames, one key frame, the losses of keep_some:
 * the upper layers recover at the syncs (5, 10), and after the lost Q0 of
 * frame 11 the stream recovers at the next sync (15) only with
 * intra-base-sync, whose sync pictures octopustag tags as key pictures
 * (Q0 a dropper of threshold 0) while their Q0 stays a delta unit. */
GST_START_TEST (test_intra_base_sync_recovers_lost_q0_without_key_frame)
{
  static const gint syncs[20] = { 2, 2, 1, 1, 1, 2, 0, 0, 0, 0, 2, -1, -1, -1,
    -1, 2, 2, 2, 2, 2
  };
  static const gint upper_only[20] = { 2, 2, 1, 1, 1, 2, 0, 0, 0, 0, 2, -1,
    -1, -1, -1, -1, -1, -1, -1, -1
  };
  GstHarness *h = encoder_harness (VP9_SYNC_ENC " intra-base-sync=true "
      "! octopustag policy=quality");
  GPtrArray *out = encode (h, 0, 11);

  for (guint i = 0; i < out->len; i++) {
    GstBuffer *b = g_ptr_array_index (out, i);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (b);
    gboolean sync = m->frame_id % 5 == 0;

    fail_unless_equals_int (m->keyframe, sync);
    fail_unless_equals_int (m->drop, sync);
    if (m->spatial_layer == 0) {
      fail_unless_equals_int (m->priority_threshold, 0);
      fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (b,
              GST_BUFFER_FLAG_DELTA_UNIT), m->frame_id > 0);
    }
  }
  g_ptr_array_unref (out);
  gst_harness_teardown (h);

  assert_shown (decode_with_losses (VP9_SYNC_ENC " intra-base-sync=true", 20,
          keep_some, "octopussvcdec"), syncs, 20);
  assert_shown (decode_with_losses (VP9_SYNC_ENC, 20, keep_some,
          "octopussvcdec"), upper_only, 20);
}

GST_END_TEST;

/* Q0 lost at frame 11 (keep_some): with request-keyframe one upstream
 * force-key-unit event for frames 12-14 (80 ms of stream time, under the
 * 500 ms between requests); none without it. */
static guint
keyframe_requests (const gchar *decoder)
{
  GstHarness *enc = encoder_harness (VP9_ENC);
  GstHarness *dec = gst_harness_new_parse (decoder);
  GPtrArray *coded = encode (enc, 0, 15);
  GstEvent *ev;
  guint requests = 0;

  gst_harness_set_src_caps (dec, gst_pad_get_current_caps (enc->sinkpad));
  for (guint i = 0; i < coded->len; i++) {
    GstBuffer *b = g_ptr_array_index (coded, i);
    if (keep_some (gst_buffer_get_octopus_meta (b)))
      fail_unless_equals_int (gst_harness_push (dec, gst_buffer_ref (b)),
          GST_FLOW_OK);
  }
  while ((ev = gst_harness_try_pull_upstream_event (dec))) {
    if (gst_video_event_is_force_key_unit (ev))
      requests++;
    gst_event_unref (ev);
  }
  g_ptr_array_unref (coded);
  gst_harness_teardown (enc);
  gst_harness_teardown (dec);
  return requests;
}

GST_START_TEST (test_octopussvcdec_requests_keyframe_when_q0_lost)
{
  fail_unless_equals_int (keyframe_requests
      ("octopussvcdec request-keyframe=true"), 1);
  fail_unless_equals_int (keyframe_requests ("octopussvcdec"), 0);
}

GST_END_TEST;

#define VP9_TL_ENC "octopussvcenc codec=vp9 spatial-layers=3 " \
    "temporal-layers=3 gop=8 bitrate=600000 speed=8"

static gboolean
keep_below_tl2 (GstOctopusMeta *m)
{
  return m->temporal_layer < 2;
}

/* frame 2 (TL1) loses Q2, frame 12 (TL0) loses Q0 */
static gboolean
keep_spatial_temporal_some (GstOctopusMeta *m)
{
  return !((m->frame_id == 2 && m->spatial_layer == 2)
      || (m->frame_id == 12 && m->spatial_layer == 0));
}

GST_START_TEST (test_octopussvcdec_vp9_spatial_and_temporal_losses)
{
  static const gint no_tl2[16] = { 2, -1, 2, -1, 2, -1, 2, -1, 2, -1, 2, -1,
    2, -1, 2, -1
  };
  /* 3 (TL2) refs 2 at its own spatial layer: Q1; 4 (TL0) refs 0; 13 and 14
   * ref 12, 15 refs 14: not decodable until the key picture at 16 */
  static const gint some[16] = { 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, -1, -1,
    -1, -1
  };

  assert_shown (decode_with_losses (VP9_TL_ENC, 16, keep_below_tl2,
          "octopussvcdec"), no_tl2, 16);
  assert_shown (decode_with_losses (VP9_TL_ENC, 16,
          keep_spatial_temporal_some, "octopussvcdec"), some, 16);
}

GST_END_TEST;

#define VP8_ENC "octopussvcenc codec=vp8 temporal-layers=3 gop=8 bitrate=500000"

/* frame 2 (TL1) and frame 12 (TL0) lost */
static gboolean
keep_vp8_some (GstOctopusMeta *m)
{
  return m->frame_id != 2 && m->frame_id != 12;
}

GST_START_TEST (test_octopussvcdec_vp8_skips_frames_with_lost_references)
{
  static const gint no_tl2[16] = { 0, -1, 0, -1, 0, -1, 0, -1, 0, -1, 0, -1,
    0, -1, 0, -1
  };
  /* 3 refs 2; 13 refs 12, 14 refs 12, 15 refs 14 */
  static const gint some[16] = { 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1,
    -1, -1
  };

  assert_shown (decode_with_losses (VP8_ENC, 16, keep_below_tl2,
          "octopussvcdec temporal-layers=3"), no_tl2, 16);
  /* the layer count from the caps */
  assert_shown (decode_with_losses (VP8_ENC, 16, keep_vp8_some,
          "octopussvcdec"), some, 16);
}

GST_END_TEST;

/* The first SVC receiver a user writes: octopussrc (default caps
 * application/x-octopus, the type unannounced) ! octopussvcdec, no caps
 * written by hand.  A live VP9
 * 3 SL x 3 TL stream over loopback comes out at the source's full size and
 * rate, each frame decoded up to its top layer. */
static void
assert_received_without_caps (const gchar *src_caps, const gchar *encoder,
    guint top_layer)
{
  gchar *rx_desc = g_strdup_printf ("octopussrc name=in port=0 "
      "stats-interval=0 %s ! octopussvcdec name=dec ! appsink name=out "
      "sync=false", src_caps);
  GstElement *rx = gst_parse_launch (rx_desc, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (rx), "in");
  GstElement *out = gst_bin_get_by_name (GST_BIN (rx), "out");
  GstElement *tx;
  gchar *desc;
  gint port = 0, v, fps_n = 0, fps_d = 0;
  guint frames = 0, at_top = 0;
  guint32 last_id = 0;
  GstSample *sample;

  g_free (rx_desc);
  fail_unless_equals_int (gst_element_set_state (rx, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  g_object_get (src, "bound-port", &port, NULL);
  fail_unless (port > 0);
  desc = g_strdup_printf ("videotestsrc is-live=true num-buffers=60 "
      "pattern=ball ! " CAPS " ! %s ! octopussink host=127.0.0.1 port=%d "
      "stats-interval=0", encoder, port);
  tx = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (tx != NULL);
  gst_element_set_state (tx, GST_STATE_PLAYING);

  while (frames < 50 && (sample = gst_app_sink_try_pull_sample (
              GST_APP_SINK (out), 5 * GST_SECOND))) {
    GstBuffer *buf = gst_sample_get_buffer (sample);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    GstStructure *s = gst_caps_get_structure (gst_sample_get_caps (sample), 0);

    fail_unless (gst_structure_get_int (s, "width", &v) && v == W);
    fail_unless (gst_structure_get_int (s, "height", &v) && v == H);
    fail_unless (gst_structure_get_fraction (s, "framerate", &fps_n, &fps_d));
    fail_unless_equals_int (fps_n, 30);
    fail_unless_equals_int (fps_d, 1);
    fail_unless_equals_int (gst_buffer_get_size (buf), W * H * 3 / 2);
    fail_unless (m != NULL);
    fail_unless (frames == 0 || m->frame_id > last_id);
    last_id = m->frame_id;
    at_top += m->spatial_layer == top_layer;
    frames++;
    gst_sample_unref (sample);
  }
  GST_INFO ("%u frames, %u at the top layer", frames, at_top);
  /* loopback loses nothing but what the send buffer's rules shed */
  fail_unless (frames >= 50, "only %u frames", frames);
  fail_unless (at_top >= frames * 9 / 10, "%u of %u at the top", at_top,
      frames);

  gst_element_set_state (tx, GST_STATE_NULL);
  gst_element_set_state (rx, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (out);
  gst_object_unref (tx);
  gst_object_unref (rx);
}

GST_START_TEST (test_octopussvcdec_needs_no_caps_behind_octopussrc)
{
  assert_received_without_caps ("", "octopussvcenc codec=vp9 spatial-layers=3 "
      "temporal-layers=3 bitrate=600000 speed=8", 2);
  assert_received_without_caps ("", "octopussvcenc codec=vp8 "
      "temporal-layers=3 bitrate=600000 speed=8", 0);
  /* the natural caps, without the layer count: not one frame per layer */
  assert_received_without_caps ("caps=video/x-vp9", "octopussvcenc codec=vp9 "
      "spatial-layers=3 bitrate=600000 speed=8", 2);
  /* the typed default recommended for octopussrc: the stream says the rest */
  assert_received_without_caps ("caps=" GST_OCTOPUS_MESSAGES_CAPS,
      "octopussvcenc codec=vp9 spatial-layers=3 bitrate=600000 speed=8", 2);
  assert_received_without_caps ("caps=" GST_OCTOPUS_MESSAGES_CAPS,
      "octopussvcenc codec=vp8 temporal-layers=3 bitrate=600000 speed=8", 0);
}

GST_END_TEST;

static Suite *
svc_suite (void)
{
  Suite *s = suite_create ("svc-elements");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_vp9_one_buffer_per_spatial_layer_with_metas_and_flags);
  tcase_add_test (tc, test_vp8_temporal_layers_tagged_by_octopustag);
  tcase_add_test (tc, test_bitrate_change_takes_effect_at_gop_start);
  tcase_add_test (tc, test_follow_bandwidth_sets_rate_at_next_gop);
  tcase_add_test (tc, test_followed_rate_keeps_top_threshold_within_estimate);
  tcase_add_test (tc, test_followed_rate_is_capped_by_max_bitrate);
  tcase_add_test (tc, test_quality_tags_from_octopussvcenc_meta);
  tcase_add_test (tc, test_flush_restarts_with_key_picture);
  tcase_add_test (tc, test_octopussvcdec_shows_highest_decodable_layer);
  tcase_add_test (tc, test_octopussvcdec_requests_keyframe_when_q0_lost);
  tcase_add_test (tc, test_intra_base_sync_recovers_lost_q0_without_key_frame);
  tcase_add_test (tc, test_octopussvcdec_vp9_spatial_and_temporal_losses);
  tcase_add_test (tc, test_octopussvcdec_vp8_skips_frames_with_lost_references);
  tcase_add_test (tc, test_octopussvcdec_needs_no_caps_behind_octopussrc);
  return s;
}

GST_CHECK_MAIN (svc);
