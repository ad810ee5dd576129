/* gst-octopus core: qualitative packets (see octo-qpacket.h). */
#include "octo-qpacket.h"

#include "octo-bytes.h"

#include <string.h>

G_STATIC_ASSERT (OCTO_NACK_MAX_TRIMMED == OCTO_CHUNKS_MAX);

gboolean
octo_qlayout_layered (OctoQLayout *layout, const guint32 *lens, guint n)
{
  if (n == 0 || n > OCTO_CHUNKS_MAX)
    return FALSE;
  layout->n_segments = n;
  layout->equal = FALSE;
  memcpy (layout->len, lens, n * sizeof lens[0]);
  return TRUE;
}

gboolean
octo_qlayout_equal (OctoQLayout *layout, guint32 msg_len, guint n)
{
  if (n == 0 || n > OCTO_CHUNKS_MAX)
    return FALSE;
  layout->n_segments = n;
  layout->equal = TRUE;
  for (guint i = 0; i < n; i++)
    layout->len[i] = msg_len / n + (i < msg_len % n);
  return TRUE;
}

guint64
octo_qlayout_total (const OctoQLayout *layout)
{
  guint64 total = 0;

  for (guint i = 0; i < layout->n_segments; i++)
    total += layout->len[i];
  return total;
}

guint32
octo_qlayout_piece_offset (const OctoQLayout *layout, guint seg,
    guint32 index, guint32 count)
{
  return (guint32) ((guint64) layout->len[seg] * index / count);
}

guint32
octo_qlayout_piece_len (const OctoQLayout *layout, guint seg, guint32 index,
    guint32 count)
{
  return octo_qlayout_piece_offset (layout, seg, index + 1, count) -
      octo_qlayout_piece_offset (layout, seg, index, count);
}

/* Bytes after the prefix besides the pieces: lengths and trailer. */
static gsize
overhead (guint n)
{
  return 4 * (gsize) n + octo_chunks_trailer_size (n);
}

/* The largest fragment of @count: fragment 0 carries the message info, and
 * a piece is at most ceil(S_i / count). */
static guint64
largest_fragment (const OctoQLayout *layout, guint32 count)
{
  guint64 pieces = 0;

  for (guint i = 0; i < layout->n_segments; i++)
    pieces += ((guint64) layout->len[i] + count - 1) / count;
  return OCTO_DATA_FIRST_PREFIX_LEN + overhead (layout->n_segments) + pieces;
}

guint32
octo_qpacket_count (const OctoQLayout *layout, guint32 mtu)
{
  guint64 total = octo_qlayout_total (layout);
  gsize fixed;

  if (mtu < OCTO_MTU_MIN || mtu > OCTO_MTU_MAX || layout->n_segments == 0 ||
      layout->n_segments > OCTO_CHUNKS_MAX || total > G_MAXUINT32)
    return 0;
  fixed = OCTO_DATA_FIRST_PREFIX_LEN + overhead (layout->n_segments);
  /* Each piece rounds up by less than a byte per segment. */
  if (fixed + layout->n_segments >= mtu)
    return 0;
  guint64 count = MAX (total / (mtu - fixed), 1);
  while (count <= OCTO_FRAGMENTS_MAX && largest_fragment (layout, count) > mtu)
    count++;
  return count > OCTO_FRAGMENTS_MAX ? 0 : (guint32) count;
}

gsize
octo_qpacket_write (const OctoHeader *params, const OctoMsgInfo *info,
    const OctoQLayout *layout, const guint8 *msg, guint32 mtu,
    guint32 index, guint32 count, guint8 *out)
{
  guint n = layout->n_segments;
  guint16 lens[OCTO_CHUNKS_MAX];
  guint8 flags = OCTO_DATA_FLAG_CHUNKED |
      (layout->equal ? OCTO_DATA_FLAG_CHUNKS_EQUAL : 0);

  if (index >= count || n == 0 || n > OCTO_CHUNKS_MAX ||
      largest_fragment (layout, count) > mtu)
    return 0;
  gsize len = octo_fragment_write_prefix (params, info, flags,
      (guint32) octo_qlayout_total (layout), 0, index, count, out);
  if (len == 0)
    return 0;
  for (guint i = 0; i < n; i++, len += 4)
    octo_put_u32 (out + len, layout->len[i]);
  gsize segment_start = 0;
  for (guint i = 0; i < n; i++) {
    lens[i] = octo_qlayout_piece_len (layout, i, index, count);
    memcpy (out + len, msg + segment_start +
        octo_qlayout_piece_offset (layout, i, index, count), lens[i]);
    len += lens[i];
    segment_start += layout->len[i];
  }
  octo_chunks_write_trailer (out + len, lens, n);
  return len + octo_chunks_trailer_size (n);
}

gboolean
octo_qpacket_parse (const OctoDataPacket *pkt, OctoQFragment *out)
{
  const guint8 *p = pkt->payload;
  OctoChunks *c = &out->chunks;

  if (!(pkt->flags & OCTO_DATA_FLAG_CHUNKED) ||
      !octo_chunks_parse (p, pkt->payload_len, c) ||
      c->chunks_offset != 4 * (gsize) c->n_chunks)
    return FALSE;
  out->layout.n_segments = c->n_chunks;
  out->layout.equal = (pkt->flags & OCTO_DATA_FLAG_CHUNKS_EQUAL) != 0;
  for (guint i = 0; i < c->n_chunks; i++)
    out->layout.len[i] = octo_get_u32 (p + 4 * i);
  if (octo_qlayout_total (&out->layout) != pkt->msg_len)
    return FALSE;
  if (out->layout.equal) {
    OctoQLayout stripes;
    octo_qlayout_equal (&stripes, pkt->msg_len, c->n_chunks);
    if (memcmp (stripes.len, out->layout.len, c->n_chunks * 4) != 0)
      return FALSE;
  }
  gsize at = c->chunks_offset;
  for (guint i = 0; i < c->n_chunks; i++) {
    if (c->len[i] != octo_qlayout_piece_len (&out->layout, i,
            pkt->frag_index, pkt->frag_count))
      return FALSE;
    if (i < c->n_chunks - c->trimmed) {
      out->chunk[i] = p + at;
      at += c->len[i];
    } else {
      out->chunk[i] = NULL;
    }
  }
  return TRUE;
}

guint
octo_qpacket_tail_bytes (const guint8 *data, gsize len,
    guint32 tail[OCTO_CHUNKS_MAX])
{
  OctoChunks c;
  guint32 sum = 0;

  if (!(octo_data_get_flags (data, len) & OCTO_DATA_FLAG_CHUNKED) ||
      !octo_chunks_parse (data, len, &c))
    return 0;
  for (guint k = 0; k < c.n_chunks; k++) {
    sum += c.len[c.n_chunks - 1 - k];
    tail[k] = sum;
  }
  return c.n_chunks;
}

gboolean
octo_qpacket_nack (const OctoDataPacket *pkt, const OctoQFragment *frag,
    OctoNack *nack)
{
  if (frag->chunks.trimmed == 0)
    return FALSE;
  nack->conn_id = pkt->conn_id;
  nack->path_id = pkt->path_id;
  nack->trimmed = frag->chunks.trimmed;
  nack->seq = pkt->seq;
  return TRUE;
}

struct _OctoQMessage {
  OctoQLayout layout;
  guint32 frag_count, frags_seen;
  guint8 *data;
  guint8 *seen;                 /* per fragment: 1 + chunks present, 0 unseen */
  guint64 missing[OCTO_CHUNKS_MAX];     /* bytes of each segment not arrived */
};

OctoQMessage *
octo_qmessage_new (const OctoDataPacket *pkt, const OctoQFragment *frag,
    guint64 max_bytes)
{
  if (pkt->msg_len > max_bytes)
    return NULL;
  OctoQMessage *m = g_new0 (OctoQMessage, 1);
  m->layout = frag->layout;
  m->frag_count = pkt->frag_count;
  m->data = g_malloc0 (MAX (pkt->msg_len, 1));
  m->seen = g_malloc0 (pkt->frag_count);
  for (guint i = 0; i < m->layout.n_segments; i++)
    m->missing[i] = m->layout.len[i];
  return m;
}

void
octo_qmessage_free (OctoQMessage *m)
{
  if (!m)
    return;
  g_free (m->data);
  g_free (m->seen);
  g_free (m);
}

gboolean
octo_qmessage_add (OctoQMessage *m, const OctoDataPacket *pkt,
    const OctoQFragment *frag)
{
  guint n = m->layout.n_segments;
  guint present = frag->chunks.n_chunks - frag->chunks.trimmed;

  if (pkt->frag_count != m->frag_count || frag->layout.n_segments != n ||
      frag->layout.equal != m->layout.equal ||
      memcmp (frag->layout.len, m->layout.len, n * 4) != 0)
    return FALSE;
  /* A copy trimmed less than one seen before adds the chunks it has more. */
  guint had = m->seen[pkt->frag_index] ? m->seen[pkt->frag_index] - 1 : 0;
  if (!m->seen[pkt->frag_index])
    m->frags_seen++;
  gsize segment_start = 0;
  for (guint i = 0; i < n; i++) {
    if (i >= had && i < present) {
      memcpy (m->data + segment_start + octo_qlayout_piece_offset (&m->layout,
              i, pkt->frag_index, m->frag_count), frag->chunk[i],
          frag->chunks.len[i]);
      m->missing[i] -= frag->chunks.len[i];
    }
    segment_start += m->layout.len[i];
  }
  m->seen[pkt->frag_index] = 1 + MAX (had, present);
  return TRUE;
}

guint
octo_qmessage_usable_segments (const OctoQMessage *m)
{
  guint whole = 0;

  while (whole < m->layout.n_segments && m->missing[whole] == 0)
    whole++;
  if (m->layout.equal && whole < m->layout.n_segments)
    return 0;
  return whole;
}

gboolean
octo_qmessage_all_fragments (const OctoQMessage *m)
{
  return m->frags_seen == m->frag_count;
}

const guint8 *
octo_qmessage_data (const OctoQMessage *m)
{
  return m->data;
}

gsize
octo_qmessage_prefix_len (const OctoQMessage *m, guint segments)
{
  gsize len = 0;

  for (guint i = 0; i < MIN (segments, m->layout.n_segments); i++)
    len += m->layout.len[i];
  return len;
}

guint
octo_msg_info_layer (const OctoMsgInfo *info)
{
  if (info->spatial_layer != OCTO_LAYER_NONE)
    return info->spatial_layer;
  return info->density_layer;
}

void
octo_qframe_init (OctoQFrame *frame)
{
  frame->layout.n_segments = 0;
  frame->data = g_byte_array_new ();
}

void
octo_qframe_clear (OctoQFrame *frame)
{
  g_clear_pointer (&frame->data, g_byte_array_unref);
}

void
octo_qframe_reset (OctoQFrame *frame)
{
  frame->layout.n_segments = 0;
  g_byte_array_set_size (frame->data, 0);
}

gboolean
octo_qframe_continues (const OctoQFrame *frame, const OctoHeader *header,
    const OctoMsgInfo *info)
{
  if (frame->layout.n_segments == 0)
    return TRUE;

  guint first = octo_msg_info_layer (&frame->info);
  guint layer = octo_msg_info_layer (info);

  return first != OCTO_LAYER_NONE && layer != OCTO_LAYER_NONE
      && header->stream_id == frame->layer_header[0].stream_id
      && info->frame_id == frame->info.frame_id
      && info->cell_id == frame->info.cell_id
      && layer == first + frame->layout.n_segments;
}

void
octo_qframe_add (OctoQFrame *frame, const OctoHeader *header,
    const OctoMsgInfo *info, const guint8 *data, gsize len)
{
  g_return_if_fail (octo_qframe_continues (frame, header, info));
  g_return_if_fail (frame->layout.n_segments < OCTO_CHUNKS_MAX);
  g_return_if_fail (len <= G_MAXUINT32);

  if (frame->layout.n_segments == 0) {
    frame->info = *info;
    frame->layout.equal = FALSE;
  }
  frame->layer_header[frame->layout.n_segments] = *header;
  frame->layout.len[frame->layout.n_segments++] = (guint32) len;
  g_byte_array_append (frame->data, data, (guint) len);
}

gboolean
octo_qframe_complete (const OctoQFrame *frame, gboolean marked)
{
  return frame->layout.n_segments > 0 && (marked ||
      octo_msg_info_layer (&frame->info) == OCTO_LAYER_NONE ||
      frame->layout.n_segments == OCTO_CHUNKS_MAX);
}

void
octo_qframe_layer_info (const OctoMsgInfo *first, guint i, OctoMsgInfo *out)
{
  *out = *first;
  if (first->spatial_layer != OCTO_LAYER_NONE)
    out->spatial_layer = (guint8) MIN (first->spatial_layer + i,
        OCTO_LAYER_NONE - 1);
  else if (first->density_layer != OCTO_LAYER_NONE)
    out->density_layer = (guint8) MIN (first->density_layer + i,
        OCTO_LAYER_NONE - 1);
}
