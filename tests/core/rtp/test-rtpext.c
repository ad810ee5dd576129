/* The core's RTP side (octo-rtpext.h): demultiplexing, RFC 8285 extension
 * walking in both forms, id learning and the writer's message state. */
#include "octo-rtpext.h"

#include <string.h>

/* An RTP packet with one extension block; returns its length. */
static gsize
build_rtp (guint8 *out, guint32 ssrc, gboolean marker, guint16 profile,
    const guint8 *elements, gsize elements_len)
{
  gsize words = (elements_len + 3) / 4;
  memset (out, 0, 12 + 4 + words * 4 + 8);
  out[0] = 0x80 | (profile ? 0x10 : 0);
  out[1] = (guint8) ((marker ? 0x80 : 0) | 96);
  out[2] = 0x12;
  out[3] = 0x34;
  out[8] = ssrc >> 24;
  out[9] = (ssrc >> 16) & 0xff;
  out[10] = (ssrc >> 8) & 0xff;
  out[11] = ssrc & 0xff;
  if (!profile)
    return 12 + 8;
  out[12] = profile >> 8;
  out[13] = profile & 0xff;
  out[14] = words >> 8;
  out[15] = words & 0xff;
  memcpy (out + 16, elements, elements_len);
  return 16 + words * 4 + 8;    /* and 8 payload bytes */
}

static OctoHeader
sample_header (void)
{
  OctoHeader h = { .stream_id = 3, .msg_id = 0xfffffffe, .priority = 2,
    .priority_threshold = 1, .drop = 1, .first = 1, .last = 0,
    .slack_ms = 300, .link_bitrate_threshold_bps = 2500000 };
  return h;
}

static void
assert_same_header (const OctoHeader *a, const OctoHeader *b)
{
  g_assert_cmpuint (a->stream_id, ==, b->stream_id);
  g_assert_cmpuint (a->msg_id, ==, b->msg_id);
  g_assert_cmpuint (a->priority, ==, b->priority);
  g_assert_cmpuint (a->priority_threshold, ==, b->priority_threshold);
  g_assert_cmpuint (a->drop, ==, b->drop);
  g_assert_cmpuint (a->first, ==, b->first);
  g_assert_cmpuint (a->last, ==, b->last);
  g_assert_cmpuint (a->slack_ms, ==, b->slack_ms);
  g_assert_cmpuint (octo_bitrate_encode (a->link_bitrate_threshold_bps), ==,
      octo_bitrate_encode (b->link_bitrate_threshold_bps));
}

static void
test_classify_follows_rfc7983 (void)
{
  static const struct { guint8 b0, b1; OctoDgramKind kind; } cases[] = {
    { 0x00, 0x01, OCTO_DGRAM_STUN }, { 0x03, 0, OCTO_DGRAM_STUN },
    { 0x04, 1, OCTO_DGRAM_OCTOPUS_CONTROL }, { 0x07, 0,
      OCTO_DGRAM_OCTOPUS_CONTROL }, { 0x08, 0, OCTO_DGRAM_OCTOPUS },
    { 0x09, 0, OCTO_DGRAM_OCTOPUS }, { 0x0f, 0, OCTO_DGRAM_OCTOPUS },
    { 0x10, 0, OCTO_DGRAM_ZRTP }, { 0x13, 0, OCTO_DGRAM_ZRTP },
    { 0x14, 0, OCTO_DGRAM_DTLS }, { 0x16, 0xfe, OCTO_DGRAM_DTLS },
    { 0x3f, 0, OCTO_DGRAM_DTLS }, { 0x40, 0, OCTO_DGRAM_OTHER },
    { 0x7f, 0, OCTO_DGRAM_OTHER }, { 0x80, 96, OCTO_DGRAM_RTP },
    { 0x90, 0xe0, OCTO_DGRAM_RTP }, { 0x80, 200, OCTO_DGRAM_RTCP },
    { 0x81, 205, OCTO_DGRAM_RTCP }, { 0x80, 223, OCTO_DGRAM_RTCP },
    { 0x80, 224, OCTO_DGRAM_RTP }, { 0xbf, 191, OCTO_DGRAM_RTP },
    { 0xc0, 0, OCTO_DGRAM_OTHER }, { 0xff, 0, OCTO_DGRAM_OTHER },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    guint8 d[2] = { cases[i].b0, cases[i].b1 };
    g_assert_cmpstr (octo_dgram_kind_to_string (octo_dgram_classify (d, 2)),
        ==, octo_dgram_kind_to_string (cases[i].kind));
  }
  g_assert_cmpint (octo_dgram_classify (NULL, 0), ==, OCTO_DGRAM_EMPTY);
}

static void
test_one_byte_extension_round_trips_the_header (void)
{
  OctoHeader in = sample_header (), out;
  guint8 el[1 + OCTO_RTPEXT_LEN + 2], pkt[128];
  OctoRtpPacket rtp;

  /* another element before ours, then padding */
  el[0] = 0x10;                 /* id 1, 1 byte */
  el[1] = 0xaa;
  el[2] = 0x5b;                 /* id 5, 12 bytes */
  g_assert_true (octo_header_pack (&in, el + 3));
  gsize len = build_rtp (pkt, 0xdeadbeef, TRUE, 0xbede, el, 15);
  g_assert_cmpint (octo_rtp_parse (pkt, len, &rtp), ==, OCTO_RTP_PARSE_OK);
  g_assert_cmpuint (rtp.ssrc, ==, 0xdeadbeef);
  g_assert_true (rtp.marker);
  g_assert_cmpuint (rtp.payload_type, ==, 96);
  g_assert_cmpuint (rtp.seq, ==, 0x1234);
  g_assert_cmpint (octo_rtp_get_header (&rtp, 5, &out), ==, OCTO_PARSE_OK);
  assert_same_header (&in, &out);
  /* id 1 is there but one byte long: not ours; id 7 absent */
  g_assert_cmpint (octo_rtp_get_header (&rtp, 1, &out), ==,
      OCTO_PARSE_TRUNCATED);
  g_assert_cmpint (octo_rtp_get_header (&rtp, 7, &out), ==,
      OCTO_PARSE_TRUNCATED);
}

static void
test_two_byte_extension_round_trips_the_header (void)
{
  OctoHeader in = sample_header (), out;
  guint8 el[2 + 3 + 2 + OCTO_RTPEXT_LEN], pkt[128];
  OctoRtpPacket rtp;
  guint8 id;
  const guint8 *data;
  gsize dlen;

  el[0] = 200;                  /* id 200, 3 bytes */
  el[1] = 3;
  memset (el + 2, 0xee, 3);
  el[5] = 17;
  el[6] = OCTO_RTPEXT_LEN;
  g_assert_true (octo_header_pack (&in, el + 7));
  gsize len = build_rtp (pkt, 42, FALSE, 0x1000, el, sizeof el);
  g_assert_cmpint (octo_rtp_parse (pkt, len, &rtp), ==, OCTO_RTP_PARSE_OK);
  g_assert_true (octo_rtp_ext_element (&rtp, 0, &id, &data, &dlen));
  g_assert_cmpuint (id, ==, 200);
  g_assert_cmpuint (dlen, ==, 3);
  g_assert_true (octo_rtp_ext_element (&rtp, 1, &id, &data, &dlen));
  g_assert_cmpuint (id, ==, 17);
  g_assert_false (octo_rtp_ext_element (&rtp, 2, &id, &data, &dlen));
  g_assert_cmpint (octo_rtp_get_header (&rtp, 17, &out), ==, OCTO_PARSE_OK);
  assert_same_header (&in, &out);
}

static void
test_malformed_packets_are_rejected_with_reasons (void)
{
  guint8 pkt[128], el[4] = { 0x5b, 1, 2, 3 };   /* claims 12 bytes, has 3 */
  OctoRtpPacket rtp;

  gsize len = build_rtp (pkt, 1, FALSE, 0xbede, el, sizeof el);
  g_assert_cmpint (octo_rtp_parse (pkt, len, &rtp), ==,
      OCTO_RTP_PARSE_BAD_EXTENSION);
  g_assert_cmpint (octo_rtp_parse (pkt, 11, &rtp), ==,
      OCTO_RTP_PARSE_TRUNCATED);
  /* the block claims 1 word; the packet stops inside it */
  g_assert_cmpint (octo_rtp_parse (pkt, 18, &rtp), ==,
      OCTO_RTP_PARSE_TRUNCATED);
  pkt[0] = 0x40;
  g_assert_cmpint (octo_rtp_parse (pkt, len, &rtp), ==,
      OCTO_RTP_PARSE_NOT_RTP);
  /* 15 CSRCs announced in a 20-byte packet */
  len = build_rtp (pkt, 1, FALSE, 0, NULL, 0);
  pkt[0] = 0x8f;
  g_assert_cmpint (octo_rtp_parse (pkt, len, &rtp), ==,
      OCTO_RTP_PARSE_TRUNCATED);
  /* a corrupted Octopus header in a well-formed block */
  OctoHeader h = sample_header (), out;
  guint8 good[13] = { 0x5b };
  octo_header_pack (&h, good + 1);
  good[6] ^= 0x01;
  len = build_rtp (pkt, 1, FALSE, 0xbede, good, sizeof good);
  g_assert_cmpint (octo_rtp_parse (pkt, len, &rtp), ==, OCTO_RTP_PARSE_OK);
  g_assert_cmpint (octo_rtp_get_header (&rtp, 5, &out), ==,
      OCTO_PARSE_BAD_CHECKSUM);
}

static void
test_learner_takes_the_id_after_three_valid_packets (void)
{
  OctoHeader h = sample_header ();
  guint8 ours[13] = { 0x7b }, noise[13] = { 0x3b }, pkt[128];
  OctoRtpextLearner learner;
  OctoRtpPacket rtp;

  octo_header_pack (&h, ours + 1);
  memset (noise + 1, 0x5a, 12);
  octo_rtpext_learner_init (&learner);
  /* 12-byte elements of random-looking bytes are never learned */
  gsize len = build_rtp (pkt, 1, FALSE, 0xbede, noise, sizeof noise);
  octo_rtp_parse (pkt, len, &rtp);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (octo_rtpext_learner_feed (&learner, &rtp), ==,
        OCTO_RTPEXT_ID_NONE);
  /* two packets with id 7, one without, then three in a row */
  gsize with = build_rtp (pkt, 1, FALSE, 0xbede, ours, sizeof ours);
  octo_rtp_parse (pkt, with, &rtp);
  octo_rtpext_learner_feed (&learner, &rtp);
  g_assert_cmpuint (octo_rtpext_learner_feed (&learner, &rtp), ==,
      OCTO_RTPEXT_ID_NONE);
  guint8 plain[128];
  gsize plain_len = build_rtp (plain, 1, FALSE, 0, NULL, 0);
  OctoRtpPacket bare;
  octo_rtp_parse (plain, plain_len, &bare);
  octo_rtpext_learner_feed (&learner, &bare);
  for (guint i = 0; i < OCTO_RTPEXT_LEARN_PACKETS - 1; i++)
    g_assert_cmpuint (octo_rtpext_learner_feed (&learner, &rtp), ==,
        OCTO_RTPEXT_ID_NONE);
  g_assert_cmpuint (octo_rtpext_learner_feed (&learner, &rtp), ==, 7);
  g_assert_cmpuint (octo_rtpext_learner_feed (&learner, &bare), ==, 7);
}

static void
test_writer_marks_first_last_and_counts_messages (void)
{
  OctoRtpextWriter w;
  OctoHeader h = { 0 };
  /* message A: 3 packets ending with the marker; B: 1 packet; C: its end
   * never marked, then D (new identity) */
  static const struct { guint64 id; gboolean end; guint32 msg;
    gboolean first, last; } steps[] = {
    { 10, FALSE, 7, TRUE, FALSE }, { 10, FALSE, 7, FALSE, FALSE },
    { 10, TRUE, 7, FALSE, TRUE }, { 11, TRUE, 8, TRUE, TRUE },
    { 12, FALSE, 9, TRUE, FALSE }, { 13, FALSE, 10, TRUE, FALSE },
    { 13, TRUE, 10, FALSE, TRUE },
    /* the same identity after an end is a new message */
    { 13, TRUE, 11, TRUE, TRUE },
  };

  octo_rtpext_writer_init (&w, 7);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    octo_rtpext_writer_next (&w, steps[i].id, steps[i].end, &h);
    g_assert_cmpuint (h.msg_id, ==, steps[i].msg);
    g_assert_cmpuint (h.first, ==, steps[i].first);
    g_assert_cmpuint (h.last, ==, steps[i].last);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtpext/classify-follows-rfc7983",
      test_classify_follows_rfc7983);
  g_test_add_func ("/rtpext/one-byte-extension-round-trips-the-header",
      test_one_byte_extension_round_trips_the_header);
  g_test_add_func ("/rtpext/two-byte-extension-round-trips-the-header",
      test_two_byte_extension_round_trips_the_header);
  g_test_add_func ("/rtpext/malformed-packets-are-rejected-with-reasons",
      test_malformed_packets_are_rejected_with_reasons);
  g_test_add_func ("/rtpext/learner-takes-the-id-after-three-valid-packets",
      test_learner_takes_the_id_after_three_valid_packets);
  g_test_add_func ("/rtpext/writer-marks-first-last-and-counts-messages",
      test_writer_marks_first_last_and_counts_messages);
  return g_test_run ();
}
