/* The 12-byte Octopus header; docs/wire-format.md is the reference.
 *
 *  byte 0     0b00001vvv  marker + version
 *  byte 1     CRC-8 (poly 0x07, init 0) over bytes 0 and 2..11
 *  bytes 2-3  stream_id, big-endian
 *  bytes 4-7  msg_id, big-endian
 *  bytes 8-11 big-endian word: first(31) last(30) drop(29) priority(28-26)
 *             threshold(25-23) slack_ms(22-13) bitrate code(12-1) reserved(0)
 */
#include "octo-wire.h"

static const guint8 crc8_table[256] = {
  0x00, 0x07, 0x0e, 0x09, 0x1c, 0x1b, 0x12, 0x15, 0x38, 0x3f, 0x36, 0x31,
  0x24, 0x23, 0x2a, 0x2d, 0x70, 0x77, 0x7e, 0x79, 0x6c, 0x6b, 0x62, 0x65,
  0x48, 0x4f, 0x46, 0x41, 0x54, 0x53, 0x5a, 0x5d, 0xe0, 0xe7, 0xee, 0xe9,
  0xfc, 0xfb, 0xf2, 0xf5, 0xd8, 0xdf, 0xd6, 0xd1, 0xc4, 0xc3, 0xca, 0xcd,
  0x90, 0x97, 0x9e, 0x99, 0x8c, 0x8b, 0x82, 0x85, 0xa8, 0xaf, 0xa6, 0xa1,
  0xb4, 0xb3, 0xba, 0xbd, 0xc7, 0xc0, 0xc9, 0xce, 0xdb, 0xdc, 0xd5, 0xd2,
  0xff, 0xf8, 0xf1, 0xf6, 0xe3, 0xe4, 0xed, 0xea, 0xb7, 0xb0, 0xb9, 0xbe,
  0xab, 0xac, 0xa5, 0xa2, 0x8f, 0x88, 0x81, 0x86, 0x93, 0x94, 0x9d, 0x9a,
  0x27, 0x20, 0x29, 0x2e, 0x3b, 0x3c, 0x35, 0x32, 0x1f, 0x18, 0x11, 0x16,
  0x03, 0x04, 0x0d, 0x0a, 0x57, 0x50, 0x59, 0x5e, 0x4b, 0x4c, 0x45, 0x42,
  0x6f, 0x68, 0x61, 0x66, 0x73, 0x74, 0x7d, 0x7a, 0x89, 0x8e, 0x87, 0x80,
  0x95, 0x92, 0x9b, 0x9c, 0xb1, 0xb6, 0xbf, 0xb8, 0xad, 0xaa, 0xa3, 0xa4,
  0xf9, 0xfe, 0xf7, 0xf0, 0xe5, 0xe2, 0xeb, 0xec, 0xc1, 0xc6, 0xcf, 0xc8,
  0xdd, 0xda, 0xd3, 0xd4, 0x69, 0x6e, 0x67, 0x60, 0x75, 0x72, 0x7b, 0x7c,
  0x51, 0x56, 0x5f, 0x58, 0x4d, 0x4a, 0x43, 0x44, 0x19, 0x1e, 0x17, 0x10,
  0x05, 0x02, 0x0b, 0x0c, 0x21, 0x26, 0x2f, 0x28, 0x3d, 0x3a, 0x33, 0x34,
  0x4e, 0x49, 0x40, 0x47, 0x52, 0x55, 0x5c, 0x5b, 0x76, 0x71, 0x78, 0x7f,
  0x6a, 0x6d, 0x64, 0x63, 0x3e, 0x39, 0x30, 0x37, 0x22, 0x25, 0x2c, 0x2b,
  0x06, 0x01, 0x08, 0x0f, 0x1a, 0x1d, 0x14, 0x13, 0xae, 0xa9, 0xa0, 0xa7,
  0xb2, 0xb5, 0xbc, 0xbb, 0x96, 0x91, 0x98, 0x9f, 0x8a, 0x8d, 0x84, 0x83,
  0xde, 0xd9, 0xd0, 0xd7, 0xc2, 0xc5, 0xcc, 0xcb, 0xe6, 0xe1, 0xe8, 0xef,
  0xfa, 0xfd, 0xf4, 0xf3,
};

static guint8
header_crc (const guint8 *data)
{
  guint8 crc = crc8_table[data[0]];
  for (guint i = 2; i < OCTO_WIRE_HEADER_LEN; i++)
    crc = crc8_table[crc ^ data[i]];
  return crc;
}

const gchar *
octo_parse_result_to_string (OctoParseResult result)
{
  switch (result) {
    case OCTO_PARSE_OK:
      return "ok";
    case OCTO_PARSE_TRUNCATED:
      return "truncated: shorter than the 12-byte header";
    case OCTO_PARSE_NOT_OCTOPUS:
      return "not an Octopus packet: first byte outside 0x08-0x0f";
    case OCTO_PARSE_BAD_VERSION:
      return "unsupported header version";
    case OCTO_PARSE_BAD_CHECKSUM:
      return "header checksum mismatch";
    case OCTO_PARSE_RESERVED_BIT:
      return "reserved bit set";
    case OCTO_PARSE_N_RESULTS:
      break;
  }
  return "unknown parse result";
}

guint16
octo_bitrate_encode (guint64 bps)
{
  guint exponent = 0;
  guint64 mantissa;
  guint16 code;

  if (bps == 0)
    return 0;
  if (bps >= OCTO_BITRATE_MAX_BPS)
    return 0xfff;
  if (bps < 256) {
    mantissa = bps;
  } else {
    exponent = 64 - __builtin_clzll (bps) - 8;
    /* round to nearest; a carry moves to the next exponent */
    mantissa = (bps + ((guint64) 1 << (exponent - 1))) >> exponent;
    if (mantissa == 256) {
      mantissa = 128;
      exponent++;
    }
  }
  if (mantissa < 128)           /* below the range: the smallest non-zero */
    return 1;
  code = (guint16) ((exponent << 7) | (mantissa - 128));
  return code == 0 ? 1 : code;
}

guint64
octo_bitrate_decode (guint16 code)
{
  code &= 0xfff;
  if (code == 0)
    return 0;
  return (guint64) (128 + (code & 0x7f)) << (code >> 7);
}

OctoParseResult
octo_header_parse (const guint8 *data, gsize len, OctoHeader *out)
{
  guint32 word;

  if (len < OCTO_WIRE_HEADER_LEN)
    return OCTO_PARSE_TRUNCATED;
  if ((data[0] & OCTO_WIRE_MARKER_MASK) != OCTO_WIRE_MARKER)
    return OCTO_PARSE_NOT_OCTOPUS;
  if ((data[0] & 0x07) != OCTO_WIRE_VERSION)
    return OCTO_PARSE_BAD_VERSION;
  if (header_crc (data) != data[1])
    return OCTO_PARSE_BAD_CHECKSUM;
  word = (guint32) data[8] << 24 | (guint32) data[9] << 16 |
      (guint32) data[10] << 8 | data[11];
  if (word & 1)
    return OCTO_PARSE_RESERVED_BIT;

  out->stream_id = (guint16) (data[2] << 8 | data[3]);
  out->msg_id = (guint32) data[4] << 24 | (guint32) data[5] << 16 |
      (guint32) data[6] << 8 | data[7];
  out->first = (word >> 31) & 1;
  out->last = (word >> 30) & 1;
  out->drop = (word >> 29) & 1;
  out->priority = (word >> 26) & 0x7;
  out->priority_threshold = (word >> 23) & 0x7;
  out->slack_ms = (word >> 13) & 0x3ff;
  out->link_bitrate_threshold_bps = octo_bitrate_decode ((word >> 1) & 0xfff);
  return OCTO_PARSE_OK;
}

gboolean
octo_header_pack (const OctoHeader *h, guint8 out[OCTO_WIRE_HEADER_LEN])
{
  guint32 word;

  if (h->priority > OCTO_PRIORITY_MAX || h->priority_threshold > OCTO_PRIORITY_MAX
      || h->slack_ms > OCTO_SLACK_MS_MAX)
    return FALSE;

  word = (guint32) h->first << 31 | (guint32) h->last << 30 |
      (guint32) h->drop << 29 | (guint32) h->priority << 26 |
      (guint32) h->priority_threshold << 23 | (guint32) h->slack_ms << 13 |
      (guint32) octo_bitrate_encode (h->link_bitrate_threshold_bps) << 1;

  out[0] = OCTO_WIRE_MARKER | OCTO_WIRE_VERSION;
  out[2] = h->stream_id >> 8;
  out[3] = h->stream_id & 0xff;
  out[4] = h->msg_id >> 24;
  out[5] = (h->msg_id >> 16) & 0xff;
  out[6] = (h->msg_id >> 8) & 0xff;
  out[7] = h->msg_id & 0xff;
  out[8] = word >> 24;
  out[9] = (word >> 16) & 0xff;
  out[10] = (word >> 8) & 0xff;
  out[11] = word & 0xff;
  out[1] = header_crc (out);
  return TRUE;
}
