/* gst-octopus core: data/ACK packet layout (see octo-packet.h). */
#include "octo-packet.h"

#include "octo-bytes.h"

#include <string.h>

void
octo_msg_info_init (OctoMsgInfo *info)
{
  info->capture_time = OCTO_TIME_NONE;
  info->frame_id = 0;
  info->spatial_layer = OCTO_LAYER_NONE;
  info->temporal_layer = OCTO_LAYER_NONE;
  info->cell_id = OCTO_LAYER_NONE;
  info->density_layer = OCTO_LAYER_NONE;
  info->flags = 0;
}

const gchar *
octo_data_parse_result_to_string (OctoDataParseResult result)
{
  static const gchar *names[] = { "ok", "bad-header", "truncated",
    "bad-version", "bad-fragment"
  };
  return result < OCTO_DATA_N_RESULTS ? names[result] : "invalid";
}

const gchar *
octo_ack_parse_result_to_string (OctoAckParseResult result)
{
  static const gchar *names[] = { "ok", "not-ack", "bad-version",
    "truncated", "bad-ranges", "bad-reserved"
  };
  return result < OCTO_ACK_N_RESULTS ? names[result] : "invalid";
}

/* Fragment 0 gives up OCTO_MSG_INFO_LEN payload bytes to the message info. */
static inline gsize
first_payload (guint32 mtu)
{
  return mtu - OCTO_DATA_FIRST_PREFIX_LEN;
}

static inline gsize
other_payload (guint32 mtu)
{
  return mtu - OCTO_DATA_PREFIX_LEN;
}

guint32
octo_fragment_count (gsize msg_len, guint32 mtu)
{
  gsize rest, count;

  if (mtu < OCTO_MTU_MIN || mtu > OCTO_MTU_MAX)
    return 0;
  if (msg_len <= first_payload (mtu))
    return 1;
  rest = msg_len - first_payload (mtu);
  count = 1 + (rest + other_payload (mtu) - 1) / other_payload (mtu);
  return count > OCTO_FRAGMENTS_MAX ? 0 : count;
}

gsize
octo_fragment_write_prefix (const OctoHeader *params, const OctoMsgInfo *info,
    guint8 flags, guint32 msg_len, guint32 offset, guint32 index,
    guint32 count, guint8 *out)
{
  OctoHeader header = *params;

  g_return_val_if_fail (index < count, 0);

  header.first = index == 0;
  header.last = index == count - 1;
  if (!octo_header_pack (&header, out))
    return 0;

  guint8 *f = out + OCTO_WIRE_HEADER_LEN;
  f[0] = OCTO_TRANSPORT_VERSION;
  f[1] = flags;
  f[2] = f[3] = 0;
  octo_put_u32 (f + 4, 0);
  octo_put_u32 (f + 8, 0);
  octo_put_u32 (f + 12, 0);
  octo_put_u32 (f + 16, msg_len);
  octo_put_u32 (f + 20, offset);
  octo_put_u16 (f + 24, index);
  octo_put_u16 (f + 26, count);
  if (index != 0)
    return OCTO_DATA_PREFIX_LEN;

  guint8 *i = out + OCTO_DATA_PREFIX_LEN;
  guint64 t = info->capture_time;
  octo_put_u32 (i + 0, t >> 32);
  octo_put_u32 (i + 4, (guint32) t);
  octo_put_u32 (i + 8, info->frame_id);
  i[12] = info->spatial_layer;
  i[13] = info->temporal_layer;
  i[14] = info->cell_id;
  i[15] = info->density_layer;
  i[16] = info->flags;
  i[17] = i[18] = i[19] = 0;
  return OCTO_DATA_FIRST_PREFIX_LEN;
}

gsize
octo_fragment_write (const OctoHeader *params, const OctoMsgInfo *info,
    const guint8 *msg, gsize msg_len, guint32 mtu, guint32 index,
    guint32 count, guint8 *out)
{
  gsize offset, len, prefix;

  g_return_val_if_fail (index < count, 0);

  if (index == 0) {
    offset = 0;
    len = MIN (msg_len, first_payload (mtu));
  } else {
    offset = first_payload (mtu) + (gsize) (index - 1) * other_payload (mtu);
    len = MIN (msg_len - offset, other_payload (mtu));
  }
  prefix = octo_fragment_write_prefix (params, info, 0, msg_len, offset,
      index, count, out);
  if (prefix == 0)
    return 0;
  if (len > 0)
    memcpy (out + prefix, msg + offset, len);
  return prefix + len;
}

void
octo_data_stamp (guint8 *packet, guint32 conn_id, guint32 seq,
    guint32 send_time_us)
{
  octo_put_u32 (packet + OCTO_WIRE_HEADER_LEN + 4, conn_id);
  octo_put_u32 (packet + OCTO_WIRE_HEADER_LEN + 8, seq);
  octo_put_u32 (packet + OCTO_WIRE_HEADER_LEN + 12, send_time_us);
}

void
octo_data_stamp_path (guint8 *packet, guint8 path_id)
{
  packet[OCTO_WIRE_HEADER_LEN + 2] = path_id;
}

void
octo_data_add_flags (guint8 *packet, guint8 flags)
{
  packet[OCTO_WIRE_HEADER_LEN + 1] |= flags;
}

guint8
octo_data_get_flags (const guint8 *packet, gsize len)
{
  return len < OCTO_DATA_PREFIX_LEN ? 0 : packet[OCTO_WIRE_HEADER_LEN + 1];
}

gboolean
octo_data_is_padding (const guint8 *data, gsize len)
{
  OctoDataPacket pkt;

  return octo_data_parse (data, len, &pkt, NULL) == OCTO_DATA_OK
      && pkt.frag_index == 0 && (pkt.info.flags & OCTO_MSG_FLAG_PADDING);
}

guint32
octo_data_connection (const guint8 *data, gsize len)
{
  const guint8 *f = data + OCTO_WIRE_HEADER_LEN;

  if (len < OCTO_DATA_PREFIX_LEN || (data[0] & OCTO_WIRE_MARKER_MASK) !=
      OCTO_WIRE_MARKER || f[0] != OCTO_TRANSPORT_VERSION)
    return 0;
  return octo_get_u32 (f + 4);
}

OctoDataParseResult
octo_data_parse (const guint8 *data, gsize len, OctoDataPacket *out,
    OctoParseResult *header_result)
{
  OctoParseResult hr = octo_header_parse (data, len, &out->header);
  gsize prefix;

  if (header_result)
    *header_result = hr;
  if (hr != OCTO_PARSE_OK)
    return OCTO_DATA_BAD_HEADER;
  if (len < OCTO_WIRE_HEADER_LEN + 1)
    return OCTO_DATA_TRUNCATED;
  const guint8 *f = data + OCTO_WIRE_HEADER_LEN;
  if (f[0] != OCTO_TRANSPORT_VERSION)
    return OCTO_DATA_BAD_VERSION;
  if (len < OCTO_DATA_PREFIX_LEN)
    return OCTO_DATA_TRUNCATED;

  out->flags = f[1];
  out->path_id = f[2];
  out->conn_id = octo_get_u32 (f + 4);
  out->seq = octo_get_u32 (f + 8);
  out->send_time_us = octo_get_u32 (f + 12);
  out->msg_len = octo_get_u32 (f + 16);
  out->offset = octo_get_u32 (f + 20);
  out->frag_index = octo_get_u16 (f + 24);
  out->frag_count = octo_get_u16 (f + 26);

  if (out->frag_index == 0) {
    if (len < OCTO_DATA_FIRST_PREFIX_LEN)
      return OCTO_DATA_TRUNCATED;
    const guint8 *i = data + OCTO_DATA_PREFIX_LEN;
    out->info.capture_time = ((guint64) octo_get_u32 (i) << 32) | octo_get_u32 (i + 4);
    out->info.frame_id = octo_get_u32 (i + 8);
    out->info.spatial_layer = i[12];
    out->info.temporal_layer = i[13];
    out->info.cell_id = i[14];
    out->info.density_layer = i[15];
    out->info.flags = i[16];
    prefix = OCTO_DATA_FIRST_PREFIX_LEN;
  } else {
    octo_msg_info_init (&out->info);
    prefix = OCTO_DATA_PREFIX_LEN;
  }
  out->payload = data + prefix;
  out->payload_len = len - prefix;

  /* Everything the reassembler relies on to stay inside its buffer. */
  if (out->frag_count == 0 || out->frag_index >= out->frag_count)
    return OCTO_DATA_BAD_FRAGMENT;
  if (out->header.first != (out->frag_index == 0) ||
      out->header.last != (out->frag_index == out->frag_count - 1))
    return OCTO_DATA_BAD_FRAGMENT;
  /* A qualitative packet's payload is checked by octo_qpacket_parse():
   * trimming changes its length. */
  if (out->flags & OCTO_DATA_FLAG_CHUNKED)
    return out->offset == 0 ? OCTO_DATA_OK : OCTO_DATA_BAD_FRAGMENT;
  if ((guint64) out->offset + out->payload_len > out->msg_len)
    return OCTO_DATA_BAD_FRAGMENT;
  if ((out->frag_index == 0) != (out->offset == 0))
    return OCTO_DATA_BAD_FRAGMENT;
  if (out->header.last && out->offset + out->payload_len != out->msg_len)
    return OCTO_DATA_BAD_FRAGMENT;
  return OCTO_DATA_OK;
}

static gboolean
ranges_valid (const OctoAck *ack)
{
  if (ack->n_ranges == 0 || ack->n_ranges > OCTO_ACK_MAX_RANGES)
    return FALSE;
  for (guint i = 0; i < ack->n_ranges; i++) {
    const OctoAckRange *r = &ack->ranges[i];
    if (octo_seq_newer (r->first, r->last))
      return FALSE;
    /* The next (older) range must end before this one starts, with a gap. */
    if (i + 1 < ack->n_ranges) {
      guint32 older_last = ack->ranges[i + 1].last;
      if (!octo_seq_newer (r->first, older_last + 1))
        return FALSE;
    }
  }
  return TRUE;
}

static gsize
ack_len (guint n_ranges, guint8 flags)
{
  return OCTO_ACK_HEADER_LEN + 8 * (gsize) n_ranges +
      (flags & OCTO_ACK_FLAG_TIMESTAMPS ? OCTO_ACK_TIMESTAMP_LEN : 0);
}

gsize
octo_ack_write (const OctoAck *ack, guint8 *out, gsize size)
{
  gsize len = ack_len (ack->n_ranges, ack->flags);

  if (!ranges_valid (ack) || size < len)
    return 0;
  out[0] = OCTO_CONTROL_ACK;
  out[1] = OCTO_TRANSPORT_VERSION;
  octo_put_u16 (out + 2, ack->n_ranges);
  octo_put_u32 (out + 4, ack->conn_id);
  octo_put_u32 (out + 8, ack->ack_delay_us);
  out[12] = ack->path_id;
  out[13] = ack->flags;
  octo_put_u16 (out + 14, 0);
  for (guint i = 0; i < ack->n_ranges; i++) {
    guint8 *r = out + OCTO_ACK_HEADER_LEN + 8 * i;
    octo_put_u32 (r, ack->ranges[i].first);
    octo_put_u32 (r + 4, ack->ranges[i].last);
  }
  if (ack->flags & OCTO_ACK_FLAG_TIMESTAMPS)
    octo_put_u32 (out + len - OCTO_ACK_TIMESTAMP_LEN, ack->arrival_us);
  return len;
}

OctoAckParseResult
octo_ack_parse (const guint8 *data, gsize len, OctoAck *out)
{
  if (len < 1 || data[0] != OCTO_CONTROL_ACK)
    return OCTO_ACK_NOT_ACK;
  /* Version 1 ACKs were shorter: check the version first. */
  if (len < 2)
    return OCTO_ACK_TRUNCATED;
  if (data[1] != OCTO_TRANSPORT_VERSION)
    return OCTO_ACK_BAD_VERSION;
  if (len < OCTO_ACK_HEADER_LEN)
    return OCTO_ACK_TRUNCATED;
  out->n_ranges = octo_get_u16 (data + 2);
  if (out->n_ranges == 0 || out->n_ranges > OCTO_ACK_MAX_RANGES)
    return OCTO_ACK_BAD_RANGES;
  out->flags = data[13];
  if (len != ack_len (out->n_ranges, out->flags))
    return OCTO_ACK_TRUNCATED;
  if (octo_get_u16 (data + 14) != 0)
    return OCTO_ACK_BAD_RESERVED;
  out->conn_id = octo_get_u32 (data + 4);
  out->ack_delay_us = octo_get_u32 (data + 8);
  out->path_id = data[12];
  out->arrival_us = out->flags & OCTO_ACK_FLAG_TIMESTAMPS ?
      octo_get_u32 (data + len - OCTO_ACK_TIMESTAMP_LEN) : 0;
  for (guint i = 0; i < out->n_ranges; i++) {
    const guint8 *r = data + OCTO_ACK_HEADER_LEN + 8 * i;
    out->ranges[i].first = octo_get_u32 (r);
    out->ranges[i].last = octo_get_u32 (r + 4);
  }
  return ranges_valid (out) ? OCTO_ACK_OK : OCTO_ACK_BAD_RANGES;
}

const gchar *
octo_nack_parse_result_to_string (OctoNackParseResult result)
{
  static const gchar *names[] = { "ok", "not-nack", "bad-version",
    "truncated", "bad-trimmed"
  };
  return result < OCTO_NACK_N_RESULTS ? names[result] : "invalid";
}

gsize
octo_nack_write (const OctoNack *nack, guint8 *out, gsize size)
{
  if (nack->trimmed == 0 || nack->trimmed > OCTO_NACK_MAX_TRIMMED ||
      size < OCTO_NACK_LEN)
    return 0;
  out[0] = OCTO_CONTROL_NACK;
  out[1] = OCTO_TRANSPORT_VERSION;
  out[2] = nack->path_id;
  out[3] = nack->trimmed;
  octo_put_u32 (out + 4, nack->conn_id);
  octo_put_u32 (out + 8, nack->seq);
  return OCTO_NACK_LEN;
}

OctoNackParseResult
octo_nack_parse (const guint8 *data, gsize len, OctoNack *out)
{
  if (len < 1 || data[0] != OCTO_CONTROL_NACK)
    return OCTO_NACK_NOT_NACK;
  if (len < 2)
    return OCTO_NACK_TRUNCATED;
  if (data[1] != OCTO_TRANSPORT_VERSION)
    return OCTO_NACK_BAD_VERSION;
  if (len != OCTO_NACK_LEN)
    return OCTO_NACK_TRUNCATED;
  if (data[3] == 0 || data[3] > OCTO_NACK_MAX_TRIMMED)
    return OCTO_NACK_BAD_TRIMMED;
  out->path_id = data[2];
  out->trimmed = data[3];
  out->conn_id = octo_get_u32 (data + 4);
  out->seq = octo_get_u32 (data + 8);
  return OCTO_NACK_OK;
}
