/* rtpvp9svcpay <-> rtpvp9svcdepay (RFC 9628 flexible mode) with hand-made
 * layer frames as octopussvcenc emits them: 4 pictures x 3 spatial layers, two
 * temporal layers, picture ids wrapping.  Checks every packet's descriptor
 * and Octopus extension (one message per layer frame), the exact bytes and
 * metas out of the depayloader, and what it yields when a queue removed
 * whole layers or a packet was lost. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/rtp/rtp.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-rtpext.h"
#include "rtpvp9descriptor.h"

#define FRAMES 4
#define LAYERS 3
#define MTU 600
#define FIRST_PID 32766         /* 32766, 32767, 0, 1 */
#define EXT_ID 5

static gsize
layer_size (guint f, guint s)
{
  static const gsize base[LAYERS] = { 700, 1300, 2600 };
  return base[s] + f;
}

static guint8
layer_byte (guint f, guint s, gsize i)
{
  return (guint8) ((f * 3 + s + i) % 251);
}

static GstBuffer *
layer_frame (guint f, guint s)
{
  gsize size = layer_size (f, s);
  guint8 *data = g_malloc (size);
  for (gsize i = 0; i < size; i++)
    data[i] = layer_byte (f, s, i);
  GstBuffer *buf = gst_buffer_new_wrapped (data, size);
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (buf);
  m->frame_id = 100 + f;
  m->spatial_layer = (guint8) s;
  m->temporal_layer = (guint8) (f % 2);
  m->keyframe = f == 0;
  m->priority = (guint8) s;
  GST_BUFFER_PTS (buf) = f * 33 * GST_MSECOND;
  if (f != 0)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);
  if (s == LAYERS - 1)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_MARKER);
  return buf;
}

typedef struct {
  GstBuffer *buf;
  RtpVp9Descriptor d;
  OctoHeader octo;
  gboolean marker;
} Packet;

/* Payloads every layer frame; returns the RTP packets, parsed. */
static GArray *
payload_all (void)
{
  gchar *launch = g_strdup_printf ("rtpvp9svcpay mtu=%d picture-id-offset=%d "
      "! capsfilter caps=\"application/x-rtp,extmap-%d=(string)%s\"", MTU,
      FIRST_PID, EXT_ID, OCTO_RTPEXT_URI);
  GstHarness *h = gst_harness_new_parse (launch);
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (Packet));
  GstBuffer *out;

  gst_harness_set_src_caps_str (h, "video/x-vp9,width=640,height=360,"
      "spatial-layers=3,temporal-layers=2,framerate=30/1");
  for (guint f = 0; f < FRAMES; f++)
    for (guint s = 0; s < LAYERS; s++)
      fail_unless_equals_int (gst_harness_push (h, layer_frame (f, s)),
          GST_FLOW_OK);
  while ((out = gst_harness_try_pull (h))) {
    Packet p = { .buf = out };
    GstMapInfo map;
    OctoRtpPacket rtp;
    GstRTPBuffer r = GST_RTP_BUFFER_INIT;
    gst_buffer_map (out, &map, GST_MAP_READ);
    fail_unless_equals_int (octo_rtp_parse (map.data, map.size, &rtp),
        OCTO_RTP_PARSE_OK);
    fail_unless_equals_int (octo_rtp_get_header (&rtp, EXT_ID, &p.octo),
        OCTO_PARSE_OK);
    gst_buffer_unmap (out, &map);
    gst_rtp_buffer_map (out, GST_MAP_READ, &r);
    fail_unless (rtp_vp9_descriptor_parse (gst_rtp_buffer_get_payload (&r),
            gst_rtp_buffer_get_payload_len (&r), &p.d) > 0);
    p.marker = gst_rtp_buffer_get_marker (&r);
    gst_rtp_buffer_unmap (&r);
    g_array_append_val (packets, p);
  }
  gst_harness_teardown (h);
  g_free (launch);
  return packets;
}

static void
free_packets (GArray *packets)
{
  for (guint i = 0; i < packets->len; i++)
    gst_buffer_unref (g_array_index (packets, Packet, i).buf);
  g_array_free (packets, TRUE);
}

static guint16
expected_pid (guint f)
{
  return (FIRST_PID + f) & RTP_VP9_PICTURE_ID_MASK;
}

GST_START_TEST (test_payloader_writes_flexible_mode_per_layer)
{
  GArray *packets = payload_all ();
  guint f = 0, s = 0, layer_frames = 0;
  gboolean expect_start = TRUE;
  guint32 expect_msg = 0;

  for (guint i = 0; i < packets->len; i++) {
    const Packet *p = &g_array_index (packets, Packet, i);
    fail_unless (p->d.flexible && p->d.has_layers && p->d.has_picture_id);
    fail_unless_equals_int (p->d.start, expect_start);
    fail_unless_equals_int (p->d.picture_id, expected_pid (f));
    fail_unless_equals_int (p->d.sid, s);
    fail_unless_equals_int (p->d.tid, f % 2);
    fail_unless_equals_int (p->d.inter_layer, s > 0);
    fail_unless_equals_int (p->d.not_reference, s == LAYERS - 1);
    fail_unless_equals_int (p->d.inter, f > 0);
    if (f > 0) {
      /* TL1 refers to the previous (TL0) picture, TL0 to the TL0 before */
      fail_unless_equals_int (p->d.n_pdiffs, 1);
      fail_unless_equals_int (p->d.pdiff[0], f % 2 ? 1 : 2);
    }
    fail_unless_equals_int (p->d.has_ss, f == 0 && s == 0 && p->d.start);
    if (p->d.has_ss)
      fail_unless_equals_int (p->d.ss_spatial_layers, LAYERS);
    fail_unless_equals_int (p->marker, p->d.end && s == LAYERS - 1);
    /* the extension: one message per layer frame */
    fail_unless_equals_int (p->octo.first, p->d.start);
    fail_unless_equals_int (p->octo.last, p->d.end);
    fail_unless_equals_int (p->octo.msg_id, expect_msg);
    fail_unless_equals_int (p->octo.priority, s);
    fail_unless (gst_buffer_get_size (p->buf) <= MTU + 20);
    expect_start = p->d.end;
    if (p->d.end) {
      layer_frames++;
      expect_msg++;
      if (++s == LAYERS) {
        s = 0;
        f++;
      }
    }
  }
  fail_unless_equals_int (layer_frames, FRAMES * LAYERS);
  free_packets (packets);
}
GST_END_TEST;

/* Runs @packets minus the ones @keep rejects through the depayloader. */
static GList *
depayload (GArray *packets, gboolean (*keep) (const Packet *, guint),
    guint64 *incomplete)
{
  GstHarness *h = gst_harness_new ("rtpvp9svcdepay");
  gchar *caps = g_strdup_printf ("application/x-rtp,media=video,"
      "clock-rate=90000,encoding-name=VP9,payload=96,extmap-%d=(string)%s",
      EXT_ID, OCTO_RTPEXT_URI);
  GList *out = NULL;
  GstBuffer *b;
  GstStructure *stats;

  gst_harness_set_src_caps_str (h, caps);
  for (guint i = 0; i < packets->len; i++) {
    const Packet *p = &g_array_index (packets, Packet, i);
    if (keep (p, i))
      fail_unless_equals_int (gst_harness_push (h, gst_buffer_copy (p->buf)),
          GST_FLOW_OK);
  }
  while ((b = gst_harness_try_pull (h)))
    out = g_list_append (out, b);
  g_object_get (h->element, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "incomplete-layer-frames", incomplete);
  gst_structure_free (stats);
  gst_harness_teardown (h);
  g_free (caps);
  return out;
}

/* Checks the depayloader's buffers are exactly layer frames @expected
 * (f * LAYERS + s), in order. */
static void
check_layer_frames (GList *out, const guint *expected, guint n)
{
  fail_unless_equals_int (g_list_length (out), n);
  for (guint i = 0; i < n; i++, out = out->next) {
    GstBuffer *b = out->data;
    guint f = expected[i] / LAYERS, s = expected[i] % LAYERS;
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (b);
    GstMapInfo map;

    fail_unless (m != NULL);
    fail_unless_equals_int (m->frame_id, FIRST_PID + f);
    fail_unless_equals_int (m->spatial_layer, s);
    fail_unless_equals_int (m->temporal_layer, f % 2);
    fail_unless_equals_int (m->keyframe, f == 0);
    fail_unless_equals_int (m->priority, s);      /* from the extension */
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (b,
            GST_BUFFER_FLAG_DELTA_UNIT), f != 0);
    fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (b,
            GST_BUFFER_FLAG_MARKER), s == LAYERS - 1);
    gst_buffer_map (b, &map, GST_MAP_READ);
    fail_unless_equals_int (map.size, layer_size (f, s));
    for (gsize k = 0; k < map.size; k++)
      if (map.data[k] != layer_byte (f, s, k))
        fail ("layer frame %u/%u differs at byte %" G_GSIZE_FORMAT, f, s, k);
    gst_buffer_unmap (b, &map);
  }
}

static gboolean
keep_all (const Packet *p, guint index)
{
  (void) p;
  (void) index;
  return TRUE;
}

/* What the Octopus queue does: whole layer frames (messages) removed:
 * picture 1's layer 2, picture 2's layers 1 and 2. */
static gboolean
keep_without_upper_layers (const Packet *p, guint index)
{
  guint f = (p->d.picture_id - FIRST_PID) & RTP_VP9_PICTURE_ID_MASK;
  (void) index;
  return !((f == 1 && p->d.sid == 2) || (f == 2 && p->d.sid >= 1));
}

static guint lost_index;

static gboolean
keep_all_but_one (const Packet *p, guint index)
{
  (void) p;
  return index != lost_index;
}

GST_START_TEST (test_round_trip_restores_every_layer_frame)
{
  GArray *packets = payload_all ();
  guint expected[FRAMES * LAYERS];
  guint64 incomplete = 99;

  for (guint i = 0; i < FRAMES * LAYERS; i++)
    expected[i] = i;
  GList *out = depayload (packets, keep_all, &incomplete);
  check_layer_frames (out, expected, FRAMES * LAYERS);
  fail_unless_equals_uint64 (incomplete, 0);
  g_list_free_full (out, (GDestroyNotify) gst_buffer_unref);
  free_packets (packets);
}
GST_END_TEST;

GST_START_TEST (test_removed_layers_leave_the_others_whole)
{
  GArray *packets = payload_all ();
  static const guint expected[] = { 0, 1, 2, 3, 4, 6, 9, 10, 11 };
  guint64 incomplete = 99;

  GList *out = depayload (packets, keep_without_upper_layers, &incomplete);
  check_layer_frames (out, expected, G_N_ELEMENTS (expected));
  fail_unless_equals_uint64 (incomplete, 0);
  g_list_free_full (out, (GDestroyNotify) gst_buffer_unref);
  free_packets (packets);
}
GST_END_TEST;

GST_START_TEST (test_lost_packet_discards_only_its_layer_frame)
{
  GArray *packets = payload_all ();
  static const guint expected[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  guint64 incomplete = 0;

  /* a middle packet of the last layer frame (picture 3, layer 2) */
  for (lost_index = packets->len - 1;
      !g_array_index (packets, Packet, lost_index).d.start; lost_index--);
  lost_index++;
  fail_if (g_array_index (packets, Packet, lost_index).d.end);
  GList *out = depayload (packets, keep_all_but_one, &incomplete);
  check_layer_frames (out, expected, G_N_ELEMENTS (expected));
  fail_unless_equals_uint64 (incomplete, 1);
  g_list_free_full (out, (GDestroyNotify) gst_buffer_unref);
  free_packets (packets);
}
GST_END_TEST;

GST_START_TEST (test_descriptor_parses_non_flexible_and_rejects_truncation)
{
  /* I (7-bit id 5), L non-flexible with TL0PICIDX, B, E, V with Y (2
   * layers: 8 bytes) and G (one entry with one P_DIFF) */
  static const guint8 desc[] = { 0xae, 0x05, 0x43, 0x11, 0x38, 0x01, 0x40,
    0x00, 0xb4, 0x02, 0x80, 0x01, 0x68, 0x01, 0x24, 0x02 };
  RtpVp9Descriptor d;

  fail_unless_equals_int (rtp_vp9_descriptor_parse (desc, sizeof desc, &d),
      sizeof desc);
  fail_unless_equals_int (d.picture_id, 5);
  fail_unless_equals_int (d.tid, 2);
  fail_unless_equals_int (d.sid, 1);
  fail_unless_equals_int (d.tl0_pic_idx, 0x11);
  fail_unless_equals_int (d.ss_spatial_layers, 2);
  fail_unless (d.start && d.end && d.has_ss && !d.flexible);
  for (gsize len = 0; len < sizeof desc; len++)
    fail_unless_equals_int (rtp_vp9_descriptor_parse (desc, len, &d), 0);
}
GST_END_TEST;

static Suite *
vp9svc_suite (void)
{
  Suite *s = suite_create ("rtpvp9svc");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_payloader_writes_flexible_mode_per_layer);
  tcase_add_test (tc, test_round_trip_restores_every_layer_frame);
  tcase_add_test (tc, test_removed_layers_leave_the_others_whole);
  tcase_add_test (tc, test_lost_packet_discards_only_its_layer_frame);
  tcase_add_test (tc, test_descriptor_parses_non_flexible_and_rejects_truncation);
  return s;
}

GST_CHECK_MAIN (vp9svc);
