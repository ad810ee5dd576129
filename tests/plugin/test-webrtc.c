/* rtphdrextoctopus between two webrtcbins: the sender's codec preferences
 * carry "extmap-N", the SDP offer and answer carry a=extmap:N with our URI,
 * and over real ICE, DTLS and SRTP (libnice, on loopback) the receiver's
 * depayloader restores every frame's GstOctopusMeta.  Id 3 takes the
 * one-byte form, id 20 forces the two-byte form (RFC 8285: ids above 14).
 * What leaves the sender's nicesink (DTLS, SRTP, SRTCP) also goes through
 * octopus-shim's classifier: it learns the id from the SRTP packets, whose
 * header extensions stay in the clear, and queues them by it. */
#define GST_USE_UNSTABLE_API
#include <gst/check/gstcheck.h>
#include <gst/sdp/sdp.h>
#include <gst/webrtc/webrtc.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-rtpext.h"
#include "shim-classify.h"

#include <stdio.h>

#define STREAM_ID 9
#define FRAMES_WANTED 20

typedef struct {
  GstElement *pipeline, *send, *recv;
  guint ext_id;
  guint32 next_msg_id;
  GMutex lock;
  GArray *got;                  /* GstOctopusMeta of received frames */
  guint bad;                    /* frames whose fields do not match */
  guint wrong_form;             /* packets not in the expected RFC 8285 form */
  ShimClassifier wire;          /* the shim's view of the sender's datagrams */
  guint32 wire_last_msg_id;
  guint wire_msg_id_backwards;
} Call;

static void
tag_frame (GstOctopusMeta *m, guint32 i)
{
  m->stream_id = STREAM_ID;
  m->priority = i % 4;
  m->drop = i % 4 == 0;
  m->priority_threshold = i % 3;
  m->link_bitrate_threshold_bps = 50000 * (guint64) (i + 1);
  m->slack_ms = (guint16) (i % 100);
}

static GstPadProbeReturn
tag_input (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Call *call = user_data;
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));

  (void) pad;
  tag_frame (gst_buffer_add_octopus_meta (buf), call->next_msg_id++);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

/* What the payloader hands webrtcbin: the form the id calls for. */
static GstPadProbeReturn
check_form (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Call *call = user_data;
  GstMapInfo map;
  OctoRtpPacket rtp;
  OctoHeader h;

  (void) pad;
  gst_buffer_map (GST_PAD_PROBE_INFO_BUFFER (info), &map, GST_MAP_READ);
  if (octo_rtp_parse (map.data, map.size, &rtp) != OCTO_RTP_PARSE_OK ||
      rtp.ext_profile != (call->ext_id > 14 ? 0x1000 : 0xbede) ||
      octo_rtp_get_header (&rtp, call->ext_id, &h) != OCTO_PARSE_OK)
    call->wrong_form++;
  gst_buffer_unmap (GST_PAD_PROBE_INFO_BUFFER (info), &map);
  return GST_PAD_PROBE_OK;
}

/* Datagrams as they leave the sender's ICE transport: DTLS, SRTP, SRTCP. */
static GstPadProbeReturn
classify_wire (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Call *call = user_data;
  GstMapInfo map;
  OctoPacket op;

  (void) pad;
  gst_buffer_map (GST_PAD_PROBE_INFO_BUFFER (info), &map, GST_MAP_READ);
  g_mutex_lock (&call->lock);
  if (shim_classify (&call->wire, map.data, map.size, 1, &op) ==
      OCTO_PARSE_OK && op.tagged) {
    if (octo_msg_id_newer (call->wire_last_msg_id, op.header.msg_id))
      call->wire_msg_id_backwards++;
    call->wire_last_msg_id = op.header.msg_id;
  }
  g_mutex_unlock (&call->lock);
  gst_buffer_unmap (GST_PAD_PROBE_INFO_BUFFER (info), &map);
  return GST_PAD_PROBE_OK;
}

static void
probe_nicesink (Call *call)
{
  GstIterator *it = gst_bin_iterate_all_by_element_factory_name (
      GST_BIN (call->send), "nicesink");
  GValue item = G_VALUE_INIT;
  guint found = 0;

  while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GstPad *pad = gst_element_get_static_pad (g_value_get_object (&item),
        "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, classify_wire, call,
        NULL);
    gst_object_unref (pad);
    g_value_reset (&item);
    found++;
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  fail_unless_equals_int (found, 1);    /* max-bundle: one transport */
}

/* Frames lost before DTLS is up still took a msg_id: a frame's fields are
 * checked against its own msg_id. */
static GstPadProbeReturn
collect_output (GstPad *pad, GstPadProbeInfo *info, gpointer user_data)
{
  Call *call = user_data;
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (
      GST_PAD_PROBE_INFO_BUFFER (info));
  GstOctopusMeta want = { 0 };

  (void) pad;
  g_mutex_lock (&call->lock);
  if (m == NULL) {
    call->bad++;
  } else {
    tag_frame (&want, m->msg_id);
    if (m->stream_id != want.stream_id || m->priority != want.priority ||
        m->drop != want.drop || m->slack_ms != want.slack_ms ||
        m->priority_threshold != want.priority_threshold ||
        m->link_bitrate_threshold_bps !=
        octo_bitrate_decode (octo_bitrate_encode
            (want.link_bitrate_threshold_bps)))
      call->bad++;
    g_array_append_val (call->got, *m);
  }
  g_mutex_unlock (&call->lock);
  return GST_PAD_PROBE_OK;
}

static void
on_pad_added (GstElement *recv, GstPad *pad, gpointer user_data)
{
  Call *call = user_data;
  GstElement *depay, *sink;
  GstPad *sinkpad;

  (void) recv;
  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC)
    return;
  depay = gst_element_factory_make ("rtpvp8depay", NULL);
  sink = gst_element_factory_make ("fakesink", NULL);
  g_object_set (sink, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add_many (GST_BIN (call->pipeline), depay, sink, NULL);
  gst_element_link (depay, sink);
  sinkpad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER, collect_output,
      call, NULL);
  gst_object_unref (sinkpad);
  gst_element_sync_state_with_parent (depay);
  gst_element_sync_state_with_parent (sink);
  sinkpad = gst_element_get_static_pad (depay, "sink");
  fail_unless_equals_int (gst_pad_link (pad, sinkpad), GST_PAD_LINK_OK);
  gst_object_unref (sinkpad);
}

static void
on_ice_candidate (GstElement *webrtc, guint mline, const gchar *candidate,
    gpointer user_data)
{
  Call *call = user_data;
  GstElement *other = webrtc == call->send ? call->recv : call->send;
  g_signal_emit_by_name (other, "add-ice-candidate", mline, candidate);
}

static GstWebRTCSessionDescription *
take_description (GstPromise *promise, const gchar *field)
{
  GstWebRTCSessionDescription *desc = NULL;

  fail_unless_equals_int (gst_promise_wait (promise), GST_PROMISE_RESULT_REPLIED);
  gst_structure_get (gst_promise_get_reply (promise), field,
      GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &desc, NULL);
  gst_promise_unref (promise);
  fail_unless (desc != NULL, "no %s", field);
  return desc;
}

static void
set_description (GstElement *webrtc, const gchar *signal,
    GstWebRTCSessionDescription *desc)
{
  GstPromise *promise = gst_promise_new ();
  g_signal_emit_by_name (webrtc, signal, desc, promise);
  fail_unless_equals_int (gst_promise_wait (promise),
      GST_PROMISE_RESULT_REPLIED);
  gst_promise_unref (promise);
}

/* The a=extmap value for our URI in the SDP's first media, or 0. */
static guint
sdp_extmap_id (const GstWebRTCSessionDescription *desc)
{
  const GstSDPMedia *media = gst_sdp_message_get_media (desc->sdp, 0);
  guint id = 0;

  for (guint i = 0; i < gst_sdp_media_attributes_len (media); i++) {
    const GstSDPAttribute *a = gst_sdp_media_get_attribute (media, i);
    gchar uri[128];
    guint n;
    if (g_strcmp0 (a->key, "extmap") == 0 &&
        sscanf (a->value, "%u %127s", &n, uri) == 2 &&
        g_strcmp0 (uri, OCTO_RTPEXT_URI) == 0)
      id = n;
  }
  return id;
}

/* ICE on loopback only: the same on any host, whatever its interfaces
 * (libnice skips loopback unless told). */
static void
use_loopback (GstElement *webrtc)
{
  GObject *ice = NULL;
  gboolean added = FALSE;

  g_object_get (webrtc, "ice-agent", &ice, NULL);
  fail_unless (ice != NULL);
  g_signal_emit_by_name (ice, "add-local-ip-address", "127.0.0.1", &added);
  fail_unless (added);
  g_object_unref (ice);
}

static GstCaps *
codec_caps (guint ext_id)
{
  gchar *s = g_strdup_printf ("application/x-rtp,media=video,"
      "encoding-name=VP8,payload=96,clock-rate=90000,extmap-%u=(string)%s",
      ext_id, OCTO_RTPEXT_URI);
  GstCaps *caps = gst_caps_from_string (s);
  g_free (s);
  return caps;
}

static void
run_call (guint ext_id)
{
  Call call = { .ext_id = ext_id,
    .got = g_array_new (FALSE, FALSE, sizeof (GstOctopusMeta)) };
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true "
      "! video/x-raw,width=320,height=240,framerate=30/1 "
      "! vp8enc deadline=1 keyframe-max-dist=10 ! rtpvp8pay name=pay mtu=800 "
      "! application/x-rtp,media=video,encoding-name=VP8,payload=96,"
      "clock-rate=90000,extmap-%u=(string)%s "
      "! webrtcbin name=send bundle-policy=max-bundle "
      "webrtcbin name=recv bundle-policy=max-bundle", ext_id, OCTO_RTPEXT_URI);
  GstWebRTCRTPTransceiver *trans = NULL;
  GstWebRTCSessionDescription *offer, *answer;
  GstElement *pay;
  GstPad *pad;
  GstCaps *caps;
  GstPromise *promise;

  g_mutex_init (&call.lock);
  shim_classifier_init (&call.wire, OCTO_RTPEXT_ID_NONE);
  call.pipeline = gst_parse_launch (desc, NULL);
  fail_unless (call.pipeline != NULL);
  call.send = gst_bin_get_by_name (GST_BIN (call.pipeline), "send");
  call.recv = gst_bin_get_by_name (GST_BIN (call.pipeline), "recv");
  use_loopback (call.send);
  use_loopback (call.recv);
  pay = gst_bin_get_by_name (GST_BIN (call.pipeline), "pay");
  pad = gst_element_get_static_pad (pay, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, tag_input, &call, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (pay, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_form, &call, NULL);
  gst_object_unref (pad);
  gst_object_unref (pay);

  /* Codec preferences carry the extension into both SDPs. */
  g_signal_emit_by_name (call.send, "get-transceiver", 0, &trans);
  fail_unless (trans != NULL);
  caps = codec_caps (ext_id);
  g_object_set (trans, "codec-preferences", caps, NULL);
  gst_object_unref (trans);
  g_signal_emit_by_name (call.recv, "add-transceiver",
      GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_RECVONLY, caps, &trans);
  gst_object_unref (trans);
  gst_caps_unref (caps);
  g_signal_connect (call.recv, "pad-added", G_CALLBACK (on_pad_added), &call);
  g_signal_connect (call.send, "on-ice-candidate",
      G_CALLBACK (on_ice_candidate), &call);
  g_signal_connect (call.recv, "on-ice-candidate",
      G_CALLBACK (on_ice_candidate), &call);
  fail_unless (gst_element_set_state (call.pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  promise = gst_promise_new ();
  g_signal_emit_by_name (call.send, "create-offer", NULL, promise);
  offer = take_description (promise, "offer");
  fail_unless_equals_int (sdp_extmap_id (offer), ext_id);
  set_description (call.send, "set-local-description", offer);
  set_description (call.recv, "set-remote-description", offer);
  promise = gst_promise_new ();
  g_signal_emit_by_name (call.recv, "create-answer", NULL, promise);
  answer = take_description (promise, "answer");
  fail_unless_equals_int (sdp_extmap_id (answer), ext_id);
  set_description (call.recv, "set-local-description", answer);
  set_description (call.send, "set-remote-description", answer);
  probe_nicesink (&call);

  /* Media flows once ICE and DTLS are up: a generous bound, no margin. */
  for (guint i = 0; i < 600; i++) {
    g_mutex_lock (&call.lock);
    gboolean done = call.got->len >= FRAMES_WANTED;
    g_mutex_unlock (&call.lock);
    if (done)
      break;
    g_usleep (50000);
  }
  /* libnice threads may still emit candidates while the call shuts down:
   * nothing may reach this stack frame's Call after it returns */
  g_signal_handlers_disconnect_by_data (call.send, &call);
  g_signal_handlers_disconnect_by_data (call.recv, &call);
  gst_element_set_state (call.pipeline, GST_STATE_NULL);

  fail_unless (call.got->len >= FRAMES_WANTED, "only %u frames received",
      call.got->len);
  fail_unless_equals_int (call.bad, 0);
  fail_unless_equals_int (call.wrong_form, 0);
  /* the shim's classifier on the real SRTP: id learned, packets queued by
   * the extension, message ids in order; DTLS seen as such (libnice sends
   * its STUN checks itself, not through nicesink) */
  fail_unless_equals_int (shim_classifier_rtp_ext_id (&call.wire), ext_id);
  fail_unless (call.wire.rtp_tagged >= FRAMES_WANTED);
  fail_unless (call.wire.kinds[OCTO_DGRAM_DTLS] > 0);
  fail_unless_equals_int (call.wire_msg_id_backwards, 0);
  for (guint i = 1; i < call.got->len; i++)
    fail_unless (g_array_index (call.got, GstOctopusMeta, i).msg_id >
        g_array_index (call.got, GstOctopusMeta, i - 1).msg_id);

  gst_webrtc_session_description_free (offer);
  gst_webrtc_session_description_free (answer);
  gst_object_unref (call.send);
  gst_object_unref (call.recv);
  gst_object_unref (call.pipeline);
  g_array_free (call.got, TRUE);
  g_mutex_clear (&call.lock);
  g_free (desc);
  /* Join the task pool's threads now: at exit OpenSSL's own handler runs
   * before gst-check's gst_deinit() joins them, and a thread that used
   * DTLS then frees its OpenSSL thread state after OpenSSL is gone (a
   * SIGSEGV or a double free in about 1 run in 30). */
  gst_task_cleanup_all ();
}

GST_START_TEST (test_webrtcbin_one_byte_extension_restores_metas)
{
  run_call (3);
}
GST_END_TEST;

GST_START_TEST (test_webrtcbin_two_byte_extension_restores_metas)
{
  run_call (20);
}
GST_END_TEST;

static Suite *
webrtc_suite (void)
{
  Suite *s = suite_create ("rtphdrextoctopus-webrtc");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_webrtcbin_one_byte_extension_restores_metas);
  tcase_add_test (tc, test_webrtcbin_two_byte_extension_restores_metas);
  return s;
}

GST_CHECK_MAIN (webrtc);
