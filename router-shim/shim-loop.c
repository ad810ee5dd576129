/* octopus-shim: sockets, the event loop and the glue between datagrams and
 * the core's link model.
 *
 * One thread, epoll over every socket plus a timerfd armed (absolute, ns) at
 * the links' next event and a signalfd.  Datagrams are read and written in
 * batches (recvmmsg/sendmmsg).  An arrival is stamped with the kernel's
 * receive time, so a late read does not shift its schedule, but never
 * earlier than what the link has already served; opportunities up to that
 * time are used before it queues (Mahimahi's order). */
#include "shim.h"
#include "shim-pool.h"
#include "shim-send.h"
#include "transport/octo-packet.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define SHIM_BATCH 64
/* A datagram lands in a pool slot, its excess (if larger) in a per-message
 * spill area; together larger than any UDP payload, so MSG_TRUNC (counted
 * as oversized) means the kernel itself cut it. */
#define SHIM_SPILL_SIZE 65536
/* Batches read from one socket before the links are served again. */
#define SHIM_READ_BUDGET 4
#define SHIM_SOCKET_BUFFER (4 << 20)
/* A logged link reports every opportunity, so it cannot skip an idle
 * stretch: it is run at least this often, and traffic resuming after a long
 * idle never replays all of it in one turn. */
#define SHIM_LOG_TICK (100 * OCTO_MSECOND)

enum { EV_LISTEN, EV_FORWARD, EV_TIMER, EV_SIGNAL, EV_DEADLINE, EV_METER };
#define EV(kind, user) ((guint64) (user) << 3 | (kind))

typedef union {
  gchar buf[CMSG_SPACE (sizeof (struct timespec))];
  struct cmsghdr align;
} TimestampControl;

typedef struct {
  struct mmsghdr msgs[SHIM_BATCH];
  struct iovec iov[SHIM_BATCH][2];      /* slot, spill */
  TimestampControl control[SHIM_BATCH];
  struct sockaddr_storage addr[SHIM_BATCH];
  ShimPacket *slot[SHIM_BATCH];
  guint8 *spill;
} RecvBatch;

typedef struct {
  struct iovec iov[SHIM_BATCH];
  ShimPacket *packets[SHIM_BATCH];
  OctoTime scheduled[SHIM_BATCH];
  guint n;
  int fd;
  const ShimAddr *to;
} SendBatch;

G_STATIC_ASSERT (SHIM_BATCH <= SHIM_SEND_MAX);

/* A datagram read but not yet queued: every socket ready in one turn is
 * read first, then arrivals queue in kernel-timestamp order, so after a
 * stall no user is served behind another one's later packets. */
typedef struct {
  OctoTime time;
  guint seq;
  ShimUser *user;
  ShimDirection dir;
  ShimAddr from;
  ShimPacket *packet;
} Arrival;

typedef struct {
  int epoll_fd, timer_fd, signal_fd, deadline_fd, meter_fd;
  RecvBatch recv;
  SendBatch send;
  OctoTime armed;               /* timer's expiry; 0 = none or already fired */
  /* link time reached, per link and direction */
  OctoTime advanced[SHIM_MAX_LINKS][SHIM_N_DIRECTIONS];
  GArray *arrivals;             /* Arrival */
  gboolean quit;
  gboolean meter_due;           /* a --meter line, once the links are served */
} Loop;

/* No fd yet: a teardown after an early error closes nothing. */
static Loop loop = { .epoll_fd = -1, .timer_fd = -1, .signal_fd = -1,
  .deadline_fd = -1, .meter_fd = -1 };

const gchar *
shim_direction_name (ShimDirection dir)
{
  return dir == SHIM_DOWN ? "down" : "up";
}

OctoTime
shim_clock_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (OctoTime) ts.tv_sec * OCTO_SECOND + (OctoTime) ts.tv_nsec;
}

static void
packet_dropped (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  Shim *shim = user_data;
  ShimPacket *p = packet->data;

  if (shim->log)
    shim_log_drop (shim, p, packet->size, reason);
  /* A trimmed packet stays queued: not a drop. */
  if (reason == OCTO_DROP_TRIM) {
    p->stream->packets_trimmed++;
    p->stream->bytes_trimmed += packet->size;
    return;
  }
  p->stream->packets_dropped[reason]++;
  p->stream->bytes_dropped[reason] += packet->size;
  if (p->counted)
    octo_whole_messages_lost (&p->stream->whole, &packet->header);
  shim_packet_free (p);
}

static void
log_opportunity_down (OctoTime t, guint32 bytes, gpointer user_data)
{
  shim_log_opportunity (user_data, SHIM_DOWN, t, bytes);
}

static void
log_opportunity_up (OctoTime t, guint32 bytes, gpointer user_data)
{
  shim_log_opportunity (user_data, SHIM_UP, t, bytes);
}

/* A socket bound to @bind_addr and, if @peer is set, connected to it so
 * that the kernel drops datagrams from anyone else. */
static int
open_socket (const ShimAddr *bind_addr, const ShimAddr *peer, ShimAddr *bound,
    GError **error)
{
  gchar text[SHIM_ADDR_STRLEN];
  int size = SHIM_SOCKET_BUFFER;
  int on = 1;
  int fd = socket (bind_addr->ss.ss_family,
      SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

  if (fd < 0 || bind (fd, (const struct sockaddr *) &bind_addr->ss,
          bind_addr->len) < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot bind %s: %s", shim_addr_to_string (bind_addr, text),
        g_strerror (errno));
    if (fd >= 0)
      close (fd);
    return -1;
  }
  if (peer && connect (fd, (const struct sockaddr *) &peer->ss,
          peer->len) < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot connect to %s: %s", shim_addr_to_string (peer, text),
        g_strerror (errno));
    close (fd);
    return -1;
  }
  /* Big buffers absorb bursts between two turns of the loop; FORCE works
   * only with CAP_NET_ADMIN, the plain call is capped by the sysctl. */
  if (setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  if (setsockopt (fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof size) < 0)
    setsockopt (fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  setsockopt (fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
  bound->len = sizeof bound->ss;
  getsockname (fd, (struct sockaddr *) &bound->ss, &bound->len);
  return fd;
}

static gboolean
watch (int fd, guint64 tag, GError **error)
{
  struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };
  if (epoll_ctl (loop.epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "epoll_ctl: %s", g_strerror (errno));
    return FALSE;
  }
  return TRUE;
}

static gboolean
setup_user (Shim *shim, ShimUser *u, GError **error)
{
  ShimAddr any = { .len = u->forward_addr.len };
  OctoQdiscEnv env;
  gchar a[SHIM_ADDR_STRLEN], b[SHIM_ADDR_STRLEN], c[SHIM_ADDR_STRLEN];

  if (!u->tun) {
    u->listen_fd = open_socket (&u->listen_addr, NULL, &u->listen_addr,
        error);
    if (u->listen_fd < 0)
      return FALSE;
    /* Replies must come back to this socket: a port of its own, and only
     * the receiver may feed the up link. */
    any.ss.ss_family = u->forward_addr.ss.ss_family;
    u->forward_fd = open_socket (&any, &u->forward_addr, &u->forward_local,
        error);
    if (u->forward_fd < 0)
      return FALSE;
  }
  if (!watch (u->listen_fd, EV (EV_LISTEN, u->index), error) ||
      !watch (u->forward_fd, EV (EV_FORWARD, u->index), error))
    return FALSE;
  shim_user_init_streams (u);
  for (guint d = 0; d < SHIM_N_DIRECTIONS; d++)
    shim_classifier_init (&u->classifier[d], shim->rtp_ext_id);

  if (!shim->bare) {
    octo_qdisc_env_init (&env);
    env.limit_bytes = shim->buffer_bytes;
    env.drop_func = packet_dropped;
    env.user_data = shim;
    env.seed = u->index + 1;
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
      GError *qerror = NULL;
      u->qdisc[d] = octo_qdisc_new (shim->queue_spec[d], &env, &qerror);
      if (u->qdisc[d] == NULL) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
            "--%squeue: %s", d == SHIM_DOWN ? "" : "up-", qerror->message);
        g_error_free (qerror);
        return FALSE;
      }
      u->link_queue[d] = octo_link_add_queue (shim->links[u->link].link[d],
          u->qdisc[d]);
    }
  }
  if (u->tun)
    printf ("octopus-shim: user %u: shell namespace at %s (octo%u), outside "
        "%s (%s)\n", u->index, shim->shell->links[u->link].inside, u->link,
        shim->shell->links[u->link].outside,
        shim->shell->links[u->link].outer_name);
  else
    printf ("octopus-shim: user %u: listening on %s, forwarding to %s from "
        "%s\n", u->index, shim_addr_to_string (&u->listen_addr, a),
        shim_addr_to_string (&u->forward_addr, b),
        shim_addr_to_string (&u->forward_local, c));
  return TRUE;
}

/* Expires @after from now (0: disarmed), then every @interval (0: once). */
static int
make_timer (OctoTime after, OctoTime interval, GError **error)
{
  int fd = timerfd_create (CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "timerfd_create: %s", g_strerror (errno));
    return -1;
  }
  if (after > 0) {
    struct itimerspec its = {
      .it_value = { .tv_sec = after / OCTO_SECOND,
        .tv_nsec = after % OCTO_SECOND },
      .it_interval = { .tv_sec = interval / OCTO_SECOND,
        .tv_nsec = interval % OCTO_SECOND } };
    timerfd_settime (fd, 0, &its, NULL);
  }
  return fd;
}

gboolean
shim_setup (Shim *shim, GError **error)
{
  sigset_t mask;

  memset (&loop, 0, sizeof loop);
  loop.epoll_fd = loop.timer_fd = loop.signal_fd = loop.deadline_fd = -1;
  loop.meter_fd = -1;
  loop.recv.spill = g_malloc ((gsize) SHIM_BATCH * SHIM_SPILL_SIZE);
  loop.arrivals = g_array_new (FALSE, FALSE, sizeof (Arrival));
  shim->start = shim->metered_at = shim_clock_now ();
  /* Timer wake-ups within 1 us rather than the default 50 us slack. */
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  if (shim->rt_priority > 0) {
    struct sched_param param = { .sched_priority = shim->rt_priority };
    if (sched_setscheduler (0, SCHED_FIFO, &param) < 0)
      g_printerr ("octopus-shim: warning: cannot use SCHED_FIFO %d (%s); "
          "running with normal priority\n", shim->rt_priority,
          g_strerror (errno));
  }

  if (shim->log_path && !shim_log_open (shim, error))
    return FALSE;
  loop.epoll_fd = epoll_create1 (EPOLL_CLOEXEC);
  for (guint l = 0; l < shim->n_links && !shim->bare; l++) {
    ShimLinkPair *lp = &shim->links[l];

    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
      lp->link[d] = octo_link_new (lp->trace[d], lp->delay, shim->start);
      /* Else a flood through a direction without a trace would sit in
       * propagation without bound. */
      if (lp->trace[d] == NULL)
        octo_link_set_flight_limit (lp->link[d], shim->flight_limit_bytes);
      /* the log's opportunity lines name no link: the first one's */
      if (shim->log && l == 0)
        octo_link_set_opportunity_func (lp->link[d], d == SHIM_DOWN ?
            log_opportunity_down : log_opportunity_up, shim);
    }
  }
  for (guint i = 0; i < shim->users->len; i++)
    if (!setup_user (shim, shim->users->pdata[i], error))
      return FALSE;
  fflush (stdout);

  sigemptyset (&mask);
  sigaddset (&mask, SIGINT);
  sigaddset (&mask, SIGTERM);
  sigaddset (&mask, SIGUSR1);
  if (shim->shell)
    sigaddset (&mask, SIGCHLD);
  sigprocmask (SIG_BLOCK, &mask, NULL);
  loop.signal_fd = signalfd (-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  loop.timer_fd = make_timer (0, 0, error);
  if (loop.signal_fd < 0 || loop.timer_fd < 0 ||
      !watch (loop.signal_fd, EV (EV_SIGNAL, 0), error) ||
      !watch (loop.timer_fd, EV (EV_TIMER, 0), error))
    return FALSE;
  if (shim->duration_s > 0) {
    loop.deadline_fd = make_timer ((OctoTime) (shim->duration_s *
            OCTO_SECOND), 0, error);
    if (loop.deadline_fd < 0 ||
        !watch (loop.deadline_fd, EV (EV_DEADLINE, 0), error))
      return FALSE;
  }
  if (shim->meter_interval > 0) {
    loop.meter_fd = make_timer (shim->meter_interval, shim->meter_interval,
        error);
    if (loop.meter_fd < 0 || !watch (loop.meter_fd, EV (EV_METER, 0), error))
      return FALSE;
  }
  return TRUE;
}

/* Sends the batch; a datagram the kernel refuses is counted and dropped
 * (UDP gives no way to wait for it without stalling every user). */
static void
flush (Shim *shim, ShimDirection dir)
{
  SendBatch *sb = &loop.send;

  if (sb->n == 0)
    return;
  OctoTime now = shim_clock_now ();
  for (guint i = 0; i < sb->n; i++) {
    OctoTime late = now > sb->scheduled[i] ? now - sb->scheduled[i] : 0;
    shim_hist_add (&shim->timing_error[dir], late / OCTO_USECOND);
  }
  /* A batch holds one socket's packets: one user, one direction. */
  ShimUser *u = sb->packets[0]->user;
  if (u->tun) {
    for (guint i = 0; i < sb->n; i++) {
      if (write (sb->fd, sb->iov[i].iov_base, sb->iov[i].iov_len) ==
          (gssize) sb->iov[i].iov_len)
        u->sent[dir]++;
      else
        u->send_errors++;
    }
  } else {
    u->sent[dir] += shim_send (sb->fd, sb->to, sb->iov, sb->n,
        &u->send_errors);
  }
  for (guint i = 0; i < sb->n; i++)
    shim_packet_free (sb->packets[i]);
  sb->n = 0;
}

/* Queues one delivery for sending; batches are per (socket, destination)
 * so consecutive packets of one user go out in one syscall. */
static void
deliver (Shim *shim, const OctoLinkDelivery *d, ShimDirection dir)
{
  ShimPacket *p = d->packet.data;
  ShimUser *u = p->user;
  int fd = dir == SHIM_DOWN ? u->forward_fd : u->listen_fd;
  const ShimAddr *to = dir == SHIM_DOWN ? &u->forward_addr : &u->last_sender;
  SendBatch *sb = &loop.send;
  OctoTime delay = d->departure - p->arrival;
  ShimMeterDelay *meter = &u->meter_delay[dir];

  p->stream->packets_out++;
  p->stream->bytes_out += d->packet.size;
  if (p->counted)
    octo_whole_messages_delivered (&p->stream->whole, &d->packet.header,
        d->packet.size);
  shim_hist_add (&p->stream->delay, delay / OCTO_USECOND);
  meter->count++;
  meter->last = delay;
  meter->max = MAX (meter->max, delay);
  if (shim->log)
    shim_log_departure (shim, p, d->packet.size, d->departure);

  if (fd != sb->fd || sb->n == SHIM_BATCH) {
    flush (shim, dir);
    sb->fd = fd;
    sb->to = to;
  }
  guint i = sb->n++;
  sb->packets[i] = p;
  sb->scheduled[i] = d->delivery;
  sb->iov[i] = (struct iovec) { p->data, p->len };
}

/* Runs the link to @t unless it is already past it; returns the link's
 * time, the earliest an arrival can now queue. */
static OctoTime
advance_to (Shim *shim, guint link, ShimDirection dir, OctoTime t)
{
  if (t > loop.advanced[link][dir]) {
    octo_link_advance (shim->links[link].link[dir], t);
    loop.advanced[link][dir] = t;
  }
  return loop.advanced[link][dir];
}

/* Runs the links to @polled, the time the sockets were last found ready:
 * a datagram the kernel got after it is read next turn, and must still find
 * the opportunities that followed its arrival unused. */
static void
serve_links (Shim *shim, OctoTime polled)
{
  OctoLinkDelivery d;

  for (guint l = 0; l < shim->n_links; l++)
    for (guint dir = 0; dir < SHIM_N_DIRECTIONS; dir++) {
      OctoTime now = advance_to (shim, l, dir, polled);
      loop.send.fd = -1;
      while (octo_link_pop_delivery (shim->links[l].link[dir], now, &d))
        deliver (shim, &d, dir);
      flush (shim, dir);
    }
}

static void
arm_timer (Shim *shim)
{
  OctoTime next = G_MAXUINT64, t;
  struct itimerspec its = { 0 };

  for (guint l = 0; l < shim->n_links && !shim->bare; l++)
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++)
      if (octo_link_next_wakeup (shim->links[l].link[d], &t))
        next = MIN (next, t);
  if (shim->log)
    next = MIN (next, MIN (loop.advanced[0][SHIM_DOWN],
            loop.advanced[0][SHIM_UP]) + SHIM_LOG_TICK);
  next = next == G_MAXUINT64 ? 0 : MAX (next, 1);
  /* One syscall saved per turn of a busy loop. */
  if (next == loop.armed)
    return;
  loop.armed = next;
  its.it_value.tv_sec = next / OCTO_SECOND;
  its.it_value.tv_nsec = next % OCTO_SECOND;
  timerfd_settime (loop.timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* A probe of octopussink's (a padding message) carries no media: it is
 * left out of the whole messages.  RTP carries no padding messages. */
static gboolean
is_padding (const ShimPacket *p, gboolean ip)
{
  gssize udp = 0;
  ShimAddr unused;

  if (ip && (udp = shim_ip_udp_payload (p->data, p->len, &unused)) < 0)
    return FALSE;
  return octo_data_is_padding (p->data + udp, p->len - udp);
}

/* Takes @p, whose data and len are set. */
static void
enqueue (Shim *shim, ShimUser *u, ShimDirection dir, const ShimAddr *from,
    ShimPacket *p, OctoTime now)
{
  const ShimAddr *link_end = dir == SHIM_DOWN ? &u->forward_addr :
      &u->listen_addr;
  OctoPacket op = { .data = p };
  OctoParseResult r;
  ShimAddr ip_source;
  gsize plen = p->len;

  if (u->tun) {
    /* a whole IP packet: its own size on the link, its own source; not
     * trimmed (QUCO would have to fix the IP and UDP lengths) */
    op.size = (guint32) p->len;
    r = shim_classify_ip (&u->classifier[dir], p->data, p->len, &ip_source,
        &op);
    from = &ip_source;
  } else {
    op.size = (guint32) p->len + shim_addr_overhead (link_end);
    r = shim_classify (&u->classifier[dir], p->data, p->len,
        shim_addr_key (from), &op);
  }

  u->parse_results[dir][r]++;
  p->user = u;
  p->dir = dir;
  p->arrival = now;
  p->stream = shim_stream_lookup (u, dir, from, op.source,
      op.tagged ? op.header.stream_id : -1);
  p->stream->packets_in++;
  p->stream->bytes_in += op.size;
  p->counted = op.tagged && p->stream->stream_id >= 0
      && !is_padding (p, u->tun);
  if (shim->log)
    shim_log_arrival (shim, p, op.size);
  if (octo_qdisc_enqueue (u->qdisc[dir], &op, u->tun ? NULL : p->data,
          u->tun ? NULL : &plen, now))
    p->len = plen;
}

/* --bare: straight back out, no copy, no queue, no link. */
static void
forward_bare (ShimUser *u, ShimDirection dir, guint n)
{
  RecvBatch *rb = &loop.recv;
  int fd = dir == SHIM_DOWN ? u->forward_fd : u->listen_fd;
  const ShimAddr *to = dir == SHIM_DOWN ? &u->forward_addr : &u->last_sender;
  struct iovec datagrams[SHIM_BATCH];
  ShimPacket *large[SHIM_BATCH];
  guint n_large = 0;

  for (guint i = 0; i < n; i++) {
    gsize len = rb->msgs[i].msg_len;
    if (len <= SHIM_SLOT_PAYLOAD) {
      datagrams[i] = (struct iovec) { rb->slot[i]->data, len };
      continue;
    }
    /* Rare: made contiguous so that every datagram is one iovec. */
    ShimPacket *p = large[n_large++] = shim_packet_new_copy (
        rb->slot[i]->data, SHIM_SLOT_PAYLOAD, rb->iov[i][1].iov_base,
        len - SHIM_SLOT_PAYLOAD);
    datagrams[i] = (struct iovec) { p->data, len };
  }
  u->sent[dir] += shim_send (fd, to, datagrams, n, &u->send_errors);
  for (guint i = 0; i < n_large; i++)
    shim_packet_free (large[i]);
}

/* SO_TIMESTAMPNS of the datagram on our clock; @fallback without one. */
static OctoTime
kernel_arrival (struct msghdr *msg, gint64 realtime_offset, OctoTime fallback)
{
  for (struct cmsghdr *c = CMSG_FIRSTHDR (msg); c; c = CMSG_NXTHDR (msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
      struct timespec ts;
      memcpy (&ts, CMSG_DATA (c), sizeof ts);
      gint64 t = (gint64) ts.tv_sec * OCTO_SECOND + ts.tv_nsec -
          realtime_offset;
      return t > 0 ? (OctoTime) t : 0;
    }
  }
  return fallback;
}

/* --shell: one IP packet per read of a TUN device (its MTU fits a slot). */
static void
receive_tun (ShimUser *u, ShimDirection dir)
{
  RecvBatch *rb = &loop.recv;
  int fd = dir == SHIM_DOWN ? u->listen_fd : u->forward_fd;

  for (guint i = 0; i < SHIM_BATCH * SHIM_READ_BUDGET; i++) {
    if (rb->slot[0] == NULL)
      rb->slot[0] = shim_packet_new_slot ();
    ShimPacket *p = rb->slot[0];
    gssize n = read (fd, p->data, SHIM_SLOT_PAYLOAD);
    if (n <= 0)
      return;
    if ((gsize) n <= SHIM_SMALL_PAYLOAD)
      p = shim_packet_new_copy (p->data, (gsize) n, NULL, 0);
    else
      rb->slot[0] = NULL;
    p->len = (gsize) n;
    Arrival a = { .time = shim_clock_now (), .seq = loop.arrivals->len,
      .user = u, .dir = dir, .packet = p };
    g_array_append_val (loop.arrivals, a);
  }
}

static void
receive (Shim *shim, ShimUser *u, ShimDirection dir)
{
  RecvBatch *rb = &loop.recv;
  int fd = dir == SHIM_DOWN ? u->listen_fd : u->forward_fd;

  if (u->tun) {
    receive_tun (u, dir);
    return;
  }

  for (guint round = 0; round < SHIM_READ_BUDGET; round++) {
    for (guint i = 0; i < SHIM_BATCH; i++) {
      if (rb->slot[i] == NULL)
        rb->slot[i] = shim_packet_new_slot ();
      rb->iov[i][0] = (struct iovec) { rb->slot[i]->data, SHIM_SLOT_PAYLOAD };
      rb->iov[i][1] = (struct iovec) {
        rb->spill + (gsize) i * SHIM_SPILL_SIZE, SHIM_SPILL_SIZE };
      rb->msgs[i].msg_hdr = (struct msghdr) {
        .msg_name = &rb->addr[i], .msg_namelen = sizeof rb->addr[i],
        .msg_iov = rb->iov[i], .msg_iovlen = 2,
        .msg_control = rb->control[i].buf,
        .msg_controllen = sizeof rb->control[i].buf };
    }
    int n = recvmmsg (fd, rb->msgs, SHIM_BATCH, MSG_DONTWAIT, NULL);
    if (n <= 0)
      return;
    OctoTime now = shim_clock_now ();
    /* Kernel timestamps are on the real-time clock. */
    gint64 realtime_offset = g_get_real_time () * 1000 - (gint64) now;
    if (dir == SHIM_DOWN) {
      struct msghdr *last = &rb->msgs[n - 1].msg_hdr;
      memcpy (&u->last_sender.ss, last->msg_name, last->msg_namelen);
      u->last_sender.len = last->msg_namelen;
      u->have_sender = TRUE;
    } else if (!u->have_sender) {
      u->no_sender += n;
      continue;
    }
    if (shim->bare) {
      forward_bare (u, dir, n);
      continue;
    }
    for (int i = 0; i < n; i++) {
      gsize len = rb->msgs[i].msg_len;
      ShimPacket *p = rb->slot[i];
      if (rb->msgs[i].msg_hdr.msg_flags & MSG_TRUNC) {
        u->oversized++;
        continue;
      }
      /* A small datagram gets a copy of its size, the slot is reused: the
       * queues charge bytes, and a flood of tiny datagrams must not hold a
       * whole slot each. */
      if (len > SHIM_SLOT_PAYLOAD)
        p = shim_packet_new_copy (p->data, SHIM_SLOT_PAYLOAD,
            rb->iov[i][1].iov_base, len - SHIM_SLOT_PAYLOAD);
      else if (len <= SHIM_SMALL_PAYLOAD)
        p = shim_packet_new_copy (p->data, len, NULL, 0);
      else
        rb->slot[i] = NULL;
      p->len = len;
      Arrival a = { .time = MIN (kernel_arrival (&rb->msgs[i].msg_hdr,
                realtime_offset, now), now), .seq = loop.arrivals->len,
        .user = u, .dir = dir, .packet = p };
      memcpy (&a.from.ss, &rb->addr[i], rb->msgs[i].msg_hdr.msg_namelen);
      a.from.len = rb->msgs[i].msg_hdr.msg_namelen;
      g_array_append_val (loop.arrivals, a);
    }
    if (n < SHIM_BATCH)
      return;
  }
}

static gint
compare_arrivals (gconstpointer a, gconstpointer b)
{
  const Arrival *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void
enqueue_arrivals (Shim *shim)
{
  g_array_sort (loop.arrivals, compare_arrivals);
  for (guint i = 0; i < loop.arrivals->len; i++) {
    Arrival *a = &g_array_index (loop.arrivals, Arrival, i);
    enqueue (shim, a->user, a->dir, &a->from, a->packet,
        advance_to (shim, a->user->link, a->dir, a->time));
  }
  g_array_set_size (loop.arrivals, 0);
}

static void
handle_signals (Shim *shim)
{
  struct signalfd_siginfo si;
  GError *error = NULL;

  while (read (loop.signal_fd, &si, sizeof si) == sizeof si) {
    if (si.ssi_signo == SIGCHLD) {
      if (shim->shell && shim_shell_reap (shim->shell, &shim->shell_status))
        loop.quit = TRUE;
    } else if (si.ssi_signo != SIGUSR1) {
      loop.quit = TRUE;
    } else if (shim->stats_path && !shim_stats_write (shim, &error)) {
      shim_print_error (error->message);
      g_clear_error (&error);
    }
  }
}

int
shim_run (Shim *shim)
{
  struct epoll_event events[32];
  guint64 expirations;

  while (!loop.quit) {
    if (!shim->bare)
      arm_timer (shim);
    int n = epoll_wait (loop.epoll_fd, events, G_N_ELEMENTS (events), -1);
    OctoTime polled = shim_clock_now ();
    if (n < 0 && errno != EINTR) {
      g_printerr ("octopus-shim: epoll_wait: %s\n", g_strerror (errno));
      return 1;
    }
    for (int i = 0; i < n; i++) {
      guint64 tag = events[i].data.u64;
      ShimUser *u = shim->users->pdata[tag >> 3];
      switch (tag & 7) {
        case EV_LISTEN:
          receive (shim, u, SHIM_DOWN);
          break;
        case EV_FORWARD:
          receive (shim, u, SHIM_UP);
          break;
        case EV_TIMER:
          if (read (loop.timer_fd, &expirations, sizeof expirations) > 0)
            loop.armed = 0;
          break;
        case EV_SIGNAL:
          handle_signals (shim);
          break;
        case EV_DEADLINE:
          loop.quit = TRUE;
          break;
        case EV_METER:
          if (read (loop.meter_fd, &expirations, sizeof expirations) > 0)
            loop.meter_due = TRUE;
          break;
      }
    }
    if (!shim->bare) {
      enqueue_arrivals (shim);
      serve_links (shim, polled);
    }
    if (loop.meter_due) {
      /* One write per interval, off the packets' path. */
      GString *lines = g_string_new (NULL);
      shim_meter_sample (shim, polled, lines);
      fputs (lines->str, stderr);
      g_string_free (lines, TRUE);
      loop.meter_due = FALSE;
    }
  }
  return 0;
}

static void
free_packet (const OctoPacket *packet)
{
  shim_packet_free (packet->data);
}

void
shim_teardown (Shim *shim)
{
  OctoPacket p;

  /* What is still queued at exit was neither sent nor dropped by a rule:
   * it must not show up in the log as drops. */
  shim_log_close (shim);
  for (guint i = 0; shim->users && i < shim->users->len; i++) {
    ShimUser *u = shim->users->pdata[i];
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
      if (u->qdisc[d] == NULL)
        continue;
      /* What the queue still drops on the way is freed by the callback. */
      while (octo_qdisc_dequeue (u->qdisc[d], G_MAXUINT64 / 2, &p))
        free_packet (&p);
    }
  }
  for (guint l = 0; l < shim->n_links; l++)
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++) {
      OctoLink **link = &shim->links[l].link[d];

      while (*link && octo_link_drain (*link, &p))
        free_packet (&p);
      octo_link_free (*link);
      *link = NULL;
    }
  for (guint i = 0; shim->users && i < shim->users->len; i++) {
    ShimUser *u = shim->users->pdata[i];
    for (guint d = 0; d < SHIM_N_DIRECTIONS; d++)
      octo_qdisc_free (u->qdisc[d]);
    if (u->streams)
      g_hash_table_destroy (u->streams);
    if (u->listen_fd >= 0)
      close (u->listen_fd);
    if (u->forward_fd >= 0)
      close (u->forward_fd);
  }
  int fds[] = { loop.epoll_fd, loop.timer_fd, loop.signal_fd,
    loop.deadline_fd, loop.meter_fd };
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    if (fds[i] >= 0)
      close (fds[i]);
  for (guint i = 0; i < SHIM_BATCH; i++)
    if (loop.recv.slot[i])
      shim_packet_free (loop.recv.slot[i]);
  shim_pool_clear ();
  g_free (loop.recv.spill);
  if (loop.arrivals)
    g_array_free (loop.arrivals, TRUE);
}
