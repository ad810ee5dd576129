/* octopussink: the Octopus transport's sender as a GStreamer sink.
 *
 * One buffer is one message.  render() only packetizes the message into the
 * send buffer (an OctoEngine governed by the dropping rules, with BBR's
 * bottleneck estimate as its bandwidth) and returns; a separate thread
 * paces packets out as BBR/Delay-BBR allows and processes the receiver's
 * ACKs.  A source faster than the path therefore fills the send buffer and
 * the rules decide what is dropped, instead of upstream being blocked.
 *
 * The rate an encoder should aim at (the core's application rate: the
 * bandwidth estimate, or less while the path holds a standing queue;
 * octo-send-path.h) is readable (property "estimated-bitrate", notified on
 * every change of more than 5 %) and sent upstream as a custom event
 * (gst_octopus_event_new_bandwidth) so encoders can re-choose their rate;
 * the send buffer's rules keep the estimate itself (stats "bandwidth").
 * Stats go to the "stats" property and a periodic element message.
 * A key frame is asked for upstream (a force-key-unit event) when the
 * receiver's ACKs ask for one, and once per outage of the path
 * ("outage-restart", as octopusrtpsender does).
 * The properties both senders have are octopusrtpsender's
 * (gstoctopussenderprops.h); "bandwidth" and "max-rate" are their
 * deprecated former names.
 *
 * qualitative=layered|equal sends messages as QUCO qualitative packets
 * (octo-qpacket.h, docs/quco-chunks.md): layered gathers a frame's layers
 * (one buffer each, as octopussvcenc emits them; the frame ends at the
 * buffer flagged MARKER or when the next buffer does not continue it) into
 * one message whose every packet carries a slice of each layer, base
 * layer first; equal cuts each buffer into equal stripes.
 *
 * Multipath: "paths" lists several [LOCAL@]HOST:PORT; the element opens
 * one UDP socket per path (bound to LOCAL if given, so that the path
 * leaves by that interface) and the core (octo-sender.h over
 * octo-mp-session.h) decides which path each packet takes ("scheduler"),
 * per path with its own controller and pacer.  The element only sends each
 * datagram on the socket of the path the core names and feeds each
 * socket's ACKs back as that path's.  A path going down or coming back up
 * posts an element message "octopus-path" (path, remote, up, downs). */
#include "gstoctopussink.h"

#include <errno.h>
#include <gio/gio.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gst/octopus/gstoctopusmeta.h"
#include <gst/video/video.h>
#include "gstoctopussenderprops.h"
#include "gstoctopusstats.h"
#include "transport/octo-sender.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_sink_debug);
#define GST_CAT_DEFAULT gst_octopus_sink_debug

enum {
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_BIND_PORT,
  PROP_MTU,
  PROP_CONGESTION_CONTROL,
  PROP_MAX_BITRATE,
  PROP_BUFFER_SIZE,
  PROP_RULES,
  PROP_PROBE,
  PROP_PROBE_CEILING,
  PROP_STATS_INTERVAL,
  PROP_QUALITATIVE,
  PROP_ESTIMATED_BITRATE,
  PROP_STATS,
  PROP_MAX_RATE,
  PROP_BANDWIDTH,
  PROP_PATHS,
  PROP_SCHEDULER,
  PROP_OUTAGE_RESTART,
  PROP_RESEND_KEYFRAMES,
};

#define DEFAULT_HOST "127.0.0.1"
#define DEFAULT_PORT 5004
#define DEFAULT_BIND_PORT 0
#define DEFAULT_MTU OCTO_SENDER_DEFAULT_MTU
#define DEFAULT_PROBE TRUE
#define DEFAULT_PROBE_CEILING 0
#define DEFAULT_QUALITATIVE GST_OCTOPUS_QUALITATIVE_OFF

typedef enum {
  GST_OCTOPUS_QUALITATIVE_OFF = 0,
  GST_OCTOPUS_QUALITATIVE_LAYERED,
  GST_OCTOPUS_QUALITATIVE_EQUAL,
} GstOctopusQualitative;

#define GST_TYPE_OCTOPUS_QUALITATIVE (gst_octopus_qualitative_get_type ())
static GType
gst_octopus_qualitative_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_OCTOPUS_QUALITATIVE_OFF, "Ordinary packets", "off"},
    {GST_OCTOPUS_QUALITATIVE_LAYERED,
        "One message per frame, every packet a slice of each layer, base "
          "layer first: a trimmed packet costs top-layer bytes only",
        "layered"},
    {GST_OCTOPUS_QUALITATIVE_EQUAL,
        "Each message in equal stripes: a trimmed packet loses the message",
        "equal"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstOctopusQualitative", values);
    g_once_init_leave (&type, t);
  }
  return type;
}
#define DEFAULT_PATHS NULL
#define DEFAULT_SCHEDULER "min-cost"
#define DEFAULT_RESEND_KEYFRAMES FALSE

/* EOS waits for the send buffer to drain, but not forever (no receiver). */
#define EOS_DRAIN_TIMEOUT (5 * GST_SECOND)

/* No ACK this long after the first packet: warn that nobody answers (a
 * receiver ACKs every packet, so even a long RTT is far below this). */
#define NO_ACK_WARNING_DELAY (3 * GST_SECOND)

struct _GstOctopusSink {
  GstBaseSink parent;

  /* properties (object lock) */
  gchar *host;
  gint port;
  gint bind_port;
  guint mtu;
  GstOctopusCongestionControl cc;
  guint64 max_rate;
  guint64 buffer_size;
  gboolean rules;
  gboolean probe;
  guint64 probe_ceiling;
  guint stats_interval;
  guint outage_restart;         /* ms; 0 = never */
  GstOctopusQualitative qualitative;

  /* streaming thread: the frame being gathered (qualitative=layered) */
  GstOctopusQualitative qualitative_mode;       /* in force since start() */
  OctoQFrame frame;
  gchar *paths;
  gchar *scheduler;
  gboolean resend_keyframes;

  /* transport state (lock) */
  GMutex lock;
  GCond drained;
  OctoSender *sender;
  gboolean running;
  gboolean flushing;
  guint64 bandwidth;            /* estimate last notified */
  guint64 buffer_bytes;         /* buffer-size in force since start() */
  gboolean warned_too_large;
  gchar *peer;                  /* "host:port[,host:port...]", for warnings */
  guint64 connection_refused;   /* ICMP port unreachable, as errno tells */
  gboolean warned_refused, warned_no_ack;
  OctoTime first_send;          /* OCTO_TIME_NONE before the first packet */

  GSocket *sockets[OCTO_SCHED_MAX_PATHS];     /* one per path */
  gchar *remotes[OCTO_SCHED_MAX_PATHS + 1];     /* each path's "host:port";
                                                 * NULL-terminated */
  guint n_paths;
  gboolean path_up[OCTO_SCHED_MAX_PATHS];      /* as last announced */
  gint wake_fd;
  GThread *thread;
};

#define gst_octopus_sink_parent_class parent_class
G_DEFINE_TYPE (GstOctopusSink, gst_octopus_sink, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (octopussink, "octopussink", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_SINK);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static GParamSpec *estimated_bitrate_pspec, *bandwidth_pspec;

static inline OctoTime
now_ns (void)
{
  return gst_util_get_timestamp ();
}

/* Multipath: the session's counters and a "paths" array, one structure
 * per path in the order of the "paths" property. */
static void
add_path_stats (GstOctopusSink *self, GstStructure *s,
    const OctoSenderStats *st)
{
  GValue array = G_VALUE_INIT, v = G_VALUE_INIT;

  gst_structure_set (s,
      "scheduler", G_TYPE_STRING, st->scheduler,
      "messages-committed", G_TYPE_UINT64, st->mp.messages_committed,
      "packets-expired", G_TYPE_UINT64, st->mp.packets_expired,
      "packets-superseded", G_TYPE_UINT64, st->mp.packets_superseded,
      "packets-resent", G_TYPE_UINT64, st->mp.packets_resent, NULL);
  gst_value_array_init (&array, self->n_paths);
  g_value_init (&v, GST_TYPE_STRUCTURE);
  for (guint i = 0; i < self->n_paths; i++) {
    OctoSenderPathStats ps;

    octo_sender_path_stats (self->sender, i, &ps);
    g_value_take_boxed (&v, gst_structure_new ("application/x-octopus-path-stats",
            "remote", G_TYPE_STRING, self->remotes[i],
            "up", G_TYPE_BOOLEAN, ps.mp.up,
            "downs", G_TYPE_UINT64, ps.mp.downs,
            "pacing-rate", G_TYPE_UINT64, ps.pacing_rate,
            "bandwidth", G_TYPE_UINT64, ps.bandwidth,
            "min-rtt", G_TYPE_UINT64, (guint64) ps.min_rtt,
            "srtt", G_TYPE_UINT64, (guint64) ps.srtt,
            "cwnd", G_TYPE_UINT64, ps.cwnd,
            "inflight", G_TYPE_UINT64, ps.inflight,
            "queued-bytes", G_TYPE_UINT64, ps.mp.queued_bytes,
            "mode", G_TYPE_STRING, ps.state,
            "packets-sent", G_TYPE_UINT64, ps.mp.packets_sent,
            "bytes-sent", G_TYPE_UINT64, ps.mp.bytes_sent,
            "packets-acked", G_TYPE_UINT64, ps.mp.packets_acked,
            "packets-lost", G_TYPE_UINT64, ps.flight->packets_lost,
            "packets-rescheduled", G_TYPE_UINT64, ps.mp.packets_rescheduled,
            NULL));
    gst_value_array_append_value (&array, &v);
  }
  g_value_unset (&v);
  gst_structure_take_value (s, "paths", &array);
}

static GstStructure *
build_stats (GstOctopusSink *self)
{
  OctoSenderStats st;
  GstStructure *s;

  if (!self->sender)
    return gst_structure_new_empty ("application/x-octopus-sink-stats");
  octo_sender_get_stats (self->sender, &st);
  s = gst_octopus_stats_new_sender ("application/x-octopus-sink-stats",
      &st.session);
  gst_structure_set (s,
      "messages-submitted", G_TYPE_UINT64, st.messages_submitted,
      "messages-rejected", G_TYPE_UINT64, st.messages_rejected,
      "acks-received", G_TYPE_UINT64, st.acks_received,
      "acks-invalid", G_TYPE_UINT64, st.acks_invalid,
      "acks-foreign", G_TYPE_UINT64, st.acks_foreign,
      "acks-unsent", G_TYPE_UINT64, st.acks_unsent,
      "nacks-received", G_TYPE_UINT64, st.nacks_received,
      "layers-cut", G_TYPE_UINT64, st.layers_cut,
      "keyframe-requests", G_TYPE_UINT64, st.keyframe_requests,
      "padding-packets", G_TYPE_UINT64, st.padding_packets,
      "padding-bytes", G_TYPE_UINT64, st.padding_bytes,
      "connection-refused", G_TYPE_UINT64, self->connection_refused, NULL);
  if (octo_sender_n_paths (self->sender) > 1)
    add_path_stats (self, s, &st);
  return s;
}

/* Called with the lock held; returns TRUE if upstream should hear of it. */
static gboolean
bandwidth_changed (GstOctopusSink *self)
{
  guint64 bw = octo_sender_app_rate (self->sender);

  if (!octo_send_bandwidth_changed_enough (self->bandwidth, bw))
    return FALSE;
  self->bandwidth = bw;
  return TRUE;
}

static void
announce_bandwidth (GstOctopusSink *self, guint64 bw)
{
  GST_DEBUG_OBJECT (self, "bandwidth estimate %" G_GUINT64_FORMAT " bit/s", bw);
  g_object_notify_by_pspec (G_OBJECT (self), estimated_bitrate_pspec);
  g_object_notify_by_pspec (G_OBJECT (self), bandwidth_pspec);
  gst_pad_push_event (GST_BASE_SINK_PAD (self),
      gst_octopus_event_new_bandwidth (bw));
}

/* Returns whether the socket reported that nobody listens at the peer (a
 * connected UDP socket hands the ICMP error to the next recv or send). */
static gboolean
receive_acks (GstOctopusSink *self, guint path, OctoTime now)
{
  gint fd = g_socket_get_fd (self->sockets[path]);
  guint8 buf[OCTO_ACK_MAX_LEN + 1];
  ssize_t n;

  while ((n = recv (fd, buf, sizeof buf, MSG_DONTWAIT)) >= 0)
    octo_sender_on_path_control (self->sender, path, buf, n, now);
  return errno == ECONNREFUSED;
}

/* Called with the lock held: which of the two warnings to post now (each
 * at most once per run). */
static void
check_receiver (GstOctopusSink *self, gboolean refused, OctoTime now,
    gboolean *warn_refused, gboolean *warn_no_ack)
{
  OctoSenderStats st;

  if (refused) {
    self->connection_refused++;
    *warn_refused = !self->warned_refused;
    self->warned_refused = TRUE;
  }
  if (self->warned_no_ack || self->first_send == OCTO_TIME_NONE
      || now < self->first_send + NO_ACK_WARNING_DELAY)
    return;
  octo_sender_get_stats (self->sender, &st);
  *warn_no_ack = st.acks_received == 0;
  self->warned_no_ack = TRUE;   /* settled either way */
}

/* Called with the lock held: an "octopus-path" structure for each path
 * whose state changed since the last call, appended to @changes. */
static void
path_changes (GstOctopusSink *self, GPtrArray *changes)
{
  if (octo_sender_n_paths (self->sender) < 2)
    return;
  for (guint i = 0; i < self->n_paths; i++) {
    OctoSenderPathStats ps;

    octo_sender_path_stats (self->sender, i, &ps);
    if (ps.mp.up == self->path_up[i])
      continue;
    self->path_up[i] = ps.mp.up;
    g_ptr_array_add (changes, gst_structure_new ("octopus-path",
            "path", G_TYPE_UINT, i,
            "remote", G_TYPE_STRING, self->remotes[i],
            "up", G_TYPE_BOOLEAN, ps.mp.up,
            "downs", G_TYPE_UINT64, ps.mp.downs, NULL));
  }
}

static gpointer
send_loop (gpointer user_data)
{
  GstOctopusSink *self = user_data;
  guint8 *pkt = g_malloc (self->mtu);
  struct pollfd fds[OCTO_SCHED_MAX_PATHS + 1];
  GPtrArray *changes = g_ptr_array_new ();
  OctoTime next_stats = now_ns ();
  guint stats_interval;

  GST_OBJECT_LOCK (self);
  stats_interval = self->stats_interval;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&self->lock);
  while (self->running) {
    OctoTime now = now_ns (), wake = OCTO_TIME_NONE;
    gsize len;
    guint path;
    gboolean announce, keyframe, restart, refused = FALSE,
        warn_refused = FALSE, warn_no_ack = FALSE;

    for (guint i = 0; i < self->n_paths; i++)
      refused |= receive_acks (self, i, now);
    while ((len = octo_sender_poll_path (self->sender, now, pkt, &path,
                &wake)) > 0) {
      if (self->first_send == OCTO_TIME_NONE)
        self->first_send = now;
      g_mutex_unlock (&self->lock);
      /* A full socket buffer or an ICMP error loses the packet, like a
       * network drop would; the transport never retransmits. */
      if (send (g_socket_get_fd (self->sockets[path]), pkt, len,
              MSG_DONTWAIT) < 0) {
        if (errno == ECONNREFUSED)
          refused = TRUE;
        else if (errno != EAGAIN)
          GST_LOG_OBJECT (self, "send failed: %s", g_strerror (errno));
      }
      g_mutex_lock (&self->lock);
      now = now_ns ();
    }
    check_receiver (self, refused, now, &warn_refused, &warn_no_ack);
    if (octo_sender_queued_packets (self->sender) == 0)
      g_cond_broadcast (&self->drained);

    announce = bandwidth_changed (self);
    keyframe = octo_sender_take_keyframe_request (self->sender);
    restart = octo_sender_take_restart (self->sender, now);
    path_changes (self, changes);
    GstStructure *stats = NULL;
    if (stats_interval > 0 && now >= next_stats) {
      stats = build_stats (self);
      next_stats = now + stats_interval * GST_MSECOND;
    }
    guint64 bw = self->bandwidth;
    g_mutex_unlock (&self->lock);

    if (announce)
      announce_bandwidth (self, bw);
    /* The encoder upstream makes a key frame when the receiver's decoder
     * lost a reference (as a PLI makes a WebRTC sender's), or after an
     * outage, so that its dropper lets the queues drop what the outage
     * holds. */
    if (restart)
      GST_INFO_OBJECT (self, "outage: nothing acknowledged for outage-restart "
          "ms, asking upstream for a key unit");
    else if (keyframe)
      GST_DEBUG_OBJECT (self, "the receiver asks for a key frame");
    if (keyframe || restart)
      gst_pad_push_event (GST_BASE_SINK_PAD (self),
          gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE,
              TRUE, 0));
    for (guint i = 0; i < changes->len; i++) {
      GstStructure *c = g_ptr_array_index (changes, i);
      gboolean up = FALSE;

      gst_structure_get_boolean (c, "up", &up);
      GST_INFO_OBJECT (self, "path %s %s", gst_structure_get_string (c,
              "remote"), up ? "is up again" : "went down: no ACK within "
          "its loss timeout; what the receiver can still use moves to the "
          "live paths");
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_element (GST_OBJECT (self), c));
    }
    g_ptr_array_set_size (changes, 0);
    if (stats)
      gst_octopus_stats_post (GST_ELEMENT (self), stats);
    if (warn_refused)
      GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
          ("No receiver at %s: connection refused; is octopussrc running?",
              self->peer),
          ("the host answered with ICMP port unreachable; messages are "
              "lost until a receiver listens (stats: connection-refused)"));
    if (warn_no_ack)
      GST_ELEMENT_WARNING (self, RESOURCE, READ,
          ("No ACK from %s %" G_GUINT64_FORMAT " s after the first packet; "
              "is octopussrc running there and the return path open?",
              self->peer, (guint64) (NO_ACK_WARNING_DELAY / GST_SECOND)),
          ("without ACKs the rate estimate cannot grow (stats: "
              "acks-received)"));

    if (stats_interval > 0)
      wake = MIN (wake, next_stats);
    if (!self->warned_no_ack)
      wake = MIN (wake, now + GST_SECOND);
    for (guint i = 0; i < self->n_paths; i++) {
      fds[i].fd = g_socket_get_fd (self->sockets[i]);
      fds[i].events = POLLIN;
    }
    fds[self->n_paths].fd = self->wake_fd;
    fds[self->n_paths].events = POLLIN;
    struct timespec ts, *tsp = NULL;
    now = now_ns ();
    if (wake != OCTO_TIME_NONE) {
      OctoTime d = wake > now ? wake - now : 0;
      ts.tv_sec = d / GST_SECOND;
      ts.tv_nsec = d % GST_SECOND;
      tsp = &ts;
    }
    if (ppoll (fds, self->n_paths + 1, tsp, NULL) > 0 &&
        (fds[self->n_paths].revents & POLLIN)) {
      guint64 v;
      if (read (self->wake_fd, &v, sizeof v) < 0 && errno != EAGAIN)
        GST_WARNING_OBJECT (self, "wakeup read failed: %s", g_strerror (errno));
    }
    g_mutex_lock (&self->lock);
  }
  g_mutex_unlock (&self->lock);
  g_free (pkt);
  g_ptr_array_free (changes, TRUE);
  return NULL;
}

static void
wake_thread (GstOctopusSink *self)
{
  guint64 one = 1;
  if (write (self->wake_fd, &one, sizeof one) < 0 && errno != EAGAIN)
    GST_WARNING_OBJECT (self, "wakeup failed: %s", g_strerror (errno));
}

static GSocketAddress *
resolve (GstOctopusSink *self, const gchar *host, gint port, GError **error)
{
  GResolver *resolver;
  GList *addrs;
  GInetAddress *addr = g_inet_address_new_from_string (host);

  if (!addr) {
    resolver = g_resolver_get_default ();
    addrs = g_resolver_lookup_by_name (resolver, host, NULL, error);
    g_object_unref (resolver);
    if (!addrs)
      return NULL;
    addr = g_object_ref (addrs->data);
    g_resolver_free_addresses (addrs);
  }
  GST_DEBUG_OBJECT (self, "sending to %s:%d", host, port);
  GSocketAddress *sa = g_inet_socket_address_new (addr, port);
  g_object_unref (addr);
  return sa;
}

/* Connection id and initial sequence number an off-path host cannot
 * predict: the kernel's random source, GLib's generator if that fails. */
static void
draw_connection_ids (OctoSenderConfig *config)
{
  guint32 ids[2];

  if (getrandom (ids, sizeof ids, GRND_NONBLOCK) != (ssize_t) sizeof ids) {
    ids[0] = g_random_int ();
    ids[1] = g_random_int ();
  }
  config->conn_id = ids[0];
  config->isn = ids[1];
}

/* One path as "paths" writes it: [LOCAL@]HOST:PORT. */
typedef struct {
  gchar *local;                 /* NULL: any */
  gchar *host;
  gint port;
} PathSpec;

static void
path_specs_clear (PathSpec *specs, guint n)
{
  for (guint i = 0; i < n; i++) {
    g_free (specs[i].local);
    g_free (specs[i].host);
  }
}

/* Splits @paths; FALSE with @error naming the entry that is wrong. */
static gboolean
parse_paths (const gchar *paths, PathSpec *specs, guint *n, GError **error)
{
  gchar **entries = g_strsplit (paths, ",", -1);
  gboolean ok = TRUE;

  *n = 0;
  for (guint i = 0; ok && entries[i]; i++) {
    gchar *entry = g_strstrip (entries[i]);
    const gchar *at = strchr (entry, '@');
    const gchar *remote = at ? at + 1 : entry;
    GSocketConnectable *addr;

    if (*n == OCTO_SCHED_MAX_PATHS) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
          "more than %u paths", OCTO_SCHED_MAX_PATHS);
      ok = FALSE;
      break;
    }
    addr = g_network_address_parse (remote, 0, NULL);
    if (!addr || g_network_address_get_port (G_NETWORK_ADDRESS (addr)) == 0) {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
          "path '%s' is not [LOCAL@]HOST:PORT", entry);
      g_clear_object (&addr);
      ok = FALSE;
      break;
    }
    specs[*n].local = at ? g_strndup (entry, at - entry) : NULL;
    specs[*n].host = g_strdup (g_network_address_get_hostname
        (G_NETWORK_ADDRESS (addr)));
    specs[*n].port = g_network_address_get_port (G_NETWORK_ADDRESS (addr));
    (*n)++;
    g_object_unref (addr);
  }
  g_strfreev (entries);
  if (ok && *n == 0) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no path");
    ok = FALSE;
  }
  if (!ok) {
    path_specs_clear (specs, *n);
    *n = 0;
  }
  return ok;
}

/* A UDP socket bound to @spec's local address (any if none) and
 * @bind_port, connected to its remote: ACKs from anyone but the receiver
 * are never seen. */
static GSocket *
open_path (GstOctopusSink *self, const PathSpec *spec, gint bind_port,
    GError **error)
{
  GSocketAddress *dest = resolve (self, spec->host, spec->port, error);
  GSocketAddress *local = NULL;
  GInetAddress *addr;
  GSocket *sock = NULL;
  gint sndbuf = 4 * 1024 * 1024;

  if (!dest)
    return NULL;
  addr = spec->local ? g_inet_address_new_from_string (spec->local) :
      g_inet_address_new_any (g_socket_address_get_family (dest));
  if (!addr) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "'%s' is not a local IP address", spec->local);
    goto out;
  }
  local = g_inet_socket_address_new (addr, bind_port);
  g_object_unref (addr);
  sock = g_socket_new (g_socket_address_get_family (dest),
      G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, error);
  if (!sock)
    goto out;
  if (!g_socket_bind (sock, local, TRUE, error) ||
      !g_socket_connect (sock, dest, NULL, error)) {
    g_clear_object (&sock);
    goto out;
  }
  setsockopt (g_socket_get_fd (sock), SOL_SOCKET, SO_SNDBUF, &sndbuf,
      sizeof sndbuf);
out:
  g_clear_object (&local);
  g_object_unref (dest);
  return sock;
}

static void
close_paths (GstOctopusSink *self)
{
  for (guint i = 0; i < self->n_paths; i++) {
    g_clear_object (&self->sockets[i]);
    g_clear_pointer (&self->remotes[i], g_free);
  }
  self->n_paths = 0;
}

static gboolean
gst_octopus_sink_start (GstBaseSink *bsink)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (bsink);
  OctoSenderConfig config;
  GError *err = NULL;
  PathSpec specs[OCTO_SCHED_MAX_PATHS];
  guint n = 0;
  gchar *paths, *scheduler;
  gint bind_port;

  GST_OBJECT_LOCK (self);
  paths = g_strdup (self->paths);
  scheduler = g_strdup (self->scheduler);
  bind_port = self->bind_port;
  if (!paths || !*paths) {
    specs[0].local = NULL;
    specs[0].host = g_strdup (self->host);
    specs[0].port = self->port;
    n = 1;
  }
  octo_sender_config_init (&config);
  config.mtu = self->mtu;
  config.cc = gst_octopus_congestion_control_to_core (self->cc);
  config.max_rate = self->max_rate;
  config.buffer_bytes = self->buffer_size;
  config.rules = self->rules;
  config.probe = self->probe;
  config.probe_ceiling = self->probe_ceiling;
  config.restart_after = self->outage_restart * GST_MSECOND;
  config.resend_keyframes = self->resend_keyframes;
  self->qualitative_mode = self->qualitative;
  GST_OBJECT_UNLOCK (self);
  octo_qframe_reset (&self->frame);
  draw_connection_ids (&config);

  if (n == 0 && !parse_paths (paths, specs, &n, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("Invalid paths '%s'", paths), ("%s", err->message));
    goto fail;
  }
  if (!g_strv_contains (octo_sched_names (), scheduler)) {
    gchar *names = g_strjoinv (", ", (gchar **) octo_sched_names ());
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("Unknown scheduler '%s'", scheduler), ("expected one of %s", names));
    g_free (names);
    goto fail;
  }
  if (config.cc == OCTO_SENDER_FIXED && config.max_rate == 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("congestion-control=fixed needs a max-bitrate"),
        ("set max-bitrate to the rate to pace at, in bits/s"));
    goto fail;
  }
  config.n_paths = n;
  config.scheduler = scheduler;

  for (guint i = 0; i < n; i++) {
    /* several sockets cannot share one port */
    self->sockets[i] = open_path (self, &specs[i], n == 1 ? bind_port : 0,
        &err);
    self->remotes[i] = g_strdup_printf ("%s:%d", specs[i].host,
        specs[i].port);
    self->n_paths = i + 1;
    if (!self->sockets[i]) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
          ("Could not open a UDP socket to %s", self->remotes[i]),
          ("%s", err->message));
      close_paths (self);
      goto fail;
    }
  }

  self->wake_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
  g_mutex_lock (&self->lock);
  self->sender = octo_sender_new (&config, now_ns ());
  self->running = TRUE;
  self->flushing = FALSE;
  self->bandwidth = 0;
  self->buffer_bytes = config.buffer_bytes;
  self->warned_too_large = FALSE;
  g_free (self->peer);
  self->peer = g_strjoinv (",", self->remotes);
  self->connection_refused = 0;
  self->warned_refused = self->warned_no_ack = FALSE;
  self->first_send = OCTO_TIME_NONE;
  for (guint i = 0; i < OCTO_SCHED_MAX_PATHS; i++)
    self->path_up[i] = TRUE;
  g_mutex_unlock (&self->lock);
  self->thread = g_thread_new ("octopussink", send_loop, self);
  path_specs_clear (specs, n);
  g_free (paths);
  g_free (scheduler);
  return TRUE;

fail:
  g_clear_error (&err);
  path_specs_clear (specs, n);
  g_free (paths);
  g_free (scheduler);
  return FALSE;
}

static gboolean
gst_octopus_sink_stop (GstBaseSink *bsink)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (bsink);

  g_mutex_lock (&self->lock);
  self->running = FALSE;
  g_cond_broadcast (&self->drained);
  g_mutex_unlock (&self->lock);
  if (self->thread) {
    wake_thread (self);
    g_thread_join (self->thread);
    self->thread = NULL;
  }
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->sender, octo_sender_free);
  g_mutex_unlock (&self->lock);
  if (self->wake_fd >= 0) {
    close (self->wake_fd);
    self->wake_fd = -1;
  }
  close_paths (self);
  return TRUE;
}

static GstClockTime
buffer_capture_time (GstOctopusSink *self, GstBuffer *buf)
{
  GstClockTime rt;

  /* Only a time segment maps timestamps to the clock. */
  if (!GST_BUFFER_PTS_IS_VALID (buf) ||
      GST_BASE_SINK (self)->segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  rt = gst_segment_to_running_time (&GST_BASE_SINK (self)->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (buf));
  if (!GST_CLOCK_TIME_IS_VALID (rt))
    return GST_CLOCK_TIME_NONE;
  return rt + gst_element_get_base_time (GST_ELEMENT (self));
}

/* After a message of @len bytes was queued (@accepted) or refused: warns
 * about what the sender refused or cannot keep, and wakes the send
 * thread. */
static void
submitted (GstOctopusSink *self, gsize len, gboolean accepted)
{
  /* Roughly: the payload plus the packet overhead at common MTUs. */
  if (accepted && !self->warned_too_large &&
      len + len / 16 > self->buffer_bytes) {
    self->warned_too_large = TRUE;
    GST_ELEMENT_WARNING (self, RESOURCE, NO_SPACE_LEFT,
        ("Message of %" G_GSIZE_FORMAT " bytes does not fit the send buffer",
            len), ("raise buffer-size above %" G_GUINT64_FORMAT
            " bytes; such messages are dropped as overflow",
            self->buffer_bytes));
  }
  if (!accepted) {
    GST_ELEMENT_WARNING (self, STREAM, TOO_LAZY,
        ("Message of %" G_GSIZE_FORMAT " bytes not sent", len),
        ("too large for %u fragments at mtu %u, or a meta field out of "
            "range (priority <= 7, slack <= 1023 ms)", OCTO_FRAGMENTS_MAX,
            self->mtu));
  }
  wake_thread (self);
}

/* Queues one message (@layout NULL: ordinary packets). */
static void
submit_message (GstOctopusSink *self, const OctoHeader *params,
    const OctoMsgInfo *info, const OctoQLayout *layout, const guint8 *data,
    gsize len)
{
  gboolean accepted;

  g_mutex_lock (&self->lock);
  if (layout)
    octo_sender_submit_qualitative (self->sender, params, info, layout, data,
        now_ns (), &accepted);
  else
    octo_sender_submit (self->sender, params, info, data, len, now_ns (),
        &accepted);
  g_mutex_unlock (&self->lock);
  submitted (self, len, accepted);
}

/* qualitative=layered: sends the gathered frame, if any, less the layers
 * the send buffer would drop (octo_sender_submit_qframe). */
static void
send_frame (GstOctopusSink *self)
{
  gboolean accepted;

  if (self->frame.layout.n_segments == 0)
    return;
  g_mutex_lock (&self->lock);
  octo_sender_submit_qframe (self->sender, &self->frame, now_ns (),
      &accepted);
  g_mutex_unlock (&self->lock);
  submitted (self, self->frame.data->len, accepted);
  octo_qframe_reset (&self->frame);
}

static GstFlowReturn
gst_octopus_sink_render (GstBaseSink *bsink, GstBuffer *buf)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (bsink);
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
  OctoHeader params = { 0 };
  OctoMsgInfo info;
  OctoQLayout layout;
  GstMapInfo map;

  octo_msg_info_init (&info);
  if (m)
    gst_octopus_meta_to_core (m, &params, &info);
  if (info.capture_time == OCTO_TIME_NONE)
    info.capture_time = buffer_capture_time (self, buf);

  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not map buffer"), (NULL));
    return GST_FLOW_ERROR;
  }
  switch (self->qualitative_mode) {
    case GST_OCTOPUS_QUALITATIVE_LAYERED:
      if (!octo_qframe_continues (&self->frame, &params, &info))
        send_frame (self);
      octo_qframe_add (&self->frame, &params, &info, map.data, map.size);
      if (octo_qframe_complete (&self->frame,
              GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_MARKER)))
        send_frame (self);
      break;
    case GST_OCTOPUS_QUALITATIVE_EQUAL:
      if (map.size > G_MAXUINT32)     /* refused, as by any fragment count */
        submit_message (self, &params, &info, NULL, map.data, map.size);
      else {
        octo_qlayout_equal (&layout, (guint32) map.size,
            OCTO_QPACKET_EQUAL_CHUNKS);
        submit_message (self, &params, &info, &layout, map.data, map.size);
      }
      break;
    default:
      submit_message (self, &params, &info, NULL, map.data, map.size);
      break;
  }
  gst_buffer_unmap (buf, &map);
  return GST_FLOW_OK;
}

static gboolean
gst_octopus_sink_event (GstBaseSink *bsink, GstEvent *event)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (bsink);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    octo_qframe_reset (&self->frame);
  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    send_frame (self);
    gint64 deadline = g_get_monotonic_time () +
        EOS_DRAIN_TIMEOUT / GST_USECOND;
    g_mutex_lock (&self->lock);
    while (self->running && !self->flushing &&
        octo_sender_queued_packets (self->sender) > 0)
      if (!g_cond_wait_until (&self->drained, &self->lock, deadline))
        break;
    /* The final account, whatever the stats interval. */
    GstStructure *stats = build_stats (self);
    g_mutex_unlock (&self->lock);
    gst_octopus_stats_post (GST_ELEMENT (self), stats);
  }
  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

static gboolean
gst_octopus_sink_unlock (GstBaseSink *bsink)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (bsink);
  g_mutex_lock (&self->lock);
  self->flushing = TRUE;
  g_cond_broadcast (&self->drained);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static gboolean
gst_octopus_sink_unlock_stop (GstBaseSink *bsink)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (bsink);
  g_mutex_lock (&self->lock);
  self->flushing = FALSE;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static void
gst_octopus_sink_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
      g_free (self->host);
      self->host = g_value_dup_string (value);
      break;
    case PROP_PORT:
      self->port = g_value_get_int (value);
      break;
    case PROP_BIND_PORT:
      self->bind_port = g_value_get_int (value);
      break;
    case PROP_MTU:
      self->mtu = g_value_get_uint (value);
      break;
    case PROP_CONGESTION_CONTROL:
      self->cc = g_value_get_enum (value);
      break;
    case PROP_MAX_BITRATE:
      self->max_rate = g_value_get_uint (value);
      break;
    case PROP_MAX_RATE:
      self->max_rate = g_value_get_uint64 (value);
      break;
    case PROP_BUFFER_SIZE:
      self->buffer_size = g_value_get_uint64 (value);
      break;
    case PROP_RULES:
      self->rules = g_value_get_boolean (value);
      break;
    case PROP_PROBE:
      self->probe = g_value_get_boolean (value);
      break;
    case PROP_PROBE_CEILING:
      self->probe_ceiling = g_value_get_uint64 (value);
      break;
    case PROP_STATS_INTERVAL:
      self->stats_interval = g_value_get_uint (value);
      break;
    case PROP_OUTAGE_RESTART:
      self->outage_restart = g_value_get_uint (value);
      break;
    case PROP_QUALITATIVE:
      self->qualitative = g_value_get_enum (value);
      break;
    case PROP_PATHS:
      g_free (self->paths);
      self->paths = g_value_dup_string (value);
      break;
    case PROP_SCHEDULER:
      g_free (self->scheduler);
      self->scheduler = g_value_dup_string (value);
      break;
    case PROP_RESEND_KEYFRAMES:
      self->resend_keyframes = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_sink_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (object);

  switch (prop_id) {
    case PROP_ESTIMATED_BITRATE:
      g_mutex_lock (&self->lock);
      g_value_set_uint (value, MIN (self->bandwidth, G_MAXUINT));
      g_mutex_unlock (&self->lock);
      return;
    case PROP_BANDWIDTH:
      g_mutex_lock (&self->lock);
      g_value_set_uint64 (value, self->bandwidth);
      g_mutex_unlock (&self->lock);
      return;
    case PROP_STATS:
      g_mutex_lock (&self->lock);
      g_value_take_boxed (value, build_stats (self));
      g_mutex_unlock (&self->lock);
      return;
    default:
      break;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_HOST:
      g_value_set_string (value, self->host);
      break;
    case PROP_PORT:
      g_value_set_int (value, self->port);
      break;
    case PROP_BIND_PORT:
      g_value_set_int (value, self->bind_port);
      break;
    case PROP_MTU:
      g_value_set_uint (value, self->mtu);
      break;
    case PROP_CONGESTION_CONTROL:
      g_value_set_enum (value, self->cc);
      break;
    case PROP_MAX_BITRATE:
      g_value_set_uint (value, MIN (self->max_rate, G_MAXUINT));
      break;
    case PROP_MAX_RATE:
      g_value_set_uint64 (value, self->max_rate);
      break;
    case PROP_BUFFER_SIZE:
      g_value_set_uint64 (value, self->buffer_size);
      break;
    case PROP_RULES:
      g_value_set_boolean (value, self->rules);
      break;
    case PROP_PROBE:
      g_value_set_boolean (value, self->probe);
      break;
    case PROP_PROBE_CEILING:
      g_value_set_uint64 (value, self->probe_ceiling);
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, self->stats_interval);
      break;
    case PROP_OUTAGE_RESTART:
      g_value_set_uint (value, self->outage_restart);
      break;
    case PROP_QUALITATIVE:
      g_value_set_enum (value, self->qualitative);
      break;
    case PROP_PATHS:
      g_value_set_string (value, self->paths);
      break;
    case PROP_SCHEDULER:
      g_value_set_string (value, self->scheduler);
      break;
    case PROP_RESEND_KEYFRAMES:
      g_value_set_boolean (value, self->resend_keyframes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_sink_finalize (GObject *object)
{
  GstOctopusSink *self = GST_OCTOPUS_SINK (object);
  g_free (self->host);
  g_free (self->peer);
  octo_qframe_clear (&self->frame);
  g_free (self->paths);
  g_free (self->scheduler);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->drained);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_sink_class_init (GstOctopusSinkClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *bsink_class = GST_BASE_SINK_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_sink_set_property;
  gobject_class->get_property = gst_octopus_sink_get_property;
  gobject_class->finalize = gst_octopus_sink_finalize;

  g_object_class_install_property (gobject_class, PROP_HOST,
      g_param_spec_string ("host", "Host",
          "Address or name of the receiver (octopussrc)", DEFAULT_HOST, rw));
  g_object_class_install_property (gobject_class, PROP_PORT,
      g_param_spec_int ("port", "Port", "UDP port of the receiver", 1, 65535,
          DEFAULT_PORT, rw));
  g_object_class_install_property (gobject_class, PROP_BIND_PORT,
      g_param_spec_int ("bind-port", "Bind port",
          "Local UDP port to send from and receive ACKs on (0 = any)", 0,
          65535, DEFAULT_BIND_PORT, rw));
  g_object_class_install_property (gobject_class, PROP_MTU,
      g_param_spec_uint ("mtu", "MTU",
          "Largest UDP payload per packet, headers included", OCTO_MTU_MIN,
          OCTO_MTU_MAX, DEFAULT_MTU, rw));
  g_object_class_install_property (gobject_class, PROP_CONGESTION_CONTROL,
      gst_octopus_sender_param_congestion_control ());
  g_object_class_install_property (gobject_class, PROP_MAX_BITRATE,
      gst_octopus_sender_param_max_bitrate ());
  g_object_class_install_property (gobject_class, PROP_BUFFER_SIZE,
      gst_octopus_sender_param_buffer_size ());
  g_object_class_install_property (gobject_class, PROP_RULES,
      gst_octopus_sender_param_rules ());
  g_object_class_install_property (gobject_class, PROP_PROBE,
      g_param_spec_boolean ("probe", "Probe with padding",
          "When BBR probes for bandwidth (STARTUP, PROBE_BW gain > 1) and the "
          "send buffer is empty, send padding at the pacing rate so an "
          "app-limited stream still learns what the path could carry; an "
          "Octopus queue drops padding its link cannot carry",
          DEFAULT_PROBE, rw));
  g_object_class_install_property (gobject_class, PROP_PROBE_CEILING,
      g_param_spec_uint64 ("probe-ceiling", "Probe ceiling",
          "No padding once the bandwidth estimate reaches this many bits/s "
          "of IP datagrams, e.g. the top rate the source can use (0 = no "
          "ceiling)", 0, G_MAXUINT64, DEFAULT_PROBE_CEILING, rw));
  g_object_class_install_property (gobject_class, PROP_STATS_INTERVAL,
      gst_octopus_sender_param_stats_interval ());
  g_object_class_install_property (gobject_class, PROP_OUTAGE_RESTART,
      gst_octopus_sender_param_outage_restart ());
  g_object_class_install_property (gobject_class, PROP_QUALITATIVE,
      g_param_spec_enum ("qualitative", "Qualitative packets",
          "Send messages as QUCO qualitative packets, whose least "
          "significant chunks a quco queue trims instead of dropping the "
          "packet (docs/quco-chunks.md): layered gathers a frame's layers "
          "(octopussvcenc's spatial layers, a point cloud's density layers; "
          "the frame's base layer gives the dropping fields) into one "
          "message and the receiver shows what arrived whole; equal cuts "
          "each message into equal stripes", GST_TYPE_OCTOPUS_QUALITATIVE,
          DEFAULT_QUALITATIVE, rw));
  estimated_bitrate_pspec = gst_octopus_sender_param_estimated_bitrate ();
  g_object_class_install_property (gobject_class, PROP_ESTIMATED_BITRATE,
      estimated_bitrate_pspec);
  g_object_class_install_property (gobject_class, PROP_STATS,
      gst_octopus_sender_param_stats ());
  g_object_class_install_property (gobject_class, PROP_MAX_RATE,
      g_param_spec_uint64 ("max-rate", "Maximum rate",
          "Deprecated: use max-bitrate", 0, G_MAXUINT64,
          GST_OCTOPUS_SENDER_DEFAULT_MAX_BITRATE, rw | G_PARAM_DEPRECATED));
  bandwidth_pspec = g_param_spec_uint64 ("bandwidth", "Bandwidth",
      "Deprecated: use estimated-bitrate", 0, G_MAXUINT64, 0,
      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_DEPRECATED);
  g_object_class_install_property (gobject_class, PROP_BANDWIDTH,
      bandwidth_pspec);

  g_object_class_install_property (gobject_class, PROP_PATHS,
      g_param_spec_string ("paths", "Paths",
          "Send over several paths: comma-separated [LOCAL@]HOST:PORT, each "
          "a receiver address (octopussrc) and optionally the local IP "
          "address to send from (which picks the interface); up to 8.  "
          "Each path has its own congestion controller and pacer, one send "
          "buffer decides per message, and \"scheduler\" picks each packet's "
          "path.  Unset: the one path host:port", DEFAULT_PATHS, rw));
  g_object_class_install_property (gobject_class, PROP_SCHEDULER,
      g_param_spec_string ("scheduler", "Scheduler",
          "Multipath packet scheduler: min-cost (least one-way time + "
          "queued/rate, paper 003; the one-way time from the path's minimum "
          "RTT and its bytes in flight), wrr (weighted round robin by "
          "bandwidth), edcld, sfl (water filling) or min-rtt",
          DEFAULT_SCHEDULER, rw));
  g_object_class_install_property (gobject_class, PROP_RESEND_KEYFRAMES,
      g_param_spec_boolean ("resend-keyframes", "Resend key frames",
          "Multipath: resend the lost packets of key frames (GstOctopusMeta "
          "keyframe) on the path of least RTT until 500 ms after capture; "
          "a message a queue dropped by its rules stays dropped.  Their "
          "packets say so, and octopussrc holds newer messages up to its "
          "resend-wait for them.  Ignored with one path",
          DEFAULT_RESEND_KEYFRAMES, rw));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class, "Octopus sink",
      "Sink/Network",
      "Sends each buffer as an Octopus message over UDP (BBR pacing, "
      "send-buffer dropping rules)", GST_OCTOPUS_AUTHORS);

  bsink_class->start = GST_DEBUG_FUNCPTR (gst_octopus_sink_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_sink_stop);
  bsink_class->render = GST_DEBUG_FUNCPTR (gst_octopus_sink_render);
  bsink_class->event = GST_DEBUG_FUNCPTR (gst_octopus_sink_event);
  bsink_class->unlock = GST_DEBUG_FUNCPTR (gst_octopus_sink_unlock);
  bsink_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_octopus_sink_unlock_stop);

  gst_type_mark_as_plugin_api (GST_TYPE_OCTOPUS_CONGESTION_CONTROL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_OCTOPUS_QUALITATIVE, 0);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_sink_debug, "octopussink", 0,
      "Octopus transport sender");
}

static void
gst_octopus_sink_init (GstOctopusSink *self)
{
  self->host = g_strdup (DEFAULT_HOST);
  self->port = DEFAULT_PORT;
  self->bind_port = DEFAULT_BIND_PORT;
  self->mtu = DEFAULT_MTU;
  self->cc = GST_OCTOPUS_SENDER_DEFAULT_CONGESTION_CONTROL;
  self->max_rate = GST_OCTOPUS_SENDER_DEFAULT_MAX_BITRATE;
  self->buffer_size = GST_OCTOPUS_SENDER_DEFAULT_BUFFER_SIZE;
  self->rules = GST_OCTOPUS_SENDER_DEFAULT_RULES;
  self->probe = DEFAULT_PROBE;
  self->probe_ceiling = DEFAULT_PROBE_CEILING;
  self->stats_interval = GST_OCTOPUS_SENDER_DEFAULT_STATS_INTERVAL;
  self->outage_restart = GST_OCTOPUS_SENDER_DEFAULT_OUTAGE_RESTART;
  self->qualitative = DEFAULT_QUALITATIVE;
  octo_qframe_init (&self->frame);
  self->paths = g_strdup (DEFAULT_PATHS);
  self->scheduler = g_strdup (DEFAULT_SCHEDULER);
  self->resend_keyframes = DEFAULT_RESEND_KEYFRAMES;
  self->wake_fd = -1;
  g_mutex_init (&self->lock);
  g_cond_init (&self->drained);
  /* Messages are sent as fast as the transport allows, not at their
   * timestamps; the send buffer is where a fast source is handled. */
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}
