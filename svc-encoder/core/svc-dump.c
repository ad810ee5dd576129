#include "svc-dump.h"

#include <string.h>

#define SVC_DUMP_ERROR g_quark_from_static_string ("svc-dump-error")

void
svc_dump_write_header (const SvcDumpRecord *r,
    guint8 out[SVC_DUMP_RECORD_HEADER])
{
  guint32 id = GUINT32_TO_LE (r->frame_id), size = GUINT32_TO_LE (r->size);
  guint64 capture = GUINT64_TO_LE (r->capture_ns);

  memcpy (out, &id, 4);
  out[4] = r->index;
  out[5] = r->temporal_layer;
  out[6] = r->keyframe ? 1 : 0;
  out[7] = 0;
  memcpy (out + 8, &capture, 8);
  memcpy (out + 16, &size, 4);
}

gssize
svc_dump_parse_record (const guint8 *data, gsize len, gsize offset,
    SvcDumpRecord *r, GError **error)
{
  guint32 id, size;
  guint64 capture;

  if (len == 0)
    return 0;
  if (len < SVC_DUMP_RECORD_HEADER) {
    g_set_error (error, SVC_DUMP_ERROR, 0, "offset %" G_GSIZE_FORMAT
        ": truncated record header (%" G_GSIZE_FORMAT " of %d bytes)",
        offset, len, SVC_DUMP_RECORD_HEADER);
    return -1;
  }
  memcpy (&id, data, 4);
  memcpy (&capture, data + 8, 8);
  memcpy (&size, data + 16, 4);
  r->frame_id = GUINT32_FROM_LE (id);
  r->index = data[4];
  r->temporal_layer = data[5];
  r->capture_ns = GUINT64_FROM_LE (capture);
  r->size = GUINT32_FROM_LE (size);
  if (data[6] > 1 || data[7] != 0 || r->size == 0
      || r->size > SVC_DUMP_MAX_PAYLOAD) {
    g_set_error (error, SVC_DUMP_ERROR, 0, "offset %" G_GSIZE_FORMAT
        ": invalid record (key flag %u, reserved %u, size %u)", offset,
        data[6], data[7], r->size);
    return -1;
  }
  r->keyframe = data[6] == 1;
  if (len - SVC_DUMP_RECORD_HEADER < r->size) {
    g_set_error (error, SVC_DUMP_ERROR, 0, "offset %" G_GSIZE_FORMAT
        ": payload of %u bytes truncated to %" G_GSIZE_FORMAT, offset,
        r->size, len - SVC_DUMP_RECORD_HEADER);
    return -1;
  }
  r->payload = data + SVC_DUMP_RECORD_HEADER;
  return SVC_DUMP_RECORD_HEADER + (gssize) r->size;
}
