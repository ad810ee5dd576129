/* octopus-shim's classifier (router-shim/shim-classify.c): what it queues
 * by the Octopus rules, and proof that an RTP packet carrying the extension
 * meets the same engine with the same verdicts as a transport packet. */
#include "shim-classify.h"
#include "qdisc/octo-qdisc.h"
#include "rtp-scenario.h"
#include "transport/octo-packet.h"

#include <string.h>

#define ADDR_KEY G_GUINT64_CONSTANT (0x7f0000011388)

static OctoPacket
classify (ShimClassifier *c, GBytes *datagram, OctoParseResult *result)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (datagram, &len);
  OctoPacket op = { .size = (guint32) len + 28 };
  OctoParseResult r = shim_classify (c, data, len, ADDR_KEY, &op);
  if (result)
    *result = r;
  return op;
}

static void
test_webrtc_traffic_passes_untagged (void)
{
  GPtrArray *others = scenario_other_datagrams ();
  ShimClassifier c;

  shim_classifier_init (&c, 5);
  for (guint i = 0; i < others->len; i++) {
    OctoParseResult r;
    OctoPacket op = classify (&c, others->pdata[i], &r);
    g_assert_false (op.tagged);
    g_assert_cmpuint (op.source, ==, ADDR_KEY);
    g_assert_cmpint (r, ==, OCTO_PARSE_NOT_OCTOPUS);
  }
  g_assert_cmpuint (c.kinds[OCTO_DGRAM_STUN], ==, 1);
  g_assert_cmpuint (c.kinds[OCTO_DGRAM_DTLS], ==, 1);
  g_assert_cmpuint (c.kinds[OCTO_DGRAM_RTCP], ==, 1);
  g_ptr_array_unref (others);
}

static void
test_rtp_is_keyed_by_ssrc_with_the_given_id (void)
{
  GPtrArray *rtp = scenario_rtp_datagrams (5, 0xabcdef01);
  GPtrArray *wrong = scenario_rtp_datagrams (6, 0xabcdef01);
  ShimClassifier c;

  shim_classifier_init (&c, 5);
  OctoPacket op = classify (&c, rtp->pdata[0], NULL);
  g_assert_true (op.tagged);
  g_assert_cmpuint (op.source, ==, SHIM_SOURCE_SSRC | 0xabcdef01);
  g_assert_cmpuint (op.header.msg_id, ==, 0);
  g_assert_true (op.header.first);
  /* id 6 is not the one configured: plain RTP, never learned over it */
  for (guint i = 0; i < wrong->len; i++)
    g_assert_false (classify (&c, wrong->pdata[i], NULL).tagged);
  g_assert_cmpuint (c.rtp_tagged, ==, 1);
  g_assert_cmpuint (c.kinds[OCTO_DGRAM_RTP], ==, 1 + wrong->len);
  g_ptr_array_unref (rtp);
  g_ptr_array_unref (wrong);
}

/* A transport data packet carries its sender's connection id to the queue
 * (a restart is a new id); RTP and bytes that are not a whole transport
 * prefix carry none. */
static void
test_transport_packets_carry_their_connection_id (void)
{
  OctoHeader params = { .stream_id = 3 };
  OctoMsgInfo info;
  guint8 msg[100] = { 0 }, pkt[1400];
  GPtrArray *rtp = scenario_rtp_datagrams (5, 0xabcdef01);
  ShimClassifier c;
  gsize len;
  GBytes *datagram;

  octo_msg_info_init (&info);
  len = octo_fragment_write (&params, &info, msg, sizeof msg, 1400, 0, 1, pkt);
  octo_data_stamp (pkt, 0xc0ffee01, 7, 0);
  shim_classifier_init (&c, 5);
  datagram = g_bytes_new (pkt, len);
  OctoPacket op = classify (&c, datagram, NULL);
  g_assert_true (op.tagged);
  g_assert_cmpuint (op.connection, ==, 0xc0ffee01);
  g_bytes_unref (datagram);
  datagram = g_bytes_new (pkt, OCTO_DATA_PREFIX_LEN - 1);
  g_assert_cmpuint (classify (&c, datagram, NULL).connection, ==, 0);
  g_bytes_unref (datagram);
  g_assert_cmpuint (classify (&c, rtp->pdata[0], NULL).connection, ==, 0);
  g_ptr_array_unref (rtp);
}

static void
test_rtp_id_is_learned_from_the_first_packets (void)
{
  GPtrArray *rtp = scenario_rtp_datagrams (20, 7);     /* two-byte form */
  ShimClassifier c;

  shim_classifier_init (&c, OCTO_RTPEXT_ID_NONE);
  for (guint i = 0; i < rtp->len; i++) {
    OctoPacket op = classify (&c, rtp->pdata[i], NULL);
    /* the packet that completes the learning is already queued by it */
    g_assert_cmpint (op.tagged, ==, i + 1 >= OCTO_RTPEXT_LEARN_PACKETS);
  }
  g_assert_cmpuint (shim_classifier_rtp_ext_id (&c), ==, 20);
  g_ptr_array_unref (rtp);
}

typedef struct {
  guint32 dropped_mask;
  OctoDropReason reason[SCENARIO_MESSAGES];
} Drops;

static void
record_drop (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  Drops *d = user_data;
  d->dropped_mask |= 1u << packet->header.msg_id;
  d->reason[packet->header.msg_id] = reason;
}

/* Queues every datagram at t = 0 in the shim's default discipline, then
 * serves one packet per ms; returns the messages of @source (0: any)
 * delivered whole. */
static guint32
delivered_by_engine (GPtrArray *datagrams, guint64 source, Drops *drops)
{
  OctoQdiscEnv env;
  GError *error = NULL;
  ShimClassifier c;
  guint32 packets[SCENARIO_MESSAGES] = { 0 }, mask = 0;
  OctoPacket out;

  octo_qdisc_env_init (&env);
  env.drop_func = record_drop;
  env.user_data = drops;
  OctoQdisc *q = octo_qdisc_new ("octopus", &env, &error);
  g_assert_no_error (error);
  shim_classifier_init (&c, 5);
  for (guint i = 0; i < datagrams->len; i++) {
    OctoPacket op = classify (&c, datagrams->pdata[i], NULL);
    g_assert_true (op.tagged);
    octo_qdisc_enqueue (q, &op, NULL, NULL, 0);
  }
  for (OctoTime t = OCTO_MSECOND; octo_qdisc_dequeue (q, t, &out);
      t += OCTO_MSECOND)
    if (source == 0 || out.source == source)
      packets[out.header.msg_id]++;
  for (guint m = 0; m < SCENARIO_MESSAGES; m++)
    if (packets[m] == SCENARIO_PACKETS_PER_MESSAGE)
      mask |= 1u << m;
  octo_qdisc_free (q);
  return mask;
}

static void
test_rtp_and_transport_meet_the_same_verdicts (void)
{
  GPtrArray *transport = scenario_transport_datagrams ();
  GPtrArray *rtp = scenario_rtp_datagrams (5, 0x1234);
  Drops by_transport = { 0 }, by_rtp = { 0 };

  g_assert_cmphex (delivered_by_engine (transport, 0, &by_transport), ==,
      SCENARIO_DELIVERED_MASK);
  g_assert_cmphex (delivered_by_engine (rtp, 0, &by_rtp), ==,
      SCENARIO_DELIVERED_MASK);
  g_assert_cmphex (by_transport.dropped_mask, ==,
      ~SCENARIO_DELIVERED_MASK & 0xff);
  g_assert_cmphex (by_rtp.dropped_mask, ==, by_transport.dropped_mask);
  for (guint m = 0; m < SCENARIO_MESSAGES; m++) {
    if (!(by_rtp.dropped_mask & (1u << m)))
      continue;
    g_assert_cmpint (by_transport.reason[m], ==, OCTO_DROP_DROPPER);
    g_assert_cmpint (by_rtp.reason[m], ==, by_transport.reason[m]);
  }
  g_ptr_array_unref (transport);
  g_ptr_array_unref (rtp);
}

/* Two RTP sources in one queue: one's droppers never touch the other. */
static void
test_droppers_stay_within_their_ssrc (void)
{
  GPtrArray *a = scenario_rtp_datagrams (5, 0xaaaa);
  GPtrArray *b = scenario_rtp_datagrams (5, 0xbbbb);
  GPtrArray *mixed = g_ptr_array_new ();
  Drops drops = { 0 };

  /* a's messages 0-3 (no dropper among them) queued before b's whole run,
   * whose droppers 4 and 6 cover priorities 2 and 3 */
  for (guint i = 0; i < 4 * SCENARIO_PACKETS_PER_MESSAGE; i++)
    g_ptr_array_add (mixed, a->pdata[i]);
  for (guint i = 0; i < b->len; i++)
    g_ptr_array_add (mixed, b->pdata[i]);
  g_assert_cmphex (delivered_by_engine (mixed, SHIM_SOURCE_SSRC | 0xaaaa,
          &drops), ==, 0x0f);
  g_assert_cmphex (delivered_by_engine (mixed, SHIM_SOURCE_SSRC | 0xbbbb,
          &drops), ==, SCENARIO_DELIVERED_MASK);
  g_ptr_array_unref (mixed);
  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
}

/* @datagram in an IPv4 (or IPv6) UDP packet from 10.0.0.7:4000 ([::7]). */
static gsize
wrap_ip (guint8 *out, GBytes *datagram, gboolean v6, guint8 protocol)
{
  gsize len, hdr = v6 ? 40 : 20;
  const guint8 *data = g_bytes_get_data (datagram, &len);
  guint8 *udp = out + hdr;

  memset (out, 0, hdr + 8);
  if (v6) {
    out[0] = 0x60;
    out[6] = protocol;
    out[8 + 15] = 7;
  } else {
    out[0] = 0x45;
    out[9] = protocol;
    memcpy (out + 12, (guint8[]) { 10, 0, 0, 7 }, 4);
  }
  udp[0] = 4000 >> 8;
  udp[1] = 4000 & 0xff;
  udp[4] = (guint8) ((len + 8) >> 8);
  udp[5] = (guint8) ((len + 8) & 0xff);
  memcpy (udp + 8, data, len);
  return hdr + 8 + len;
}

static void
test_ip_packets_are_classified_by_their_udp_payload (void)
{
  GPtrArray *rtp = scenario_rtp_datagrams (5, 0x77);
  GPtrArray *transport = scenario_transport_datagrams ();
  guint8 ip[2048];
  ShimClassifier c;
  ShimAddr source;
  OctoPacket op;

  shim_classifier_init (&c, 5);
  gsize len = wrap_ip (ip, rtp->pdata[0], FALSE, 17);
  g_assert_cmpint (shim_ip_udp_payload (ip, len, &source), ==, 28);
  g_assert_cmpint (shim_classify_ip (&c, ip, len, &source, &op), ==,
      OCTO_PARSE_OK);
  g_assert_true (op.tagged);
  g_assert_cmpuint (op.source, ==, SHIM_SOURCE_SSRC | 0x77);
  len = wrap_ip (ip, transport->pdata[0], TRUE, 17);
  g_assert_cmpint (shim_ip_udp_payload (ip, len, &source), ==, 48);
  g_assert_cmpint (shim_classify_ip (&c, ip, len, &source, &op), ==,
      OCTO_PARSE_OK);
  g_assert_true (op.tagged);
  g_assert_cmpuint (op.source, ==, shim_addr_key (&source));
  /* TCP, a fragment, a UDP length beyond the packet: plain traffic */
  len = wrap_ip (ip, transport->pdata[0], FALSE, 6);
  g_assert_false (shim_classify_ip (&c, ip, len, &source, &op) ==
      OCTO_PARSE_OK || op.tagged);
  len = wrap_ip (ip, transport->pdata[0], FALSE, 17);
  ip[6] = 0x20;                 /* more fragments */
  g_assert_cmpint (shim_ip_udp_payload (ip, len, &source), ==, -1);
  ip[6] = 0;
  g_assert_cmpint (shim_ip_udp_payload (ip, len - 1, &source), ==, -1);
  g_ptr_array_unref (rtp);
  g_ptr_array_unref (transport);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim-classify/webrtc-traffic-passes-untagged",
      test_webrtc_traffic_passes_untagged);
  g_test_add_func ("/shim-classify/rtp-is-keyed-by-ssrc-with-the-given-id",
      test_rtp_is_keyed_by_ssrc_with_the_given_id);
  g_test_add_func ("/shim-classify/transport-packets-carry-their-connection-id",
      test_transport_packets_carry_their_connection_id);
  g_test_add_func ("/shim-classify/rtp-id-is-learned-from-the-first-packets",
      test_rtp_id_is_learned_from_the_first_packets);
  g_test_add_func ("/shim-classify/rtp-and-transport-meet-the-same-verdicts",
      test_rtp_and_transport_meet_the_same_verdicts);
  g_test_add_func ("/shim-classify/droppers-stay-within-their-ssrc",
      test_droppers_stay_within_their_ssrc);
  g_test_add_func ("/shim-classify/ip-packets-are-classified-by-their-udp-payload",
      test_ip_packets_are_classified_by_their_udp_payload);
  return g_test_run ();
}
