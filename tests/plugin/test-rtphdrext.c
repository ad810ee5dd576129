/* rtphdrextoctopus through the stock RTP elements: real VP8 frames from
 * vp8enc, rtpvp8pay picking the extension up from "extmap-5" caps, the
 * packets turned into plain bytes (as a network would), rtpvp8depay
 * restoring GstOctopusMeta.  One-byte form as written, and two-byte form
 * after rewriting every packet's extension block. */
#include <gst/check/gstcheck.h>
#include <gst/rtp/rtp.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-rtpext.h"

#define N_FRAMES 12
#define EXT_ID 5
#define STREAM_ID 7

typedef struct {
  guint frames_in;
  guint packets;
  guint packets_first, packets_last;
  guint32 expected_msg_id;
  gboolean expect_first;
  gboolean two_byte;
  GArray *out;                  /* GstOctopusMeta copies, one per frame */
} Run;

/* Frame i's parameters: every field varies across frames. */
static void
tag_frame (GstOctopusMeta *m, guint i)
{
  m->stream_id = STREAM_ID;
  m->priority = i % 4;
  m->drop = i % 4 == 0;
  m->priority_threshold = i % 3;
  m->link_bitrate_threshold_bps = 100000 * (guint64) (i + 1);
  m->slack_ms = (guint16) (i * 10);
  m->frame_id = i;
}

static GstPadProbeReturn
tag_input (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Run *run = user_data;
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));

  (void) pad;
  tag_frame (gst_buffer_add_octopus_meta (buf), run->frames_in++);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

/* A network hop: only the bytes survive (the payloader copies tag-less
 * metas, which would otherwise reach the depayloader in process). */
static GstBuffer *
as_received (GstBuffer *rtp_buf, gboolean two_byte)
{
  GstMapInfo map;
  GstBuffer *copy;

  gst_buffer_map (rtp_buf, &map, GST_MAP_READ);
  copy = gst_buffer_new_memdup (map.data, map.size);
  gst_buffer_unmap (rtp_buf, &map);
  GST_BUFFER_PTS (copy) = GST_BUFFER_PTS (rtp_buf);
  if (two_byte) {
    GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
    gpointer data;
    guint size;
    guint8 header[OCTO_RTPEXT_LEN];
    gst_rtp_buffer_map (copy, GST_MAP_READWRITE, &rtp);
    fail_unless (gst_rtp_buffer_get_extension_onebyte_header (&rtp, EXT_ID, 0,
            &data, &size));
    fail_unless_equals_int (size, OCTO_RTPEXT_LEN);
    memcpy (header, data, sizeof header);
    gst_rtp_buffer_remove_extension_data (&rtp);
    fail_unless (gst_rtp_buffer_add_extension_twobytes_header (&rtp, 0,
            EXT_ID, header, sizeof header));
    gst_rtp_buffer_unmap (&rtp);
  }
  return copy;
}

/* Checks every packet's header with the core's parser: first after an end,
 * last with the marker, one msg_id per frame. */
static void
check_packet (Run *run, GstBuffer *buf)
{
  GstMapInfo map;
  OctoRtpPacket rtp;
  OctoHeader h;

  gst_buffer_map (buf, &map, GST_MAP_READ);
  fail_unless_equals_int (octo_rtp_parse (map.data, map.size, &rtp),
      OCTO_RTP_PARSE_OK);
  fail_unless_equals_int (rtp.ext_profile, run->two_byte ? 0x1000 : 0xbede);
  fail_unless_equals_int (octo_rtp_get_header (&rtp, EXT_ID, &h),
      OCTO_PARSE_OK);
  gst_buffer_unmap (buf, &map);
  fail_unless_equals_int (h.msg_id, run->expected_msg_id);
  fail_unless_equals_int (h.first, run->expect_first);
  fail_unless_equals_int (h.last, rtp.marker);
  fail_unless_equals_int (h.stream_id, STREAM_ID);
  run->packets++;
  run->packets_first += h.first;
  run->packets_last += h.last;
  run->expect_first = h.last;
  run->expected_msg_id += h.last;
}

static GstPadProbeReturn
network (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Run *run = user_data;
  GstBuffer *copy = as_received (GST_PAD_PROBE_INFO_BUFFER (info),
      run->two_byte);

  (void) pad;
  check_packet (run, copy);
  gst_buffer_unref (GST_PAD_PROBE_INFO_BUFFER (info));
  GST_PAD_PROBE_INFO_DATA (info) = copy;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
collect_output (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Run *run = user_data;
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (
      GST_PAD_PROBE_INFO_BUFFER (info));

  (void) pad;
  fail_unless (m != NULL, "depayloaded frame %u has no GstOctopusMeta",
      run->out->len);
  g_array_append_val (run->out, *m);
  return GST_PAD_PROBE_OK;
}

static void
probe (GstElement *pipeline, const gchar *element, const gchar *pad_name,
    GstPadProbeCallback cb, Run *run)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), element);
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, cb, run, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
}

static void
run_pay_depay (gboolean two_byte)
{
  Run run = { .expect_first = TRUE, .two_byte = two_byte,
    .out = g_array_new (FALSE, FALSE, sizeof (GstOctopusMeta)) };
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d "
      "! video/x-raw,width=320,height=240,framerate=30/1 "
      "! vp8enc deadline=1 keyframe-max-dist=6 "
      "! rtpvp8pay name=pay mtu=400 "
      "! application/x-rtp,extmap-%d=(string)%s "
      "! identity name=wire ! rtpvp8depay name=depay ! fakesink name=out",
      N_FRAMES, EXT_ID, OCTO_RTPEXT_URI);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  probe (pipeline, "pay", "sink", tag_input, &run);
  probe (pipeline, "wire", "src", network, &run);
  probe (pipeline, "out", "sink", collect_output, &run);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  fail_unless_equals_int (run.frames_in, N_FRAMES);
  /* frames span several packets, every frame starts and ends once */
  fail_unless (run.packets > N_FRAMES);
  fail_unless_equals_int (run.packets_first, N_FRAMES);
  fail_unless_equals_int (run.packets_last, N_FRAMES);
  fail_unless_equals_int (run.out->len, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++) {
    GstOctopusMeta want = { 0 };
    const GstOctopusMeta *got = &g_array_index (run.out, GstOctopusMeta, i);
    tag_frame (&want, i);
    fail_unless_equals_int (got->msg_id, i);
    fail_unless_equals_int (got->stream_id, STREAM_ID);
    fail_unless_equals_int (got->priority, want.priority);
    fail_unless_equals_int (got->drop, want.drop);
    fail_unless_equals_int (got->priority_threshold, want.priority_threshold);
    fail_unless_equals_int (got->slack_ms, want.slack_ms);
    /* the header's 12-bit code rounds to 0.4 % */
    fail_unless_equals_uint64 (got->link_bitrate_threshold_bps,
        octo_bitrate_decode (octo_bitrate_encode
            (want.link_bitrate_threshold_bps)));
  }
  g_array_free (run.out, TRUE);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_START_TEST (test_pay_depay_one_byte_restores_every_field)
{
  run_pay_depay (FALSE);
}
GST_END_TEST;

GST_START_TEST (test_pay_depay_two_byte_restores_every_field)
{
  run_pay_depay (TRUE);
}
GST_END_TEST;

GST_START_TEST (test_extension_is_found_by_uri)
{
  GstRTPHeaderExtension *ext =
      gst_rtp_header_extension_create_from_uri (OCTO_RTPEXT_URI);
  GstBuffer *input = gst_buffer_new ();

  fail_unless (ext != NULL);
  fail_unless_equals_string (gst_rtp_header_extension_get_uri (ext),
      OCTO_RTPEXT_URI);
  fail_unless_equals_int (gst_rtp_header_extension_get_max_size (ext, input),
      OCTO_RTPEXT_LEN);
  fail_unless (gst_rtp_header_extension_get_supported_flags (ext) &
      GST_RTP_HEADER_EXTENSION_ONE_BYTE);
  gst_buffer_unref (input);
  gst_object_unref (ext);
}
GST_END_TEST;

GST_START_TEST (test_buffers_without_meta_get_no_extension)
{
  GstRTPHeaderExtension *ext =
      gst_rtp_header_extension_create_from_uri (OCTO_RTPEXT_URI);
  GstBuffer *input = gst_buffer_new ();
  GstBuffer *output = gst_rtp_buffer_new_allocate (10, 0, 0);
  guint8 data[OCTO_RTPEXT_LEN];
  GstStructure *stats;
  guint64 skipped;

  gst_rtp_header_extension_set_id (ext, EXT_ID);
  fail_unless_equals_int (gst_rtp_header_extension_write (ext, input,
          GST_RTP_HEADER_EXTENSION_ONE_BYTE, output, data, sizeof data), 0);
  /* bad bytes are rejected, not turned into a meta */
  memset (data, 0x09, sizeof data);
  fail_if (gst_rtp_header_extension_read (ext,
          GST_RTP_HEADER_EXTENSION_ONE_BYTE, data, sizeof data, output));
  fail_unless (gst_buffer_get_octopus_meta (output) == NULL);
  g_object_get (ext, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, "packets-without-meta",
          &skipped));
  fail_unless_equals_uint64 (skipped, 1);
  gst_structure_free (stats);
  gst_buffer_unref (input);
  gst_buffer_unref (output);
  gst_object_unref (ext);
}
GST_END_TEST;

static Suite *
rtphdrext_suite (void)
{
  Suite *s = suite_create ("rtphdrextoctopus");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_extension_is_found_by_uri);
  tcase_add_test (tc, test_buffers_without_meta_get_no_extension);
  tcase_add_test (tc, test_pay_depay_one_byte_restores_every_field);
  tcase_add_test (tc, test_pay_depay_two_byte_restores_every_field);
  return s;
}

GST_CHECK_MAIN (rtphdrext);
