/* octopussrc: the Octopus transport's receiver as a GStreamer source.
 *
 * Binds a UDP port, reassembles messages (OctoReceiver: bounded memory,
 * in-order-without-waiting delivery) and pushes each complete message at
 * once as one buffer carrying the GstOctopusMeta restored from the header.
 * ACKs go back to each sender from the same socket.  Senders are kept
 * apart by address and port, each with its own reassembly state.
 *
 * Stats (property and periodic element message) include message latency
 * p50/p99: delivery time minus the sender's capture time, meaningful when
 * both run on one host (the default GStreamer clock is CLOCK_MONOTONIC). */
#include "gstoctopussrc.h"

#include <errno.h>
#include <gio/gio.h>
#include <sys/socket.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "gstoctopusstats.h"
#include "octo-metrics.h"
#include "transport/octo-receiver.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_src_debug);
#define GST_CAT_DEFAULT gst_octopus_src_debug

enum {
  PROP_0,
  PROP_ADDRESS,
  PROP_PORT,
  PROP_BOUND_PORT,
  PROP_CAPS,
  PROP_BUFFER_SIZE,
  PROP_MAX_PARTIAL_MESSAGES,
  PROP_MAX_PARTIAL_BYTES,
  PROP_TIMEOUT,
  PROP_ACK_EVERY,
  PROP_MAX_PEERS,
  PROP_STATS_INTERVAL,
  PROP_STATS,
};

#define DEFAULT_ADDRESS "0.0.0.0"
#define DEFAULT_PORT 5004
#define DEFAULT_BUFFER_SIZE (4 * 1024 * 1024)
#define DEFAULT_MAX_PARTIAL_MESSAGES OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_MESSAGES
#define DEFAULT_MAX_PARTIAL_BYTES OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_BYTES
#define DEFAULT_TIMEOUT (OCTO_RECEIVER_DEFAULT_TIMEOUT / GST_MSECOND)
#define DEFAULT_ACK_EVERY OCTO_ACKER_DEFAULT_EVERY
#define DEFAULT_MAX_PEERS 16
#define DEFAULT_STATS_INTERVAL 1000

/* Latency samples kept for the percentiles. */
#define LATENCY_WINDOW 4096
/* Datagrams drained per wake-up before checking ACKs and timers. */
#define RECV_BATCH 64

typedef struct {
  GSocketAddress *address;
  OctoReceiver *receiver;
  GstOctopusSrc *src;
} Peer;

struct _GstOctopusSrc {
  GstPushSrc parent;

  /* properties (object lock) */
  gchar *address;
  gint port;
  gint bound_port;
  GstCaps *caps;
  gint buffer_size;
  guint max_partial_messages;
  guint64 max_partial_bytes;
  guint timeout;
  guint ack_every;
  guint max_peers;
  guint stats_interval;

  /* streaming thread; @lock guards what stats readers see */
  GMutex lock;
  GSocket *socket;
  GCancellable *cancellable;
  GHashTable *peers;            /* "addr:port" -> Peer */
  GQueue ready;                 /* GstBuffer, complete messages */
  guint8 *recv_buf;
  OctoTime next_stats;
  guint64 acks_sent, peers_refused, packets_control;
  OctoTime latency[LATENCY_WINDOW];
  guint latency_count, latency_head;
};

#define gst_octopus_src_parent_class parent_class
G_DEFINE_TYPE (GstOctopusSrc, gst_octopus_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE (octopussrc, "octopussrc", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static void
peer_free (Peer *peer)
{
  g_object_unref (peer->address);
  octo_receiver_free (peer->receiver);
  g_free (peer);
}

static void
on_message (OctoMessage *msg, gpointer user_data)
{
  Peer *peer = user_data;
  GstOctopusSrc *self = peer->src;
  GstBuffer *buf;
  GstOctopusMeta *m;
  GstClock *clock = gst_system_clock_obtain ();
  GstClockTime now = gst_clock_get_time (clock);

  gst_object_unref (clock);
  if (msg->len > 0) {
    buf = gst_buffer_new_wrapped (msg->data, msg->len);
  } else {
    /* An empty message is still a message: a buffer without memory. */
    buf = gst_buffer_new ();
    g_free (msg->data);
  }
  m = gst_buffer_add_octopus_meta (buf);
  gst_octopus_meta_from_core (m, &msg->header, &msg->info);
  if (!m->keyframe)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);

  /* Called from octo_receiver_on_packet with self->lock held. */
  if (msg->info.capture_time != OCTO_TIME_NONE &&
      now >= msg->info.capture_time) {
    self->latency[self->latency_head] = now - msg->info.capture_time;
    self->latency_head = (self->latency_head + 1) % LATENCY_WINDOW;
    self->latency_count = MIN (self->latency_count + 1, LATENCY_WINDOW);
  }
  g_queue_push_tail (&self->ready, buf);
}

/* Called with self->lock held. */
static GstStructure *
build_stats (GstOctopusSrc *self)
{
  OctoReceiverStats sum = { 0 };
  GHashTableIter iter;
  gpointer value;
  guint64 invalid = 0, p50 = 0, p99 = 0;

  if (self->peers) {
    g_hash_table_iter_init (&iter, self->peers);
    while (g_hash_table_iter_next (&iter, NULL, &value)) {
      const OctoReceiverStats *st =
          octo_receiver_get_stats (((Peer *) value)->receiver);
      sum.packets_received += st->packets_received;
      sum.bytes_received += st->bytes_received;
      for (guint i = 0; i < OCTO_DATA_N_RESULTS; i++)
        invalid += st->packets_invalid[i];
      sum.packets_duplicate += st->packets_duplicate;
      sum.packets_late += st->packets_late;
      sum.padding_packets += st->padding_packets;
      sum.messages_delivered += st->messages_delivered;
      sum.bytes_delivered += st->bytes_delivered;
      sum.messages_late += st->messages_late;
      sum.messages_timed_out += st->messages_timed_out;
      sum.messages_evicted += st->messages_evicted;
      sum.messages_too_large += st->messages_too_large;
      sum.messages_inconsistent += st->messages_inconsistent;
      sum.partial_messages += st->partial_messages;
      sum.partial_bytes += st->partial_bytes;
    }
  }
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
      "peers", G_TYPE_UINT, self->peers ? g_hash_table_size (self->peers) : 0,
      "peers-refused", G_TYPE_UINT64, self->peers_refused,
      "packets-received", G_TYPE_UINT64, sum.packets_received,
      "bytes-received", G_TYPE_UINT64, sum.bytes_received,
      "packets-invalid", G_TYPE_UINT64, invalid,
      "packets-control", G_TYPE_UINT64, self->packets_control,
      "packets-duplicate", G_TYPE_UINT64, sum.packets_duplicate,
      "packets-late", G_TYPE_UINT64, sum.packets_late,
      "packets-padding", G_TYPE_UINT64, sum.padding_packets,
      "messages-delivered", G_TYPE_UINT64, sum.messages_delivered,
      "bytes-delivered", G_TYPE_UINT64, sum.bytes_delivered,
      "messages-late", G_TYPE_UINT64, sum.messages_late,
      "messages-timed-out", G_TYPE_UINT64, sum.messages_timed_out,
      "messages-evicted", G_TYPE_UINT64, sum.messages_evicted,
      "messages-too-large", G_TYPE_UINT64, sum.messages_too_large,
      "messages-inconsistent", G_TYPE_UINT64, sum.messages_inconsistent,
      "partial-messages", G_TYPE_UINT, sum.partial_messages,
      "partial-bytes", G_TYPE_UINT64, sum.partial_bytes,
      "acks-sent", G_TYPE_UINT64, self->acks_sent,
      "latency-p50", G_TYPE_UINT64, p50,
      "latency-p99", G_TYPE_UINT64, p99, NULL);
}

static Peer *
lookup_peer (GstOctopusSrc *self, GSocketAddress *from)
{
  GInetSocketAddress *isa = G_INET_SOCKET_ADDRESS (from);
  gchar *addr = g_inet_address_to_string (g_inet_socket_address_get_address
      (isa));
  gchar *key = g_strdup_printf ("%s:%u", addr,
      g_inet_socket_address_get_port (isa));
  Peer *peer;

  g_free (addr);
  peer = g_hash_table_lookup (self->peers, key);
  if (peer) {
    g_free (key);
    return peer;
  }
  OctoReceiverConfig config;
  guint max_peers;
  octo_receiver_config_init (&config);
  GST_OBJECT_LOCK (self);
  config.max_partial_messages = self->max_partial_messages;
  config.max_partial_bytes = self->max_partial_bytes;
  config.timeout = self->timeout * GST_MSECOND;
  config.ack_every = self->ack_every;
  max_peers = self->max_peers;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&self->lock);
  if (g_hash_table_size (self->peers) >= max_peers) {
    self->peers_refused++;
    g_mutex_unlock (&self->lock);
    g_free (key);
    return NULL;
  }
  peer = g_new0 (Peer, 1);
  peer->address = g_object_ref (from);
  peer->src = self;
  peer->receiver = octo_receiver_new (&config, on_message, peer);
  g_hash_table_insert (self->peers, key, peer);
  g_mutex_unlock (&self->lock);
  GST_INFO_OBJECT (self, "new sender %s", key);
  return peer;
}

/* Sends due ACKs, runs timers; returns the earliest next deadline. */
static OctoTime
service_peers (GstOctopusSrc *self, OctoTime now)
{
  GHashTableIter iter;
  gpointer value;
  OctoTime next = OCTO_TIME_NONE;
  guint8 ack[OCTO_ACK_MAX_LEN];

  g_hash_table_iter_init (&iter, self->peers);
  while (g_hash_table_iter_next (&iter, NULL, &value)) {
    Peer *peer = value;
    gsize len;

    g_mutex_lock (&self->lock);
    octo_receiver_on_timer (peer->receiver, now);
    len = octo_receiver_poll_ack (peer->receiver, now, ack);
    if (len > 0)
      self->acks_sent++;
    next = MIN (next, octo_receiver_next_deadline (peer->receiver));
    g_mutex_unlock (&self->lock);
    if (len > 0)
      g_socket_send_to (self->socket, peer->address, (const gchar *) ack, len,
          NULL, NULL);
  }
  return next;
}

static GstFlowReturn
gst_octopus_src_create (GstPushSrc *psrc, GstBuffer **out)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (psrc);
  GError *err = NULL;

  while (g_queue_is_empty (&self->ready)) {
    OctoTime now = gst_util_get_timestamp ();
    OctoTime next = service_peers (self, now);
    guint stats_interval;

    GST_OBJECT_LOCK (self);
    stats_interval = self->stats_interval;
    GST_OBJECT_UNLOCK (self);
    GstStructure *stats = NULL;
    if (stats_interval > 0 && now >= self->next_stats) {
      g_mutex_lock (&self->lock);
      stats = build_stats (self);
      g_mutex_unlock (&self->lock);
      self->next_stats = now + stats_interval * GST_MSECOND;
    }
    if (stats)
      gst_octopus_stats_post (GST_ELEMENT (self), stats);
    if (stats_interval > 0)
      next = MIN (next, self->next_stats);

    gint64 timeout_us = next == OCTO_TIME_NONE ? -1 :
        (gint64) ((next > now ? next - now : 0) / GST_USECOND);
    if (!g_socket_condition_timed_wait (self->socket, G_IO_IN, timeout_us,
            self->cancellable, &err)) {
      if (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        g_clear_error (&err);
        return GST_FLOW_FLUSHING;
      }
      g_clear_error (&err);     /* timed out: service ACKs and timers */
      continue;
    }

    for (guint i = 0; i < RECV_BATCH; i++) {
      GSocketAddress *from = NULL;
      gssize n = g_socket_receive_from (self->socket, &from,
          (gchar *) self->recv_buf, OCTO_MTU_MAX, NULL, &err);
      if (n < 0) {
        gboolean would_block = g_error_matches (err, G_IO_ERROR,
            G_IO_ERROR_WOULD_BLOCK);
        if (!would_block)
          GST_DEBUG_OBJECT (self, "receive failed: %s", err->message);
        g_clear_error (&err);
        break;
      }
      if (octo_packet_is_control (self->recv_buf, n)) {
        g_mutex_lock (&self->lock);
        self->packets_control++;
        g_mutex_unlock (&self->lock);
      } else {
        Peer *peer = lookup_peer (self, from);
        if (peer) {
          g_mutex_lock (&self->lock);
          OctoDataParseResult res = octo_receiver_on_packet (peer->receiver,
              self->recv_buf, n, gst_util_get_timestamp ());
          g_mutex_unlock (&self->lock);
          if (res != OCTO_DATA_OK)
            GST_LOG_OBJECT (self, "ignored a %" G_GSSIZE_FORMAT "-byte "
                "datagram: %s", n, octo_data_parse_result_to_string (res));
        }
      }
      g_object_unref (from);
    }
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

  GST_OBJECT_LOCK (self);
  address = g_strdup (self->address);
  port = self->port;
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
  if (!self->socket || !g_socket_bind (self->socket, local, TRUE, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
        ("Could not bind UDP port %d on %s", port, address),
        ("%s (is another receiver using the port?)", err->message));
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
  self->peers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) peer_free);
  self->latency_count = self->latency_head = 0;
  self->acks_sent = self->peers_refused = self->packets_control = 0;
  self->next_stats = 0;
  g_mutex_unlock (&self->lock);
  g_clear_object (&bound);
  self->cancellable = g_cancellable_new ();
  self->recv_buf = g_malloc (OCTO_MTU_MAX);
  return TRUE;
}

static gboolean
gst_octopus_src_stop (GstBaseSrc *bsrc)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (bsrc);

  g_queue_clear_full (&self->ready, (GDestroyNotify) gst_buffer_unref);
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->peers, g_hash_table_unref);
  g_mutex_unlock (&self->lock);
  g_clear_object (&self->socket);
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
  if (self->cancellable) {
    g_object_unref (self->cancellable);
    self->cancellable = g_cancellable_new ();
  }
  return TRUE;
}

static GstCaps *
gst_octopus_src_get_caps (GstBaseSrc *bsrc, GstCaps *filter)
{
  GstOctopusSrc *self = GST_OCTOPUS_SRC (bsrc);
  GstCaps *caps;

  GST_OBJECT_LOCK (self);
  caps = self->caps ? gst_caps_ref (self->caps) : gst_caps_new_any ();
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
    case PROP_CAPS:
      gst_caps_replace (&self->caps, (GstCaps *) gst_value_get_caps (value));
      break;
    case PROP_BUFFER_SIZE:
      self->buffer_size = g_value_get_int (value);
      break;
    case PROP_MAX_PARTIAL_MESSAGES:
      self->max_partial_messages = g_value_get_uint (value);
      break;
    case PROP_MAX_PARTIAL_BYTES:
      self->max_partial_bytes = g_value_get_uint64 (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_ACK_EVERY:
      self->ack_every = g_value_get_uint (value);
      break;
    case PROP_MAX_PEERS:
      self->max_peers = g_value_get_uint (value);
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
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_ACK_EVERY:
      g_value_set_uint (value, self->ack_every);
      break;
    case PROP_MAX_PEERS:
      g_value_set_uint (value, self->max_peers);
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
  g_object_class_install_property (gobject_class, PROP_BOUND_PORT,
      g_param_spec_int ("bound-port", "Bound port",
          "The UDP port actually bound (after READY->PAUSED)", 0, 65535, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_CAPS,
      g_param_spec_boxed ("caps", "Caps", "Caps of the received messages",
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
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Milliseconds after which an incomplete message is given up", 1,
          G_MAXUINT32, DEFAULT_TIMEOUT, rw));
  g_object_class_install_property (gobject_class, PROP_ACK_EVERY,
      g_param_spec_uint ("ack-every", "ACK every",
          "Acknowledge after this many packets (or 1 ms)", 1, 64,
          DEFAULT_ACK_EVERY, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_PEERS,
      g_param_spec_uint ("max-peers", "Max peers",
          "Senders served at once; packets from more are ignored", 1, 4096,
          DEFAULT_MAX_PEERS, rw));
  g_object_class_install_property (gobject_class, PROP_STATS_INTERVAL,
      g_param_spec_uint ("stats-interval", "Stats interval",
          "Milliseconds between stats element messages on the bus (0 = none)",
          0, G_MAXUINT, DEFAULT_STATS_INTERVAL, rw));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets, messages delivered and given up (late, timed out, "
          "evicted), ACKs and message latency p50/p99 in ns",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "Octopus source",
      "Source/Network",
      "Receives Octopus messages over UDP, one buffer per message",
      "gst-octopus");

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_octopus_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_src_stop);
  bsrc_class->unlock = GST_DEBUG_FUNCPTR (gst_octopus_src_unlock);
  bsrc_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_octopus_src_unlock_stop);
  bsrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_octopus_src_get_caps);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_octopus_src_create);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_src_debug, "octopussrc", 0,
      "Octopus transport receiver");
}

static void
gst_octopus_src_init (GstOctopusSrc *self)
{
  self->address = g_strdup (DEFAULT_ADDRESS);
  self->port = DEFAULT_PORT;
  self->buffer_size = DEFAULT_BUFFER_SIZE;
  self->max_partial_messages = DEFAULT_MAX_PARTIAL_MESSAGES;
  self->max_partial_bytes = DEFAULT_MAX_PARTIAL_BYTES;
  self->timeout = DEFAULT_TIMEOUT;
  self->ack_every = DEFAULT_ACK_EVERY;
  self->max_peers = DEFAULT_MAX_PEERS;
  self->stats_interval = DEFAULT_STATS_INTERVAL;
  g_queue_init (&self->ready);
  g_mutex_init (&self->lock);
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
  gst_base_src_set_do_timestamp (GST_BASE_SRC (self), TRUE);
}
