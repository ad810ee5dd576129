#include "octo-wire.h"

#include <string.h>

static void
assert_round_trip (const OctoHeader *in)
{
  guint8 bytes[OCTO_WIRE_HEADER_LEN];
  OctoHeader out = { 0 };

  g_assert_true (octo_header_pack (in, bytes));
  g_assert_cmpint (octo_header_parse (bytes, sizeof bytes, &out), ==,
      OCTO_PARSE_OK);
  g_assert_cmpuint (out.stream_id, ==, in->stream_id);
  g_assert_cmpuint (out.msg_id, ==, in->msg_id);
  g_assert_cmpuint (out.first, ==, in->first);
  g_assert_cmpuint (out.last, ==, in->last);
  g_assert_cmpuint (out.drop, ==, in->drop);
  g_assert_cmpuint (out.priority, ==, in->priority);
  g_assert_cmpuint (out.priority_threshold, ==, in->priority_threshold);
  g_assert_cmpuint (out.slack_ms, ==, in->slack_ms);
  g_assert_cmpuint (out.link_bitrate_threshold_bps, ==,
      octo_bitrate_decode (octo_bitrate_encode
          (in->link_bitrate_threshold_bps)));
}

static void
test_header_round_trips_every_field_range (void)
{
  const guint32 msg_ids[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff };
  const guint16 stream_ids[] = { 0, 1, 0x8000, 0xffff };
  const guint16 slacks[] = { 0, 1, 300, OCTO_SLACK_MS_MAX };
  const guint64 bitrates[] = { 0, 1000, 700000, 12000000, 10000000000ull };

  for (guint a = 0; a < G_N_ELEMENTS (msg_ids); a++)
    for (guint b = 0; b < G_N_ELEMENTS (stream_ids); b++)
      for (guint prio = 0; prio <= OCTO_PRIORITY_MAX; prio++)
        for (guint thr = 0; thr <= OCTO_PRIORITY_MAX; thr++)
          for (guint flags = 0; flags < 8; flags++)
            for (guint c = 0; c < G_N_ELEMENTS (slacks); c++)
              for (guint d = 0; d < G_N_ELEMENTS (bitrates); d++) {
                OctoHeader h = {
                  .msg_id = msg_ids[a], .stream_id = stream_ids[b],
                  .priority = prio, .priority_threshold = thr,
                  .first = flags & 1, .last = (flags >> 1) & 1,
                  .drop = (flags >> 2) & 1, .slack_ms = slacks[c],
                  .link_bitrate_threshold_bps = bitrates[d],
                };
                assert_round_trip (&h);
              }
}

/* Rewriting the threshold of packed bytes gives the bytes that packing the
 * header with that threshold gives: the other fields (slack's low bits and
 * the reserved bit share bytes 10 and 11 with it) and a valid CRC. */
static void
test_set_bitrate_threshold_equals_packing_it (void)
{
  const guint16 slacks[] = { 0, 1, 7, 300, OCTO_SLACK_MS_MAX };
  const guint64 bitrates[] = { 0, 1000, 700000, 12000000, 10000000000ull };

  for (guint prio = 0; prio <= OCTO_PRIORITY_MAX; prio++)
    for (guint flags = 0; flags < 8; flags++)
      for (guint c = 0; c < G_N_ELEMENTS (slacks); c++)
        for (guint from = 0; from < G_N_ELEMENTS (bitrates); from++)
          for (guint to = 0; to < G_N_ELEMENTS (bitrates); to++) {
            OctoHeader h = {
              .msg_id = 0x89abcdef, .stream_id = 0x1234,
              .priority = prio, .priority_threshold = 7 - prio,
              .first = flags & 1, .last = (flags >> 1) & 1,
              .drop = (flags >> 2) & 1, .slack_ms = slacks[c],
              .link_bitrate_threshold_bps = bitrates[from],
            };
            guint8 rewritten[OCTO_WIRE_HEADER_LEN], packed[OCTO_WIRE_HEADER_LEN];
            OctoHeader out;

            g_assert_true (octo_header_pack (&h, rewritten));
            octo_header_set_bitrate_threshold (rewritten, bitrates[to]);
            h.link_bitrate_threshold_bps = bitrates[to];
            g_assert_true (octo_header_pack (&h, packed));
            g_assert_cmpmem (rewritten, sizeof rewritten, packed, sizeof packed);
            g_assert_cmpint (octo_header_parse (rewritten, sizeof rewritten,
                    &out), ==, OCTO_PARSE_OK);
            g_assert_cmpuint (out.slack_ms, ==, slacks[c]);
            /* the reserved bit is left as it was */
            rewritten[11] |= 1;
            octo_header_set_bitrate_threshold (rewritten, bitrates[from]);
            g_assert_cmpuint (rewritten[11] & 1, ==, 1);
            g_assert_cmpuint (rewritten[10], ==, (packed[10] & 0xe0)
                | ((octo_bitrate_encode (bitrates[from]) << 1) >> 8));
          }
}

static void
test_pack_rejects_out_of_range_fields (void)
{
  guint8 bytes[OCTO_WIRE_HEADER_LEN] = { 0 };
  OctoHeader h = { .priority = 8 };

  g_assert_false (octo_header_pack (&h, bytes));
  h.priority = 0;
  h.priority_threshold = 8;
  g_assert_false (octo_header_pack (&h, bytes));
  h.priority_threshold = 0;
  h.slack_ms = OCTO_SLACK_MS_MAX + 1;
  g_assert_false (octo_header_pack (&h, bytes));
  g_assert_cmpuint (bytes[0], ==, 0);   /* nothing written */
}

/* Every code decodes to a value that encodes back to it; every value from
 * 1 kbit/s to 10 Gbit/s rounds within 0.4 %. */
static void
test_bitrate_code_covers_range_within_one_percent (void)
{
  for (guint code = 1; code <= 0xfff; code++)
    g_assert_cmpuint (octo_bitrate_encode (octo_bitrate_decode (code)), ==,
        code);

  for (gdouble bps = 1000; bps <= 10e9; bps *= 1.0137) {
    guint64 v = (guint64) bps;
    gdouble back = (gdouble) octo_bitrate_decode (octo_bitrate_encode (v));
    g_assert_cmpfloat (ABS (back - (gdouble) v) / (gdouble) v, <=, 0.004);
  }
  g_assert_cmpuint (octo_bitrate_encode (0), ==, 0);
  g_assert_cmpuint (octo_bitrate_decode (octo_bitrate_encode (1)), ==,
      OCTO_BITRATE_MIN_BPS);
  g_assert_cmpuint (octo_bitrate_decode (octo_bitrate_encode (G_MAXUINT64)),
      ==, OCTO_BITRATE_MAX_BPS);
  /* below 256 bit/s every value is exact */
  g_assert_cmpuint (octo_bitrate_decode (octo_bitrate_encode (200)), ==, 200);
}

static void
test_msg_id_serial_arithmetic_wraps (void)
{
  g_assert_true (octo_msg_id_newer (1, 0));
  g_assert_false (octo_msg_id_newer (0, 1));
  g_assert_false (octo_msg_id_newer (5, 5));
  g_assert_true (octo_msg_id_newer (0, 0xffffffff));
  g_assert_true (octo_msg_id_newer (3, 0xfffffff0));
  g_assert_false (octo_msg_id_newer (0xfffffff0, 3));
  g_assert_true (octo_msg_id_newer (0x7fffffff, 0));
  /* exactly half the space apart: unordered */
  g_assert_false (octo_msg_id_newer (0x80000000, 0));
  g_assert_false (octo_msg_id_newer (0, 0x80000000));
}

static void
test_parse_rejects_truncated_and_foreign_bytes (void)
{
  OctoHeader h = { .msg_id = 77, .stream_id = 3, .priority = 2, .last = 1 };
  guint8 good[OCTO_WIRE_HEADER_LEN], bad[OCTO_WIRE_HEADER_LEN];
  OctoHeader out;

  g_assert_true (octo_header_pack (&h, good));
  for (gsize len = 0; len < OCTO_WIRE_HEADER_LEN; len++)
    g_assert_cmpint (octo_header_parse (good, len, &out), ==,
        OCTO_PARSE_TRUNCATED);

  /* first bytes of RTP, STUN, DTLS, TURN, QUIC */
  const guint8 foreign[] = { 0x80, 0x90, 0x00, 0x01, 0x16, 0x17, 0x40, 0xc0 };
  for (guint i = 0; i < G_N_ELEMENTS (foreign); i++) {
    memcpy (bad, good, sizeof bad);
    bad[0] = foreign[i];
    g_assert_cmpint (octo_header_parse (bad, sizeof bad, &out), ==,
        OCTO_PARSE_NOT_OCTOPUS);
  }
  memcpy (bad, good, sizeof bad);
  bad[0] = OCTO_WIRE_MARKER | 2;
  g_assert_cmpint (octo_header_parse (bad, sizeof bad, &out), ==,
      OCTO_PARSE_BAD_VERSION);
  /* any single flipped bit outside byte 0 is caught by the CRC */
  for (guint byte = 1; byte < OCTO_WIRE_HEADER_LEN; byte++)
    for (guint bit = 0; bit < 8; bit++) {
      memcpy (bad, good, sizeof bad);
      bad[byte] ^= 1u << bit;
      g_assert_cmpint (octo_header_parse (bad, sizeof bad, &out), ==,
          OCTO_PARSE_BAD_CHECKSUM);
    }
  g_assert_cmpstr (octo_parse_result_to_string (OCTO_PARSE_BAD_CHECKSUM), ==,
      "header checksum mismatch");
}

/* The CRC as docs/wire-format.md defines it: CRC-8, polynomial 0x07, init
 * 0, MSB first, over byte 0 then bytes 2..11, bit by bit. */
static guint8
reference_crc (const guint8 *h)
{
  guint8 crc = 0;

  for (guint i = 0; i < OCTO_WIRE_HEADER_LEN; i++) {
    if (i == 1)
      continue;
    crc ^= h[i];
    for (guint b = 0; b < 8; b++)
      crc = crc & 0x80 ? (guint8) (crc << 1 ^ 0x07) : (guint8) (crc << 1);
  }
  return crc;
}

/* The header's CRC is the bitwise definition's on every header written,
 * and a header carrying it parses. */
static void
test_crc_matches_bitwise_definition (void)
{
  GRand *rand = g_rand_new_with_seed (8);

  for (guint n = 0; n < 20000; n++) {
    OctoHeader h = { 0 }, out;
    guint8 bytes[OCTO_WIRE_HEADER_LEN];

    h.msg_id = g_rand_int (rand);
    h.stream_id = g_rand_int (rand) & 0xffff;
    h.priority = g_rand_int_range (rand, 0, 8);
    h.priority_threshold = g_rand_int_range (rand, 0, 8);
    h.slack_ms = g_rand_int_range (rand, 0, OCTO_SLACK_MS_MAX + 1);
    h.first = g_rand_boolean (rand);
    h.last = g_rand_boolean (rand);
    h.drop = g_rand_boolean (rand);
    g_assert_true (octo_header_pack (&h, bytes));
    g_assert_cmpuint (bytes[1], ==, reference_crc (bytes));
    g_assert_cmpint (octo_header_parse (bytes, sizeof bytes, &out), ==,
        OCTO_PARSE_OK);
  }
  g_rand_free (rand);
}

/* The parser checks the same CRC: on random headers it accepts the
 * bitwise definition's value and refuses every other one. */
static void
test_parse_checks_bitwise_crc (void)
{
  GRand *rand = g_rand_new_with_seed (9);

  for (guint n = 0; n < 20000; n++) {
    guint8 bytes[OCTO_WIRE_HEADER_LEN];
    OctoHeader out;
    guint8 crc;

    for (guint j = 0; j < sizeof bytes; j++)
      bytes[j] = g_rand_int (rand) & 0xff;
    bytes[0] = OCTO_WIRE_MARKER | OCTO_WIRE_VERSION;
    bytes[11] &= 0xfe;          /* reserved bit clear */
    crc = reference_crc (bytes);
    bytes[1] = crc;
    g_assert_cmpint (octo_header_parse (bytes, sizeof bytes, &out), ==,
        OCTO_PARSE_OK);
    bytes[1] = crc ^ (guint8) g_rand_int_range (rand, 1, 256);
    g_assert_cmpint (octo_header_parse (bytes, sizeof bytes, &out), ==,
        OCTO_PARSE_BAD_CHECKSUM);
  }
  g_rand_free (rand);
}

static void
assert_same_header (const OctoHeader *a, const OctoHeader *b)
{
  g_assert_cmpuint (a->msg_id, ==, b->msg_id);
  g_assert_cmpuint (a->stream_id, ==, b->stream_id);
  g_assert_cmpuint (a->slack_ms, ==, b->slack_ms);
  g_assert_cmpuint (a->link_bitrate_threshold_bps, ==,
      b->link_bitrate_threshold_bps);
  g_assert_cmpuint (a->priority, ==, b->priority);
  g_assert_cmpuint (a->priority_threshold, ==, b->priority_threshold);
  g_assert_cmpuint (a->first, ==, b->first);
  g_assert_cmpuint (a->last, ==, b->last);
  g_assert_cmpuint (a->drop, ==, b->drop);
}

/* The cached parser gives the plain parser's result and fields after any
 * header: the same message's other packets, one flipped bit of them (the
 * CRC bits included), and bytes that are no header. */
static void
test_cached_parse_matches_plain (void)
{
  GRand *rand = g_rand_new_with_seed (10);
  OctoHeaderCache cache;
  OctoHeader h = { 0 };

  octo_header_cache_init (&cache);
  for (guint n = 0; n < 20000; n++) {
    OctoHeader plain, cached;
    guint8 bytes[OCTO_WIRE_HEADER_LEN];
    OctoParseResult result;

    if (g_rand_int_range (rand, 0, 4) == 0) {  /* else the same message */
      h.msg_id = g_rand_int_range (rand, 0, 4);
      h.stream_id = g_rand_int_range (rand, 0, 2);
      h.priority = g_rand_int_range (rand, 0, 8);
      h.drop = g_rand_boolean (rand);
      h.slack_ms = g_rand_int_range (rand, 0, 3);
      h.link_bitrate_threshold_bps = g_rand_boolean (rand) ? 700000 : 0;
    }
    h.first = g_rand_boolean (rand);
    h.last = g_rand_boolean (rand);
    g_assert_true (octo_header_pack (&h, bytes));
    switch (g_rand_int_range (rand, 0, 3)) {
      case 0:                  /* a packet as sent */
        break;
      case 1:                  /* one bit flipped */
        bytes[g_rand_int_range (rand, 0, OCTO_WIRE_HEADER_LEN)] ^=
            1u << g_rand_int_range (rand, 0, 8);
        break;
      default:                 /* anything */
        for (guint j = 0; j < sizeof bytes; j++)
          bytes[j] = g_rand_int (rand) & 0xff;
        break;
    }
    result = octo_header_parse (bytes, sizeof bytes, &plain);
    g_assert_cmpint (octo_header_parse_cached (&cache, bytes, sizeof bytes,
            &cached), ==, result);
    if (result == OCTO_PARSE_OK)
      assert_same_header (&cached, &plain);
    /* never past the given length */
    g_assert_cmpint (octo_header_parse_cached (&cache, bytes,
            g_rand_int_range (rand, 0, OCTO_WIRE_HEADER_LEN), &cached), ==,
        OCTO_PARSE_TRUNCATED);
  }
  g_rand_free (rand);
}

/* Random bytes pass as a header with probability 2^-17 (marker + version
 * 1/256, CRC 1/256, reserved bit 1/2): check the measured rate is close. */
static void
test_random_bytes_rarely_pass (void)
{
  GRand *rand = g_rand_new_with_seed (42);
  guint8 bytes[OCTO_WIRE_HEADER_LEN];
  OctoHeader out;
  guint accepted = 0;
  const guint n = 2000000;

  for (guint i = 0; i < n; i++) {
    for (guint j = 0; j < sizeof bytes; j++)
      bytes[j] = g_rand_int (rand) & 0xff;
    /* force the marker so the CRC and reserved bit are what is tested */
    bytes[0] = OCTO_WIRE_MARKER | OCTO_WIRE_VERSION;
    if (octo_header_parse (bytes, sizeof bytes, &out) == OCTO_PARSE_OK)
      accepted++;
  }
  /* expected n / 512 = 3906, sd 62 */
  g_assert_cmpuint (accepted, >, 3500);
  g_assert_cmpuint (accepted, <, 4300);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wire/crc-matches-bitwise-definition",
      test_crc_matches_bitwise_definition);
  g_test_add_func ("/wire/parse-checks-bitwise-crc",
      test_parse_checks_bitwise_crc);
  g_test_add_func ("/wire/cached-parse-matches-plain",
      test_cached_parse_matches_plain);
  g_test_add_func ("/wire/round-trip-full-ranges",
      test_header_round_trips_every_field_range);
  g_test_add_func ("/wire/set-bitrate-threshold-equals-packing-it",
      test_set_bitrate_threshold_equals_packing_it);
  g_test_add_func ("/wire/pack-rejects-out-of-range",
      test_pack_rejects_out_of_range_fields);
  g_test_add_func ("/wire/bitrate-code-range-and-rounding",
      test_bitrate_code_covers_range_within_one_percent);
  g_test_add_func ("/wire/msg-id-serial-arithmetic",
      test_msg_id_serial_arithmetic_wraps);
  g_test_add_func ("/wire/parse-rejects-truncated-and-foreign",
      test_parse_rejects_truncated_and_foreign_bytes);
  g_test_add_func ("/wire/random-bytes-rarely-pass",
      test_random_bytes_rarely_pass);
  return g_test_run ();
}
