/* octopussrc: the Octopus transport's receiver as a GStreamer source.
 *
 * Binds a UDP port, reassembles messages (OctoReceiver: bounded memory,
 * in-order-without-waiting delivery) and pushes each complete message at
 * once as one buffer carrying the GstOctopusMeta restored from the header;
 * a layered qualitative (QUCO) message as one buffer per layer that
 * arrived whole, so a frame a quco queue trimmed is shown at a lower layer.
 * QUCO NACKs (one per trimmed packet) go back with the ACKs.
 * ACKs go back to each sender from the same socket.  Senders are kept
 * apart by address and port, each with its own reassembly state; the bytes
 * of incomplete messages of all senders together are capped too.
 *
 * The table of senders is the core's (octo-peer-table.h): junk cannot
 * exhaust it, entries expire after peer-timeout without packets, and a
 * full table evicts a sender that never completed a message, else one idle
 * for a second.  The first refusal or eviction posts a warning.
 *
 * The receive loop waits in ppoll (nanosecond timeouts, the cancellable's
 * fd made once) and drains the socket with recvmmsg.
 *
 * Stats (property and periodic element message) include message latency
 * p50/p99: delivery time minus the sender's capture time, meaningful when
 * both run on one host (the default GStreamer clock is CLOCK_MONOTONIC). */
#include "gstoctopussrc.h"

#include <errno.h>
#include <gio/gio.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "gst/octopus/gstoctopusmeta.h"
#include <gst/video/video.h>
#include "gstoctopusstats.h"
#include "octo-metrics.h"
#include "transport/octo-peer-table.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_src_debug);
#define GST_CAT_DEFAULT gst_octopus_src_debug

enum {
  PROP_0,
  PROP_ADDRESS,
  PROP_PORT,
  PROP_REUSE,
  PROP_BOUND_PORT,
  PROP_CAPS,
  PROP_BUFFER_SIZE,
  PROP_MAX_PARTIAL_MESSAGES,
  PROP_MAX_PARTIAL_BYTES,
  PROP_MAX_TOTAL_PARTIAL_BYTES,
  PROP_TIMEOUT,
  PROP_REORDER_WAIT,
  PROP_RESEND_WAIT,
  PROP_ACK_TIMESTAMPS,
  PROP_ACK_EVERY,
  PROP_MAX_PEERS,
  PROP_PEER_TIMEOUT,
  PROP_STATS_INTERVAL,
  PROP_STATS,
};

#define DEFAULT_ADDRESS "0.0.0.0"
#define DEFAULT_PORT 5004
/* A second receiver on a busy port would get nothing, silently. */
#define DEFAULT_REUSE FALSE
#define DEFAULT_BUFFER_SIZE (4 * 1024 * 1024)
#define DEFAULT_MAX_PARTIAL_MESSAGES OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_MESSAGES
#define DEFAULT_MAX_PARTIAL_BYTES OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_BYTES
#define DEFAULT_MAX_TOTAL_PARTIAL_BYTES OCTO_RECEIVER_DEFAULT_PARTIAL_BUDGET
#define DEFAULT_TIMEOUT (OCTO_RECEIVER_DEFAULT_TIMEOUT / GST_MSECOND)
#define DEFAULT_REORDER_WAIT 0
#define DEFAULT_RESEND_WAIT (OCTO_RECEIVER_DEFAULT_RESEND_WAIT / OCTO_MSECOND)
#define DEFAULT_ACK_TIMESTAMPS TRUE
#define DEFAULT_ACK_EVERY OCTO_ACKER_DEFAULT_EVERY
#define DEFAULT_MAX_PEERS OCTO_PEER_TABLE_DEFAULT_MAX_PEERS
#define DEFAULT_PEER_TIMEOUT (OCTO_PEER_TABLE_DEFAULT_TIMEOUT / GST_MSECOND)
#define DEFAULT_STATS_INTERVAL 1000

/* Latency samples kept for the percentiles. */
#define LATENCY_WINDOW 4096
/* Above this a sample says the sender's capture time is not on our clock. */
#define LATENCY_MAX (60 * GST_SECOND)
/* Datagrams per recvmmsg; each slot holds the largest datagram, but only
 * the pages a datagram touches become resident. */
#define RECV_BATCH 16
/* A sender that completed a message is evicted for a new one only after
 * this long without packets, so a valid-looking flood cannot displace an
 * active sender. */
/* Freed partials go back to the system (malloc_trim) when at most a
 * quarter of a peak of at least this many bytes is held, at most once a
 * second. */
#define TRIM_AFTER_BYTES (4 * 1024 * 1024)

typedef struct {
  socklen_t len;
  struct sockaddr_storage ss;
} PeerAddr;

struct _GstOctopusSrc {
  GstPushSrc parent;

  /* properties (object lock) */
  gchar *address;
  gint port;
  gboolean reuse;
  gint bound_port;
  GstCaps *caps;
  gint buffer_size;
  guint max_partial_messages;
  guint64 max_partial_bytes;
  guint64 max_total_partial_bytes;
  guint timeout;
  guint reorder_wait;
  guint resend_wait;            /* ms */
  gboolean ack_timestamps;
  guint ack_every;
  guint max_peers;
  guint peer_timeout;
  guint stats_interval;
  gboolean peer_config_changed; /* a property of the peer table was set */

  /* streaming thread; @lock guards what stats readers see */
  GMutex lock;
  GSocket *socket;
  GCancellable *cancellable;
  gint cancel_fd;               /* the cancellable's, made once */
  OctoPeerTable *peers;
  GstClock *system_clock;       /* for latency: obtained once, not per message */
  GQueue ready;                 /* GstBuffer, complete messages */
  guint8 *recv_buf;             /* RECV_BATCH x OCTO_MTU_MAX */
  struct mmsghdr msgs[RECV_BATCH];
  struct iovec iov[RECV_BATCH];
  PeerAddr from[RECV_BATCH];
  OctoTime next_stats, next_trim;
  guint64 held_peak;            /* partial bytes since the last trim */
  gboolean warned_peers;
  guint64 acks_sent;
  OctoTime latency[LATENCY_WINDOW];
  guint latency_count, latency_head;
  guint64 latency_rejected;
};

#define gst_octopus_src_parent_class parent_class
G_DEFINE_TYPE (GstOctopusSrc, gst_octopus_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE (octopussrc, "octopussrc", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static gchar *
peer_addr_to_string (const PeerAddr *addr)
{
  GSocketAddress *sa = g_socket_address_new_from_native ((gpointer) & addr->ss,
      addr->len);
  gchar *s;

  if (!G_IS_INET_SOCKET_ADDRESS (sa)) {
    g_clear_object (&sa);
    return g_strdup ("(unknown)");
  }
  GInetSocketAddress *isa = G_INET_SOCKET_ADDRESS (sa);
  gchar *host =
      g_inet_address_to_string (g_inet_socket_address_get_address (isa));
  s = g_strdup_printf ("%s:%u", host, g_inet_socket_address_get_port (isa));
  g_free (host);
  g_object_unref (sa);
  return s;
}

/* One buffer with its meta from the core's description. */
static GstBuffer *
message_buffer (GstMemory *mem, gsize offset, gsize len,
    const OctoHeader *header, const OctoMsgInfo *info)
{
  GstBuffer *buf = gst_buffer_new ();
  GstOctopusMeta *m;

  /* An empty message is still a message: a buffer without memory. */
  if (len > 0)
    gst_buffer_append_memory (buf, gst_memory_share (mem, offset, len));
  m = gst_buffer_add_octopus_meta (buf);
  gst_octopus_meta_from_core (m, header, info);
  if (!m->keyframe)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);
  return buf;
}

static void
on_message (OctoMessage *msg, const OctoPeer *peer, gpointer user_data)
{
  GstOctopusSrc *self = user_data;
  GstMemory *mem = NULL;
  GstClockTime now = gst_clock_get_time (self->system_clock);

  (void) peer;
  if (msg->len > 0)
    mem = gst_memory_new_wrapped (0, msg->data, msg->len, 0, msg->len,
        msg->data, g_free);
  else
    g_free (msg->data);
  /* Called from octo_peer_table_receive with self->lock held. */
  if (msg->info.capture_time != OCTO_TIME_NONE) {
    if (now >= msg->info.capture_time &&
        now - msg->info.capture_time <= LATENCY_MAX) {
      self->latency[self->latency_head] = now - msg->info.capture_time;
      self->latency_head = (self->latency_head + 1) % LATENCY_WINDOW;
      self->latency_count = MIN (self->latency_count + 1, LATENCY_WINDOW);
    } else {
      self->latency_rejected++;
    }
  }
  if (msg->layers_delivered == 0) {
    g_queue_push_tail (&self->ready, message_buffer (mem, 0, msg->len,
            &msg->header, &msg->info));
    g_clear_pointer (&mem, gst_memory_unref);
    return;
  }
  /* A layered qualitative message: one buffer per layer whose bytes all
   * arrived, as the encoder sent them; the last one delivered ends the
   * frame (MARKER), whether or not it is the top layer sent. */
  gsize offset = 0;
  for (guint i = 0; i < msg->layers_delivered; i++) {
    OctoMsgInfo info;
    GstBuffer *buf;

    octo_qframe_layer_info (&msg->info, i, &info);
    buf = message_buffer (mem, offset, msg->layer_len[i], &msg->header,
        &info);
    if (i + 1 == msg->layers_delivered)
      GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_MARKER);
    offset += msg->layer_len[i];
    g_queue_push_tail (&self->ready, buf);
  }
  g_clear_pointer (&mem, gst_memory_unref);
}

/* Called with self->lock held. */
static GstStructure *
build_stats (GstOctopusSrc *self)
{
  OctoReceiverStats sum;
  const OctoPeerTableStats *table = octo_peer_table_get_stats (self->peers);
  guint64 invalid = table->packets_invalid, p50 = 0, p99 = 0;

  octo_peer_table_receiver_stats (self->peers, &sum);
  for (guint i = 0; i < OCTO_DATA_N_RESULTS; i++)
    invalid += sum.packets_invalid[i];
  invalid += sum.packets_qualitative_invalid;
  if (self->latency_count > 0) {
    /* the project's one percentile definition (octo-metrics.h) */
    gdouble *samples = g_new (gdouble, self->latency_count);
    for (guint i = 0; i < self->latency_count; i++)
      samples[i] = self->latency[i];
    p50 = octo_percentile (samples, self->latency_count, 50);
    p99 = octo_percentile (samples, self->latency_count, 99);
    g_free (samples);
  }
  return gst_structure_new ("application/x-octopus-src-stats",
      "peers", G_TYPE_UINT, octo_peer_table_size (self->peers),
      "peers-refused", G_TYPE_UINT64, table->peers_refused,
      "peers-evicted", G_TYPE_UINT64, table->peers_evicted,
      "peers-expired", G_TYPE_UINT64, table->peers_expired,
      "addresses-joined", G_TYPE_UINT64, table->addresses_joined,
      "addresses-refused", G_TYPE_UINT64, table->addresses_refused,
      "packets-received", G_TYPE_UINT64, sum.packets_received,
      "bytes-received", G_TYPE_UINT64, sum.bytes_received,
      "packets-invalid", G_TYPE_UINT64, invalid,
      "packets-bad-version", G_TYPE_UINT64, table->packets_bad_version +
      sum.packets_invalid[OCTO_DATA_BAD_VERSION],
      "packets-control", G_TYPE_UINT64, table->packets_control,
      "packets-duplicate", G_TYPE_UINT64, sum.packets_duplicate,
      "packets-late", G_TYPE_UINT64, sum.packets_late,
      "packets-padding", G_TYPE_UINT64, sum.padding_packets,
      "messages-delivered", G_TYPE_UINT64, sum.messages_delivered,
      "bytes-delivered", G_TYPE_UINT64, sum.bytes_delivered,
      "messages-late", G_TYPE_UINT64, sum.messages_late,
      "messages-reordered", G_TYPE_UINT64, sum.messages_reordered,
      "messages-timed-out", G_TYPE_UINT64, sum.messages_timed_out,
      "messages-evicted", G_TYPE_UINT64, sum.messages_evicted,
      "messages-too-large", G_TYPE_UINT64, sum.messages_too_large,
      "messages-refused", G_TYPE_UINT64, sum.messages_refused,
      "messages-inconsistent", G_TYPE_UINT64, sum.messages_inconsistent,
      "messages-abandoned", G_TYPE_UINT64, sum.messages_abandoned,
      "messages-lost-across-paths", G_TYPE_UINT64,
      sum.messages_lost_across_paths,
      "packets-bad-path", G_TYPE_UINT64, sum.packets_bad_path,
      "connections-replaced", G_TYPE_UINT64, sum.connections_replaced,
      "packets-stale-connection", G_TYPE_UINT64, sum.packets_stale,
      "keyframe-requests", G_TYPE_UINT64, sum.keyframe_requests,
      "partial-messages", G_TYPE_UINT, sum.partial_messages,
      "partial-bytes", G_TYPE_UINT64,
      octo_peer_table_partial_bytes (self->peers),
      "acks-sent", G_TYPE_UINT64, self->acks_sent,
      "packets-qualitative", G_TYPE_UINT64, sum.packets_qualitative,
      "packets-trimmed", G_TYPE_UINT64, sum.packets_trimmed,
      "chunks-trimmed", G_TYPE_UINT64, sum.chunks_trimmed,
      "nacks-sent", G_TYPE_UINT64, sum.nacks_sent,
      "nacks-not-sent", G_TYPE_UINT64, sum.nacks_not_sent,
      "messages-lower-layers", G_TYPE_UINT64, sum.messages_lower_layers,
      "messages-unusable", G_TYPE_UINT64, sum.messages_unusable,
      "latency-p50", G_TYPE_UINT64, p50,
      "latency-p99", G_TYPE_UINT64, p99,
      "latency-samples-rejected", G_TYPE_UINT64, self->latency_rejected,
      NULL);
}

/* The table's config from the properties.  Takes the object lock. */
static void
peer_table_config (GstOctopusSrc *self, OctoPeerTableConfig *config)
{
  octo_peer_table_config_init (config);
  GST_OBJECT_LOCK (self);
  config->max_peers = self->max_peers;
  config->peer_timeout = self->peer_timeout * GST_MSECOND;
  config->receiver.max_partial_messages = self->max_partial_messages;
  config->receiver.max_partial_bytes = self->max_partial_bytes;
  config->receiver.timeout = self->timeout * GST_MSECOND;
  config->receiver.reorder_wait = self->reorder_wait * GST_MSECOND;
  config->receiver.resend_wait = self->resend_wait * GST_MSECOND;
  config->receiver.ack_timestamps = self->ack_timestamps;
  config->receiver.ack_every = self->ack_every;
  config->max_total_partial_bytes = self->max_total_partial_bytes;
  GST_OBJECT_UNLOCK (self);
}

static void
send_ack (const OctoPeer *peer, const guint8 *ack, gsize len,
    gpointer user_data)
{
  GstOctopusSrc *self = user_data;
  /* QUCO NACKs come this way too; the receiver counts those */
  gboolean is_ack = ack[0] == OCTO_CONTROL_ACK;

  if (is_ack)
    self->acks_sent++;
  if (sendto (g_socket_get_fd (self->socket), ack, len, MSG_DONTWAIT,
          (const struct sockaddr *) peer->addr, (socklen_t) peer->addr_len)
      < 0)
    GST_DEBUG_OBJECT (self, "could not send %s: %s", is_ack ? "an ACK" :
        "a NACK", g_strerror (errno));
}

/* Applies changed properties, expires idle peers, runs timers and sends due
 * ACKs; returns the earliest next deadline.  Called with self->lock held. */
static OctoTime
service_peers (GstOctopusSrc *self, OctoTime now)
{
  OctoPeerTableConfig config;
  OctoTime next;
  guint64 held;
  gboolean changed;

  GST_OBJECT_LOCK (self);
  changed = self->peer_config_changed;
  self->peer_config_changed = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (changed) {
    peer_table_config (self, &config);
    octo_peer_table_configure (self->peers, &config);
  }
  next = octo_peer_table_service (self->peers, now, send_ack, self);
  held = octo_peer_table_partial_bytes (self->peers);
#ifdef __GLIBC__
  /* glibc keeps freed partials in its arenas: give them back. */
  if (self->held_peak >= TRIM_AFTER_BYTES && held <= self->held_peak / 4) {
    if (now >= self->next_trim) {
      malloc_trim (0);
      self->held_peak = held;
      self->next_trim = now + GST_SECOND;
    } else {
      next = MIN (next, self->next_trim);
    }
  }
#endif
  return next;
}

/* Receives what the socket holds, up to RECV_BATCH datagrams.  Called
 * with self->lock held. */
static void
receive_batch (GstOctopusSrc *self)
{
  gint n;

  for (guint i = 0; i < RECV_BATCH; i++)
    self->msgs[i].msg_hdr.msg_namelen = sizeof self->from[i].ss;
  n = recvmmsg (g_socket_get_fd (self->socket), self->msgs, RECV_BATCH,
      MSG_DONTWAIT, NULL);
  if (n <= 0) {
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
      GST_DEBUG_OBJECT (self, "receive failed: %s", g_strerror (errno));
    return;
  }

  OctoTime now = gst_util_get_timestamp ();
  for (gint i = 0; i < n; i++) {
    const guint8 *data = self->iov[i].iov_base;
    gsize len = self->msgs[i].msg_len;

    guint before = octo_peer_table_size (self->peers);
    OctoDataParseResult res = OCTO_DATA_OK;

    switch (octo_peer_table_receive (self->peers, &self->from[i].ss,
            self->msgs[i].msg_hdr.msg_namelen, data, len, now, &res)) {
      case OCTO_PEER_TAKEN:
        if (octo_peer_table_size (self->peers) > before
            && gst_debug_category_get_threshold (GST_CAT_DEFAULT) >=
            GST_LEVEL_INFO) {
          self->from[i].len = self->msgs[i].msg_hdr.msg_namelen;
          gchar *name = peer_addr_to_string (&self->from[i]);
          GST_INFO_OBJECT (self, "new sender %s", name);
          g_free (name);
        }
        break;
      case OCTO_PEER_CONTROL:
      case OCTO_PEER_REFUSED:
        break;
      case OCTO_PEER_UNKNOWN_INVALID:
        GST_LOG_OBJECT (self, "ignored a %" G_GSIZE_FORMAT "-byte datagram "
            "from an unknown sender: %s", len,
            octo_data_parse_result_to_string (res));
        break;
    }
  }
  self->held_peak = MAX (self->held_peak,
      octo_peer_table_partial_bytes (self->peers));
}

typedef enum {
  WAIT_READABLE,
  WAIT_TIMED_OUT,
  WAIT_FLUSHING,
} WaitResult;

/* Waits until the socket is readable, @deadline or unlock(). */
static WaitResult
wait_socket (GstOctopusSrc *self, OctoTime now, OctoTime deadline)
{
  struct pollfd fds[2] = {
    {.fd = g_socket_get_fd (self->socket),.events = POLLIN},
    {.fd = self->cancel_fd,.events = POLLIN},
  };
  struct timespec timeout, *timeout_p = NULL;
  gint n;

  if (deadline != OCTO_TIME_NONE) {
    OctoTime wait = deadline > now ? deadline - now : 0;
    timeout.tv_sec = wait / GST_SECOND;
    timeout.tv_nsec = wait % GST_SECOND;
    timeout_p = &timeout;
  }
  n = ppoll (fds, G_N_ELEMENTS (fds), timeout_p, NULL);
  if (g_cancellable_is_cancelled (self->cancellable))
    return WAIT_FLUSHING;
  return n > 0 && (fds[0].revents & (POLLIN | POLLERR)) ?
      WAIT_READABLE : WAIT_TIMED_OUT;
}

/* Posts the peer-table warning once. */
static void
warn_peers (GstOctopusSrc *self)
{
  guint max_peers;

  GST_OBJECT_LOCK (self);
  max_peers = self->max_peers;
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_WARNING (self, RESOURCE, BUSY,
      ("Too many senders: the table of %u is full", max_peers),
      ("a sender was refused or evicted (see peers-refused and peers-evicted "
          "in stats); raise max-peers if these are real senders"));
}

static GstFlowReturn
gst_octopus_src_create (GstPushSrc *psrc, GstBuffer **out)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (psrc);

  while (g_queue_is_empty (&self->ready)) {
    OctoTime now = gst_util_get_timestamp ();
    guint stats_interval;
    GstStructure *stats = NULL;
    gboolean warn;

    g_mutex_lock (&self->lock);
    OctoTime next = service_peers (self, now);
    GST_OBJECT_LOCK (self);
    stats_interval = self->stats_interval;
    GST_OBJECT_UNLOCK (self);
    if (stats_interval > 0 && now >= self->next_stats) {
      stats = build_stats (self);
      self->next_stats = now + stats_interval * GST_MSECOND;
    }
    g_mutex_unlock (&self->lock);
    if (stats)
      gst_octopus_stats_post (GST_ELEMENT (self), stats);
    if (stats_interval > 0)
      next = MIN (next, self->next_stats);

    switch (wait_socket (self, now, next)) {
      case WAIT_FLUSHING:
        return GST_FLOW_FLUSHING;
      case WAIT_TIMED_OUT:
        continue;               /* service ACKs and timers */
      case WAIT_READABLE:
        break;
    }
    g_mutex_lock (&self->lock);
    receive_batch (self);
    {
      const OctoPeerTableStats *st = octo_peer_table_get_stats (self->peers);
      warn = st->peers_refused + st->peers_evicted > 0 && !self->warned_peers;
    }
    self->warned_peers |= warn;
    g_mutex_unlock (&self->lock);
    /* Outside the lock: a bus handler may read stats. */
    if (warn)
      warn_peers (self);
  }
  *out = g_queue_pop_head (&self->ready);
  return GST_FLOW_OK;
}

static gboolean
gst_octopus_src_start (GstBaseSrc *bsrc)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (bsrc);
  GError *err = NULL;
  GInetAddress *addr;
  GSocketAddress *local, *bound;
  gchar *address;
  gint port, rcvbuf;
  gboolean reuse;
  OctoPeerTableConfig config;

  GST_OBJECT_LOCK (self);
  address = g_strdup (self->address);
  port = self->port;
  reuse = self->reuse;
  rcvbuf = self->buffer_size;
  GST_OBJECT_UNLOCK (self);

  addr = g_inet_address_new_from_string (address);
  if (!addr) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("Invalid address '%s'", address),
        ("address must be a numeric IPv4 or IPv6 address to bind to"));
    g_free (address);
    return FALSE;
  }
  self->socket = g_socket_new (g_inet_address_get_family (addr),
      G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, &err);
  local = g_inet_socket_address_new (addr, port);
  g_object_unref (addr);
  if (!self->socket || !g_socket_bind (self->socket, local, reuse, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
        ("Could not bind UDP port %d on %s: %s", port, address, err->message),
        ("is another receiver (octopussrc, a stale run) using the port? "
            "Stop it, pick another port (port=0 picks a free one) or set "
            "reuse=true to share it"));
    g_clear_error (&err);
    g_object_unref (local);
    g_clear_object (&self->socket);
    g_free (address);
    return FALSE;
  }
  g_object_unref (local);
  g_free (address);
  g_socket_set_blocking (self->socket, FALSE);
  if (setsockopt (g_socket_get_fd (self->socket), SOL_SOCKET, SO_RCVBUF,
          &rcvbuf, sizeof rcvbuf) < 0)
    GST_WARNING_OBJECT (self, "could not set SO_RCVBUF: %s",
        g_strerror (errno));

  bound = g_socket_get_local_address (self->socket, NULL);
  GST_OBJECT_LOCK (self);
  self->bound_port = bound ?
      g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)) : 0;
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->lock);
  peer_table_config (self, &config);
  self->peers = octo_peer_table_new (&config, on_message, self);
  self->system_clock = gst_system_clock_obtain ();
  self->latency_count = self->latency_head = 0;
  self->latency_rejected = 0;
  self->acks_sent = 0;
  self->warned_peers = FALSE;
  self->next_stats = self->next_trim = 0;
  self->held_peak = 0;
  g_mutex_unlock (&self->lock);
  g_clear_object (&bound);
  self->cancellable = g_cancellable_new ();
  GPollFD cancel_poll;
  if (g_cancellable_make_pollfd (self->cancellable, &cancel_poll)) {
    self->cancel_fd = cancel_poll.fd;
  } else {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not create a wake-up file descriptor"),
        ("g_cancellable_make_pollfd failed"));
    return FALSE;
  }
  self->recv_buf = g_malloc ((gsize) RECV_BATCH * OCTO_MTU_MAX);
  for (guint i = 0; i < RECV_BATCH; i++) {
    self->iov[i].iov_base = self->recv_buf + (gsize) i * OCTO_MTU_MAX;
    self->iov[i].iov_len = OCTO_MTU_MAX;
    self->msgs[i].msg_hdr = (struct msghdr) {
      .msg_name = &self->from[i].ss,
      .msg_iov = &self->iov[i],
      .msg_iovlen = 1,
    };
  }
  return TRUE;
}

static gboolean
gst_octopus_src_stop (GstBaseSrc *bsrc)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (bsrc);

  g_queue_clear_full (&self->ready, (GDestroyNotify) gst_buffer_unref);
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->peers, octo_peer_table_free);
  gst_clear_object (&self->system_clock);
  g_mutex_unlock (&self->lock);
  g_clear_object (&self->socket);
  if (self->cancel_fd >= 0)
    g_cancellable_release_fd (self->cancellable);
  self->cancel_fd = -1;
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->recv_buf, g_free);
  return TRUE;
}

static gboolean
gst_octopus_src_unlock (GstBaseSrc *bsrc)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (bsrc);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  return TRUE;
}

static gboolean
gst_octopus_src_unlock_stop (GstBaseSrc *bsrc)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (bsrc);
  /* Keeps the cancellable and its fd: create() is not running. */
  if (self->cancellable)
    g_cancellable_reset (self->cancellable);
  return TRUE;
}

static GstCaps *
gst_octopus_src_get_caps (GstBaseSrc *bsrc, GstCaps *filter)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (bsrc);
  GstCaps *caps;

  GST_OBJECT_LOCK (self);
  /* Without the caps property: Octopus messages, their type unannounced
   * (octopussvcdec and octopuspcdec learn it from the stream). */
  caps = self->caps ? gst_caps_ref (self->caps)
      : gst_caps_new_empty_simple (GST_OCTOPUS_MESSAGES_CAPS);
  GST_OBJECT_UNLOCK (self);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, caps,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = tmp;
  }
  return caps;
}

static void
gst_octopus_src_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ADDRESS:
      g_free (self->address);
      self->address = g_value_dup_string (value);
      break;
    case PROP_PORT:
      self->port = g_value_get_int (value);
      break;
    case PROP_REUSE:
      self->reuse = g_value_get_boolean (value);
      break;
    case PROP_CAPS:
      gst_caps_replace (&self->caps, (GstCaps *) gst_value_get_caps (value));
      break;
    case PROP_BUFFER_SIZE:
      self->buffer_size = g_value_get_int (value);
      break;
    case PROP_MAX_PARTIAL_MESSAGES:
      self->max_partial_messages = g_value_get_uint (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_MAX_PARTIAL_BYTES:
      self->max_partial_bytes = g_value_get_uint64 (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_MAX_TOTAL_PARTIAL_BYTES:
      self->max_total_partial_bytes = g_value_get_uint64 (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_REORDER_WAIT:
      self->reorder_wait = g_value_get_uint (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_RESEND_WAIT:
      self->resend_wait = g_value_get_uint (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_ACK_TIMESTAMPS:
      self->ack_timestamps = g_value_get_boolean (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_ACK_EVERY:
      self->ack_every = g_value_get_uint (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_MAX_PEERS:
      self->max_peers = g_value_get_uint (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_PEER_TIMEOUT:
      self->peer_timeout = g_value_get_uint (value);
      self->peer_config_changed = TRUE;
      break;
    case PROP_STATS_INTERVAL:
      self->stats_interval = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* A decoder downstream lost a reference (octopussvcdec request-keyframe):
 * the senders are asked for a key frame on their next ACKs. */
static gboolean
gst_octopus_src_event (GstBaseSrc *src, GstEvent *event)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (src);

  if (GST_EVENT_TYPE (event) != GST_EVENT_CUSTOM_UPSTREAM
      || !gst_video_event_is_force_key_unit (event))
    return GST_BASE_SRC_CLASS (gst_octopus_src_parent_class)->event (src,
        event);
  g_mutex_lock (&self->lock);
  if (self->peers)
    octo_peer_table_request_keyframe (self->peers, gst_util_get_timestamp ());
  g_mutex_unlock (&self->lock);
  GST_DEBUG_OBJECT (self, "key frame requested downstream");
  return TRUE;
}

static void
gst_octopus_src_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (object);

  if (prop_id == PROP_STATS) {
    g_mutex_lock (&self->lock);
    g_value_take_boxed (value, build_stats (self));
    g_mutex_unlock (&self->lock);
    return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ADDRESS:
      g_value_set_string (value, self->address);
      break;
    case PROP_PORT:
      g_value_set_int (value, self->port);
      break;
    case PROP_REUSE:
      g_value_set_boolean (value, self->reuse);
      break;
    case PROP_BOUND_PORT:
      g_value_set_int (value, self->bound_port);
      break;
    case PROP_CAPS:
      gst_value_set_caps (value, self->caps);
      break;
    case PROP_BUFFER_SIZE:
      g_value_set_int (value, self->buffer_size);
      break;
    case PROP_MAX_PARTIAL_MESSAGES:
      g_value_set_uint (value, self->max_partial_messages);
      break;
    case PROP_MAX_PARTIAL_BYTES:
      g_value_set_uint64 (value, self->max_partial_bytes);
      break;
    case PROP_MAX_TOTAL_PARTIAL_BYTES:
      g_value_set_uint64 (value, self->max_total_partial_bytes);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_REORDER_WAIT:
      g_value_set_uint (value, self->reorder_wait);
      break;
    case PROP_RESEND_WAIT:
      g_value_set_uint (value, self->resend_wait);
      break;
    case PROP_ACK_TIMESTAMPS:
      g_value_set_boolean (value, self->ack_timestamps);
      break;
    case PROP_ACK_EVERY:
      g_value_set_uint (value, self->ack_every);
      break;
    case PROP_MAX_PEERS:
      g_value_set_uint (value, self->max_peers);
      break;
    case PROP_PEER_TIMEOUT:
      g_value_set_uint (value, self->peer_timeout);
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, self->stats_interval);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_src_finalize (GObject *object)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (object);
  g_free (self->address);
  gst_caps_replace (&self->caps, NULL);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_src_class_init (GstOctopusSrcClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_src_set_property;
  gobject_class->get_property = gst_octopus_src_get_property;
  gobject_class->finalize = gst_octopus_src_finalize;

  g_object_class_install_property (gobject_class, PROP_ADDRESS,
      g_param_spec_string ("address", "Address",
          "Local address to bind to", DEFAULT_ADDRESS, rw));
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_int ("port", "Port",
          "UDP port to receive on (0 = pick a free one, see bound-port)", 0,
          65535, DEFAULT_PORT, rw));
  g_object_class_install_property (gobject_class, PROP_REUSE,
      g_param_spec_boolean ("reuse", "Reuse",
          "Share the port with other sockets (SO_REUSEADDR); off, binding a "
          "busy port is an error instead of a receiver that gets nothing",
          DEFAULT_REUSE, rw));
  g_object_class_install_property (gobject_class, PROP_BOUND_PORT,
      g_param_spec_int ("bound-port", "Bound port",
          "The UDP port actually bound (after READY->PAUSED)", 0, 65535, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_CAPS,
      g_param_spec_boxed ("caps", "Caps", "Caps of the received messages "
          "(unset: " GST_OCTOPUS_MESSAGES_CAPS ", whose type octopussvcdec "
          "and octopuspcdec learn from the stream)",
          GST_TYPE_CAPS, rw));
  g_object_class_install_property (gobject_class, PROP_BUFFER_SIZE,
      g_param_spec_int ("buffer-size", "Socket buffer size",
          "Kernel receive buffer in bytes (SO_RCVBUF)", 0, G_MAXINT,
          DEFAULT_BUFFER_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_PARTIAL_MESSAGES,
      g_param_spec_uint ("max-partial-messages", "Max partial messages",
          "Incomplete messages kept per sender; the oldest is given up to "
          "make room", 1, G_MAXUINT32, DEFAULT_MAX_PARTIAL_MESSAGES, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_PARTIAL_BYTES,
      g_param_spec_uint64 ("max-partial-bytes", "Max partial bytes",
          "Bytes of incomplete messages kept per sender (also the largest "
          "message accepted)", 1, G_MAXUINT32, DEFAULT_MAX_PARTIAL_BYTES, rw));
  g_object_class_install_property (gobject_class,
      PROP_MAX_TOTAL_PARTIAL_BYTES, g_param_spec_uint64
      ("max-total-partial-bytes", "Max total partial bytes",
          "Bytes of incomplete messages kept for all senders together (also "
          "caps the largest message); a sender's new message is refused when "
          "the others hold them", 1, G_MAXUINT32,
          DEFAULT_MAX_TOTAL_PARTIAL_BYTES, rw));
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Milliseconds after which an incomplete message is given up", 1,
          G_MAXUINT32, DEFAULT_TIMEOUT, rw));
  g_object_class_install_property (gobject_class, PROP_REORDER_WAIT,
      g_param_spec_uint ("reorder-wait", "Reorder wait",
          "Milliseconds a complete message waits for an older incomplete "
          "message of its stream before overtaking it (which gives that one "
          "up as late): a multipath sender splits messages over paths of "
          "different delays; 0 = never wait (one path keeps the order)", 0,
          1000, DEFAULT_REORDER_WAIT, rw));
  g_object_class_install_property (gobject_class, PROP_RESEND_WAIT,
      g_param_spec_uint ("resend-wait", "Resend wait",
          "Milliseconds a complete message waits for an older incomplete "
          "message whose sender resends its lost packets (octopussink "
          "resend-keyframes), if longer than reorder-wait", 0, 1000,
          DEFAULT_RESEND_WAIT, rw));
  g_object_class_install_property (gobject_class, PROP_ACK_TIMESTAMPS,
      g_param_spec_boolean ("ack-timestamps", "ACK timestamps",
          "Stamp every ACK with the newest packet's arrival time, so the "
          "sender measures delivery rates on this clock rather than by when "
          "its ACKs came back (a stalled up link would stretch them); off "
          "only for a sender older than the stamp, which rejects such ACKs",
          DEFAULT_ACK_TIMESTAMPS, rw));
  g_object_class_install_property (gobject_class, PROP_ACK_EVERY,
      g_param_spec_uint ("ack-every", "ACK every",
          "Acknowledge after this many packets (or 1 ms)", 1, 64,
          DEFAULT_ACK_EVERY, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_PEERS,
      g_param_spec_uint ("max-peers", "Max peers",
          "Senders served at once; when full, a sender that never completed "
          "a message or one idle for a second makes room, else packets from "
          "new senders are ignored", 1, 4096, DEFAULT_MAX_PEERS, rw));
  g_object_class_install_property (gobject_class, PROP_PEER_TIMEOUT,
      g_param_spec_uint ("peer-timeout", "Peer timeout",
          "Milliseconds without packets after which a sender is forgotten", 1,
          G_MAXUINT32, DEFAULT_PEER_TIMEOUT, rw));
  g_object_class_install_property (gobject_class, PROP_STATS_INTERVAL,
      g_param_spec_uint ("stats-interval", "Stats interval",
          "Milliseconds between stats element messages on the bus (0 = none)",
          0, G_MAXUINT, DEFAULT_STATS_INTERVAL, rw));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets, messages delivered and given up (late, timed out, "
          "evicted, refused), senders refused, evicted and expired, ACKs and "
          "message latency p50/p99 in ns (samples below 0 or above 60 s are "
          "rejected and counted)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "Octopus source",
      "Source/Network",
      "Receives Octopus messages over UDP, one buffer per message",
      GST_OCTOPUS_AUTHORS);

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_octopus_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_src_stop);
  bsrc_class->unlock = GST_DEBUG_FUNCPTR (gst_octopus_src_unlock);
  bsrc_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_octopus_src_unlock_stop);
  bsrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_octopus_src_get_caps);
  bsrc_class->event = GST_DEBUG_FUNCPTR (gst_octopus_src_event);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_octopus_src_create);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_src_debug, "octopussrc", 0,
      "Octopus transport receiver");
}

static void
gst_octopus_src_init (GstOctopusSrc *self)
{
  self->address = g_strdup (DEFAULT_ADDRESS);
  self->port = DEFAULT_PORT;
  self->reuse = DEFAULT_REUSE;
  self->buffer_size = DEFAULT_BUFFER_SIZE;
  self->max_partial_messages = DEFAULT_MAX_PARTIAL_MESSAGES;
  self->max_partial_bytes = DEFAULT_MAX_PARTIAL_BYTES;
  self->max_total_partial_bytes = DEFAULT_MAX_TOTAL_PARTIAL_BYTES;
  self->timeout = DEFAULT_TIMEOUT;
  self->reorder_wait = DEFAULT_REORDER_WAIT;
  self->resend_wait = DEFAULT_RESEND_WAIT;
  self->ack_timestamps = DEFAULT_ACK_TIMESTAMPS;
  self->ack_every = DEFAULT_ACK_EVERY;
  self->max_peers = DEFAULT_MAX_PEERS;
  self->peer_timeout = DEFAULT_PEER_TIMEOUT;
  self->stats_interval = DEFAULT_STATS_INTERVAL;
  self->cancel_fd = -1;
  g_queue_init (&self->ready);
  g_mutex_init (&self->lock);
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
  gst_base_src_set_do_timestamp (GST_BASE_SRC (self), TRUE);
}
