/* rtpvp9svcpay -> rtpvp9svcdepay with octopussvcenc's real VP9 output (3
 * spatial layers, octopustag policy=quality, the Octopus extension), then
 * octopussvcdec: every frame is shown at Q2; with every Q2 packet removed in
 * between (as an Octopus queue removes a layer) every frame is still shown,
 * at Q1, none undecodable; with Q1 and Q2 removed, at Q0.  octopussvcdec
 * upscales to the full size and names the layer shown in its output's
 * GstOctopusMeta.  With webrtc-call.py's octopus-svc encoder (two layers at
 * the full size, one key frame, spatial syncs), a Q1 removed for some
 * frames returns at the next spatial sync, through the payloader's and
 * depayloader's VP9 descriptors (P = 0 on the sync's Q1). */
#include <gst/check/gstcheck.h>
#include <gst/rtp/rtp.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-rtpext.h"

#define FRAMES 20
#define WIDTH 320
#define HEIGHT 180
#define EXT_ID 3

typedef struct {
  const gchar *encoder;         /* NULL: 3 spatial layers, GoP 10 */
  guint drop_from;              /* spatial layers >= this are removed */
  /* ... in frames [first, last] of the stream only, unless both are 0 */
  guint drop_first_frame, drop_last_frame;
  guint32 last_rtptime;         /* frame counting at the network */
  guint frame_at_network;
  guint8 shown_layer[FRAMES];   /* layer each output frame was shown at */
  guint packets_removed, packets_seen;
  guint64 undecodable;          /* octopussvcdec's layers-undecodable */
  guint frames;                 /* frames shown */
  guint frames_at_top;          /* ... at layer drop_from - 1 */
  gint width, height;           /* of the last output */
} Run;

/* Removes the RTP packets of the layers the run drops, by the priority the
 * extension carries (quality preset: Qk has priority k). */
static GstPadProbeReturn
remove_layers (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Run *run = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  OctoRtpPacket rtp;
  OctoHeader header;
  GstMapInfo map;
  GstRTPBuffer rtpbuf = GST_RTP_BUFFER_INIT;
  guint32 timestamp;
  gboolean remove;

  (void) pad;
  gst_buffer_map (buf, &map, GST_MAP_READ);
  fail_unless (octo_rtp_parse (map.data, map.size, &rtp) == OCTO_RTP_PARSE_OK);
  fail_unless (octo_rtp_get_header (&rtp, EXT_ID, &header) == OCTO_PARSE_OK);
  gst_buffer_unmap (buf, &map);
  gst_rtp_buffer_map (buf, GST_MAP_READ, &rtpbuf);
  timestamp = gst_rtp_buffer_get_timestamp (&rtpbuf);
  gst_rtp_buffer_unmap (&rtpbuf);
  if (run->packets_seen++ > 0 && timestamp != run->last_rtptime)
    run->frame_at_network++;
  run->last_rtptime = timestamp;
  remove = header.priority >= run->drop_from
      && ((run->drop_first_frame == 0 && run->drop_last_frame == 0)
      || (run->frame_at_network >= run->drop_first_frame
          && run->frame_at_network <= run->drop_last_frame));
  if (remove)
    run->packets_removed++;
  return remove ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
}

static GstFlowReturn
on_sample (GstElement *sink, gpointer user_data)
{
  Run *run = user_data;
  GstSample *sample = NULL;
  GstStructure *s;

  g_signal_emit_by_name (sink, "pull-sample", &sample);
  s = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
  gst_structure_get_int (s, "width", &run->width);
  gst_structure_get_int (s, "height", &run->height);
  GstOctopusMeta *m =
      gst_buffer_get_octopus_meta (gst_sample_get_buffer (sample));
  fail_unless (m != NULL);
  if (run->frames < FRAMES)
    run->shown_layer[run->frames] = m->spatial_layer;
  run->frames++;
  if (m->spatial_layer == run->drop_from - 1)
    run->frames_at_top++;
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static guint64
undecodable_layers (GstElement *dec)
{
  GstStructure *s;
  guint64 v = G_MAXUINT64;

  g_object_get (dec, "stats", &s, NULL);
  gst_structure_get_uint64 (s, "layers-undecodable", &v);
  gst_structure_free (s);
  return v;
}

static void
run_call (Run *run)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball "
      "! video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 "
      "! %s ! octopustag policy=quality mtu=1200 "
      "! rtpvp9svcpay mtu=1200 ! application/x-rtp,extmap-%d=(string)%s "
      "! identity name=net ! rtpvp9svcdepay ! octopussvcdec name=dec "
      "! appsink name=out emit-signals=true sync=false",
      FRAMES, WIDTH, HEIGHT, run->encoder ? run->encoder :
      "octopussvcenc codec=vp9 spatial-layers=3 gop=10 bitrate=600000",
      EXT_ID, OCTO_RTPEXT_URI);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstMessage *msg;

  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  GstElement *net = gst_bin_get_by_name (GST_BIN (pipeline), "net");
  GstPad *pad = gst_element_get_static_pad (net, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, remove_layers, run, NULL);
  gst_object_unref (pad);
  gst_object_unref (net);
  GstElement *out = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  g_signal_connect (out, "new-sample", G_CALLBACK (on_sample), run);
  gst_object_unref (out);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);

  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");
  run->undecodable = undecodable_layers (dec);
  gst_object_unref (dec);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_START_TEST (test_all_layers_every_frame_shown_at_q2)
{
  Run run = {.drop_from = 3 };

  run_call (&run);
  fail_unless_equals_uint64 (run.undecodable, 0);
  fail_unless_equals_int (run.packets_removed, 0);
  fail_unless_equals_int (run.frames, FRAMES);
  fail_unless_equals_int (run.frames_at_top, FRAMES);
  fail_unless_equals_int (run.width, WIDTH);
  fail_unless_equals_int (run.height, HEIGHT);
}

GST_END_TEST;

GST_START_TEST (test_without_q2_every_frame_shown_at_q1)
{
  Run run = {.drop_from = 2 };

  run_call (&run);
  fail_unless_equals_uint64 (run.undecodable, 0);
  fail_unless (run.packets_removed >= FRAMES);
  fail_unless_equals_int (run.frames, FRAMES);
  fail_unless_equals_int (run.frames_at_top, FRAMES);
  fail_unless_equals_int (run.width, WIDTH);
  fail_unless_equals_int (run.height, HEIGHT);
}

GST_END_TEST;

GST_START_TEST (test_only_q0_every_frame_shown_at_q0)
{
  Run run = {.drop_from = 1 };

  run_call (&run);
  fail_unless_equals_uint64 (run.undecodable, 0);
  fail_unless (run.packets_removed >= 2 * FRAMES);
  fail_unless_equals_int (run.frames, FRAMES);
  fail_unless_equals_int (run.frames_at_top, FRAMES);
  /* Q0 is 80x46 (even rows); octopussvcdec shows it at the full size the
   * stream's VP9 header carries (not 4 x 46 = 184 rows) */
  fail_unless_equals_int (run.width, WIDTH);
  fail_unless_equals_int (run.height, HEIGHT);
}

GST_END_TEST;

/* Q1 removed from frames 3-6: frames 7-9's Q1 reference it and are
 * undecodable (shown at Q0); frame 10, a spatial sync, and every later
 * frame are shown at Q1 again, without a key frame. */
GST_START_TEST (test_q1_returns_at_the_spatial_sync)
{
  Run run = {.encoder = "octopussvcenc codec=vp9 spatial-layers=2 "
        "scaling=1,1 layer-fractions=0.5,1 gop=10000 spatial-sync=5 "
        "bitrate=600000",.drop_from = 1,.drop_first_frame = 3,
    .drop_last_frame = 6
  };

  run_call (&run);
  fail_unless_equals_int (run.frames, FRAMES);
  fail_unless_equals_uint64 (run.undecodable, 3);
  for (guint f = 0; f < FRAMES; f++)
    fail_unless_equals_int (run.shown_layer[f], f >= 3 && f <= 9 ? 0 : 1);
  fail_unless_equals_int (run.width, WIDTH);
}

GST_END_TEST;

static Suite *
vp9svc_svcenc_suite (void)
{
  Suite *s = suite_create ("rtpvp9svc-svcenc");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_all_layers_every_frame_shown_at_q2);
  tcase_add_test (tc, test_without_q2_every_frame_shown_at_q1);
  tcase_add_test (tc, test_only_q0_every_frame_shown_at_q0);
  tcase_add_test (tc, test_q1_returns_at_the_spatial_sync);
  return s;
}

GST_CHECK_MAIN (vp9svc_svcenc);
