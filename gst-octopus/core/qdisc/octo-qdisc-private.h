/* gst-octopus core: what a queue discipline implements (not for users). */
#pragma once

#include "octo-qdisc.h"

G_BEGIN_DECLS

typedef struct {
  const gchar *discipline;      /* for error messages */
  gchar **keys;
  gchar **values;
  guint n;
} OctoQdiscArgs;

struct _OctoQdiscOps {
  const gchar *name;
  const gchar *summary;
  const gchar *usage;
  const gchar *const *keys;     /* own keys, NULL-terminated; "limit" is implied */
  /* Returns a zeroed state whose first member is the OctoQdisc; @limit_bytes
   * and its packet bound are set on it afterwards. */
  OctoQdisc *(*create) (const OctoQdiscEnv *env, guint64 limit_bytes,
      const OctoQdiscArgs *args, GError **error);
  void (*destroy) (OctoQdisc *qdisc);
  gboolean (*enqueue) (OctoQdisc *qdisc, OctoPacket *packet, guint8 *payload,
      gsize *payload_len, OctoTime now);
  const OctoPacket *(*peek) (OctoQdisc *qdisc, OctoTime now);
  gboolean (*dequeue) (OctoQdisc *qdisc, OctoTime now, OctoPacket *out);
  guint64 (*queued_bytes) (OctoQdisc *qdisc);
  guint32 (*queued_packets) (OctoQdisc *qdisc);
};

struct _OctoQdisc {
  const OctoQdiscOps *ops;
  OctoQdiscEnv env;
  guint64 limit_bytes;
  guint32 limit_packets;        /* octo_qdisc_packet_limit (limit_bytes) */
  OctoQdiscStats stats;
};

/* Counts the drop and hands the packet back through the owner's callback. */
void octo_qdisc_drop (OctoQdisc *qdisc, const OctoPacket *packet,
    OctoDropReason reason);
/* Counts a trim of @cut_chunks chunks, @cut->size bytes, off a packet that
 * stays queued, and reports it through the callback as OCTO_DROP_TRIM. */
void octo_qdisc_trimmed (OctoQdisc *qdisc, const OctoPacket *cut,
    guint cut_chunks);

/* Each reads @key if present, leaves @value untouched otherwise. */
gboolean octo_qdisc_arg_time (const OctoQdiscArgs *args, const gchar *key,
    OctoTime *value, GError **error);
gboolean octo_qdisc_arg_bytes (const OctoQdiscArgs *args, const gchar *key,
    guint64 *value, GError **error);
gboolean octo_qdisc_arg_uint (const OctoQdiscArgs *args, const gchar *key,
    guint64 min, guint64 max, guint64 *value, GError **error);

extern const OctoQdiscOps octo_qdisc_octopus_ops;
extern const OctoQdiscOps octo_qdisc_droptail_ops;
extern const OctoQdiscOps octo_qdisc_drophead_ops;
extern const OctoQdiscOps octo_qdisc_codel_ops;
extern const OctoQdiscOps octo_qdisc_pie_ops;
extern const OctoQdiscOps octo_qdisc_bode_ops;
extern const OctoQdiscOps octo_qdisc_pdrop_ops;
extern const OctoQdiscOps octo_qdisc_quco_ops;

G_END_DECLS
