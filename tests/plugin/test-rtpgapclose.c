/* octopusrtpgapclose on a GstHarness: RTP packets with the Octopus header
 * extension come out renumbered after a gap of whole dropped messages and
 * unchanged after a packet lost inside a message or on a stream without the
 * header; payloads are untouched; stats count both kinds of gap. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/rtp/rtp.h>

#include "octo-wire.h"

#define EXT_ID 3

/* One RTP packet of SSRC @ssrc, seq @seq, with the Octopus header for
 * message @msg_id (first/last as given) unless @msg_id is 0. */
static GstBuffer *
packet (guint32 ssrc, guint16 seq, guint32 msg_id, gboolean first,
    gboolean last)
{
  GstBuffer *buf = gst_rtp_buffer_new_allocate (4, 0, 0);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  guint8 *payload;

  gst_rtp_buffer_map (buf, GST_MAP_WRITE, &rtp);
  gst_rtp_buffer_set_ssrc (&rtp, ssrc);
  gst_rtp_buffer_set_seq (&rtp, seq);
  gst_rtp_buffer_set_payload_type (&rtp, 96);
  payload = gst_rtp_buffer_get_payload (&rtp);
  for (guint i = 0; i < 4; i++)
    payload[i] = (guint8) (seq + i);
  if (msg_id != 0) {
    OctoHeader h = { .msg_id = msg_id, .stream_id = 0, .first = first,
      .last = last, .priority = 1 };
    guint8 bytes[OCTO_WIRE_HEADER_LEN];

    fail_unless (octo_header_pack (&h, bytes));
    fail_unless (gst_rtp_buffer_add_extension_onebyte_header (&rtp, EXT_ID,
            bytes, sizeof bytes));
  }
  gst_rtp_buffer_unmap (&rtp);
  return buf;
}

/* Pushes @in, pulls the output and checks its seq is @expected and its
 * payload is the one @in was built with. */
static void
push_expect (GstHarness *h, GstBuffer *in, guint16 expected)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  GstBuffer *out;
  guint16 in_seq;
  guint8 *payload;

  gst_rtp_buffer_map (in, GST_MAP_READ, &rtp);
  in_seq = gst_rtp_buffer_get_seq (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  out = gst_harness_pull (h);
  gst_rtp_buffer_map (out, GST_MAP_READ, &rtp);
  fail_unless_equals_int (gst_rtp_buffer_get_seq (&rtp), expected);
  payload = gst_rtp_buffer_get_payload (&rtp);
  for (guint i = 0; i < 4; i++)
    fail_unless_equals_int (payload[i], (guint8) (in_seq + i));
  gst_rtp_buffer_unmap (&rtp);
  gst_buffer_unref (out);
}

GST_START_TEST (test_whole_message_gaps_are_closed)
{
  GstHarness *h = gst_harness_new_with_padnames ("octopusrtpgapclose",
      "rtp_sink", "rtp_src");
  GstStructure *stats;
  guint64 closed, kept, renumbered;

  g_object_set (h->element, "ext-id", EXT_ID, NULL);
  gst_harness_set_src_caps_str (h, "application/x-rtp");
  /* message 1 (100-101), messages 2-3 (102-105) dropped, message 4 */
  push_expect (h, packet (1, 100, 1, TRUE, FALSE), 100);
  push_expect (h, packet (1, 101, 1, FALSE, TRUE), 101);
  push_expect (h, packet (1, 106, 4, TRUE, FALSE), 102);
  /* 107 lost inside message 4: the receiver must see it */
  push_expect (h, packet (1, 108, 4, FALSE, TRUE), 104);
  /* another SSRC without the header keeps its gaps and numbers */
  push_expect (h, packet (2, 500, 0, FALSE, FALSE), 500);
  push_expect (h, packet (2, 503, 0, FALSE, FALSE), 503);

  g_object_get (h->element, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, "gaps-closed", &closed));
  fail_unless (gst_structure_get_uint64 (stats, "gaps-kept", &kept));
  fail_unless (gst_structure_get_uint64 (stats, "packets-renumbered",
          &renumbered));
  fail_unless_equals_uint64 (closed, 1);
  fail_unless_equals_uint64 (kept, 2);
  fail_unless_equals_uint64 (renumbered, 2);
  gst_structure_free (stats);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
rtpgapclose_suite (void)
{
  Suite *s = suite_create ("octopusrtpgapclose");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_whole_message_gaps_are_closed);
  return s;
}

GST_CHECK_MAIN (rtpgapclose);
