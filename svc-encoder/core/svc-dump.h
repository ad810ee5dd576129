/* svc-encoder core: the layer dump octopussvclog writes and octo-svc-quality
 * reads — every message the sender produced, with its payload, so the
 * pictures a receiver could show can be rebuilt and scored after a run.
 *
 * File: the 8 bytes "OSVCDMP1", then records, little-endian:
 *   u32 frame_id, u8 index (spatial layer), u8 temporal_layer,
 *   u8 keyframe, u8 reserved (0), u64 capture_ns, u32 size, size bytes. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SVC_DUMP_MAGIC "OSVCDMP1"
#define SVC_DUMP_MAGIC_LEN 8
#define SVC_DUMP_RECORD_HEADER 20
#define SVC_DUMP_MAX_PAYLOAD (16u << 20)

typedef struct {
  guint32 frame_id;
  guint8 index;
  guint8 temporal_layer;
  gboolean keyframe;
  guint64 capture_ns;
  guint32 size;
  const guint8 *payload;        /* points into the parsed bytes */
} SvcDumpRecord;

/* Writes the record header for @r (payload not included) into @out. */
void svc_dump_write_header (const SvcDumpRecord *r,
    guint8 out[SVC_DUMP_RECORD_HEADER]);

/* Parses the record at @data (@len bytes left); returns the bytes it used,
 * 0 at a clean end (@len == 0), or -1 with @error for a truncated or
 * invalid record (naming the byte offset @offset of its start). */
gssize svc_dump_parse_record (const guint8 *data, gsize len, gsize offset,
    SvcDumpRecord *r, GError **error);

G_END_DECLS
