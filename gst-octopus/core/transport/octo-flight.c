/* gst-octopus core: packets in flight and delivery-rate sampling
 * (see octo-flight.h). */
#include "octo-flight.h"

#include <string.h>

typedef struct {
  OctoTime sent_time;
  OctoTime delivered_time;      /* connection's, when this was sent */
  OctoTime first_sent_time;     /* start of the send interval it closes */
  guint64 sent_total;           /* connection's bytes sent, this one included */
  guint64 first_sent_total;     /* ... at the start of that interval */
  guint64 delivered;
  guint32 delivered_arrival_us; /* connection's, when this was sent */
  gboolean arrival_known;       /* ... and whether it had one */
  guint32 bytes;
  gboolean in_flight;
  gboolean app_limited;
} SentPacket;

#define RING_INITIAL 1024
/* Beyond this many outstanding packets the oldest are counted lost. */
#define RING_MAX (1u << 20)

struct _OctoFlight {
  SentPacket *ring;
  guint64 cap;                  /* power of two */
  guint64 base;                 /* oldest seq still tracked */
  guint64 next;                 /* next seq to send */
  guint64 inflight;
  guint64 delivered;
  OctoTime delivered_time;
  /* The receiver's clock when the newest delivered packet arrived (ACKs
   * with TIMESTAMPS); not known before the first such ACK and after the
   * sender fell idle, whose next interval starts at a send. */
  guint32 delivered_arrival_us;
  gboolean delivered_arrival_known;
  OctoTime first_sent_time;
  guint64 first_sent_total;
  guint64 app_limited_until;    /* 0 = not app-limited */
  guint64 largest_acked;
  gboolean any_acked;
  OctoTime srtt, min_rtt;
  gboolean srtt_stale;          /* the next sample replaces srtt */
  OctoFlightStats stats;
};

static inline SentPacket *
slot (const OctoFlight *f, guint64 seq)
{
  return &f->ring[seq & (f->cap - 1)];
}

OctoFlight *
octo_flight_new (void)
{
  OctoFlight *f = g_new0 (OctoFlight, 1);
  f->cap = RING_INITIAL;
  f->ring = g_new0 (SentPacket, f->cap);
  return f;
}

void
octo_flight_free (OctoFlight *flight)
{
  if (!flight)
    return;
  g_free (flight->ring);
  g_free (flight);
}

static void
mark_lost (OctoFlight *f, SentPacket *p)
{
  p->in_flight = FALSE;
  f->inflight -= p->bytes;
  f->stats.packets_lost++;
  f->stats.bytes_lost += p->bytes;
}

static void
advance_base (OctoFlight *f)
{
  while (f->base < f->next && !slot (f, f->base)->in_flight)
    f->base++;
}

static void
grow (OctoFlight *f)
{
  if (f->cap >= RING_MAX) {
    mark_lost (f, slot (f, f->base));
    advance_base (f);
    return;
  }
  SentPacket *ring = g_new0 (SentPacket, f->cap * 2);
  for (guint64 s = f->base; s < f->next; s++)
    ring[s & (f->cap * 2 - 1)] = *slot (f, s);
  g_free (f->ring);
  f->ring = ring;
  f->cap *= 2;
}

guint64
octo_flight_on_sent (OctoFlight *flight, guint32 bytes, OctoTime now)
{
  OctoFlight *f = flight;

  if (f->next - f->base == f->cap)
    grow (f);
  if (f->inflight == 0) {
    /* Nothing in flight: the next interval starts now, not at the last ACK. */
    f->first_sent_time = now;
    f->first_sent_total = f->stats.bytes_sent;
    f->delivered_time = now;
    f->delivered_arrival_known = FALSE;
  }
  SentPacket *p = slot (f, f->next);
  p->sent_time = now;
  p->delivered_time = f->delivered_time;
  p->first_sent_time = f->first_sent_time;
  p->first_sent_total = f->first_sent_total;
  p->sent_total = f->stats.bytes_sent + bytes;
  p->delivered = f->delivered;
  p->delivered_arrival_us = f->delivered_arrival_us;
  p->arrival_known = f->delivered_arrival_known;
  p->bytes = bytes;
  p->in_flight = TRUE;
  p->app_limited = f->app_limited_until != 0;
  f->inflight += bytes;
  f->stats.packets_sent++;
  f->stats.bytes_sent += bytes;
  return f->next++;
}

void
octo_flight_mark_app_limited (OctoFlight *flight)
{
  flight->app_limited_until = MAX (flight->delivered + flight->inflight, 1);
}

/* The 64-bit seq a 32-bit one names: the newest one not after next - 1. */
static gboolean
expand_seq (const OctoFlight *f, guint32 seq32, guint64 *out)
{
  guint32 back = (guint32) f->next - seq32;

  if (back == 0 || back > f->next || back >= 0x80000000u)
    return FALSE;
  *out = f->next - back;
  return TRUE;
}

static void
update_rtt (OctoFlight *f, OctoTime rtt)
{
  if (f->srtt == 0 || f->srtt_stale)
    f->srtt = rtt;
  else
    f->srtt = (7 * f->srtt + rtt) / 8;
  if (f->min_rtt == 0 || rtt < f->min_rtt)
    f->min_rtt = rtt;
  f->srtt_stale = FALSE;
}

void
octo_flight_expire_srtt (OctoFlight *flight)
{
  flight->srtt_stale = flight->srtt != 0;
}

/* What the rate sample takes from the most recently sent packet an ACK
 * covers. */
typedef struct {
  gboolean have;
  OctoTime send_elapsed, ack_elapsed;
  guint64 sent_in_interval;
  guint32 delivered_arrival_us;
  gboolean arrival_known;
} Prior;

static void
ack_packet (OctoFlight *f, guint64 seq, SentPacket *p, OctoTime now,
    OctoRateSample *rs, Prior *prior)
{
  p->in_flight = FALSE;
  f->inflight -= p->bytes;
  f->delivered += p->bytes;
  f->delivered_time = now;
  f->stats.packets_acked++;
  f->stats.bytes_acked += p->bytes;
  rs->newly_acked += p->bytes;

  /* The sample comes from the most recently sent packet this ACK covers. */
  if (!prior->have || seq > rs->last_acked_seq) {
    prior->have = TRUE;
    rs->prior_delivered = p->delivered;
    rs->is_app_limited = p->app_limited;
    prior->send_elapsed = p->sent_time - p->first_sent_time;
    prior->ack_elapsed = now - p->delivered_time;
    prior->sent_in_interval = p->sent_total - p->first_sent_total;
    prior->delivered_arrival_us = p->delivered_arrival_us;
    prior->arrival_known = p->arrival_known;
    f->first_sent_time = p->sent_time;
    f->first_sent_total = p->sent_total;
    rs->last_acked_seq = seq;
    rs->rtt = now - p->sent_time;
  }
  if (!f->any_acked || seq > f->largest_acked) {
    f->largest_acked = seq;
    f->any_acked = TRUE;
  }
}

/* An app-limited sample still measures the path when, over a send interval
 * of at least half a round trip, the path delivered clearly less than the
 * sender put into it (queueing or drops in the network, not a lack of
 * data): such samples may lower the bandwidth estimate. */
static gboolean
path_limited (const OctoFlight *f, OctoTime send_elapsed,
    guint64 sent_in_interval, guint64 delivery_rate)
{
  if (send_elapsed == 0 || 2 * send_elapsed < f->min_rtt)
    return FALSE;
  guint64 send_rate = sent_in_interval * 8 * OCTO_SECOND / send_elapsed;
  return send_rate > delivery_rate + delivery_rate / OCTO_FLIGHT_PATH_LIMITED_MARGIN;
}

void
octo_flight_on_ack (OctoFlight *flight, const OctoAck *ack, OctoTime now,
    OctoRateSample *rs)
{
  OctoFlight *f = flight;
  Prior prior = { 0 };
  guint64 largest_in_ack = 0;
  gboolean largest_newly_acked = FALSE;

  memset (rs, 0, sizeof (*rs));

  for (guint i = 0; i < ack->n_ranges; i++) {
    guint64 first, last;
    if (!expand_seq (f, ack->ranges[i].last, &last)) {
      f->stats.acks_ignored++;
      continue;
    }
    first = last - (guint32) (ack->ranges[i].last - ack->ranges[i].first);
    if (i == 0)
      largest_in_ack = last;
    /* Only seqs still tracked can be newly acknowledged. */
    for (guint64 s = MAX (first, f->base); s <= last && s < f->next; s++) {
      SentPacket *p = slot (f, s);
      if (!p->in_flight)
        continue;
      if (s == largest_in_ack)
        largest_newly_acked = TRUE;
      ack_packet (f, s, p, now, rs, &prior);
    }
    if (f->base > last)
      break;                    /* older ranges are all settled */
  }

  if (prior.have) {
    /* the sample's packet is the one the ACK's delay and stamp are of */
    gboolean of_largest = largest_newly_acked &&
        rs->last_acked_seq == largest_in_ack;
    gboolean stamped = (ack->flags & OCTO_ACK_FLAG_TIMESTAMPS) && of_largest;
    guint32 arrival_elapsed_us = ack->arrival_us - prior.delivered_arrival_us;

    /* The receiver's hold time is not path delay. */
    OctoTime delay = (OctoTime) ack->ack_delay_us * OCTO_USECOND;
    if (of_largest && rs->rtt > delay)
      rs->rtt -= delay;
    update_rtt (f, rs->rtt);

    if (f->app_limited_until && f->delivered > f->app_limited_until)
      f->app_limited_until = 0;

    /* Delivery intervals from the receiver's arrival times where the ACK
     * has them: ACKs that were held back or bunched on their way (a
     * stalled up link, batched feedback) then neither stretch nor
     * compress the sample.  A stamp older than the interval's start (a
     * receiver clock stepped back) falls back to the ACK times. */
    if (stamped && prior.arrival_known && arrival_elapsed_us < 0x80000000u)
      rs->interval = MAX (prior.send_elapsed,
          (OctoTime) arrival_elapsed_us * OCTO_USECOND);
    else
      rs->interval = MAX (prior.send_elapsed, prior.ack_elapsed);
    if (stamped) {
      f->delivered_arrival_us = ack->arrival_us;
      f->delivered_arrival_known = TRUE;
    }
    rs->delivered = f->delivered - rs->prior_delivered;
    /* Shorter than min_rtt: ACK compression would inflate the rate. */
    if (rs->interval > 0 && rs->interval >= f->min_rtt)
      rs->delivery_rate = rs->delivered * 8 * OCTO_SECOND / rs->interval;
    if (rs->delivery_rate > 0 && rs->is_app_limited &&
        path_limited (f, prior.send_elapsed, prior.sent_in_interval,
            rs->delivery_rate))
      rs->is_app_limited = FALSE;
  }

  /* Packet-threshold loss. */
  if (f->any_acked && f->largest_acked >= OCTO_FLIGHT_REORDER_PACKETS) {
    guint64 limit = f->largest_acked - OCTO_FLIGHT_REORDER_PACKETS;
    for (guint64 s = f->base; s < limit; s++) {
      SentPacket *p = slot (f, s);
      if (p->in_flight) {
        mark_lost (f, p);
        rs->newly_lost += p->bytes;
      }
    }
  }
  advance_base (f);
}

OctoTime
octo_flight_loss_timeout (const OctoFlight *f)
{
  return f->srtt ? MAX (OCTO_FLIGHT_TIMEOUT_RTTS * f->srtt,
      OCTO_FLIGHT_MIN_TIMEOUT) : OCTO_FLIGHT_INITIAL_TIMEOUT;
}

guint64
octo_flight_on_timer (OctoFlight *flight, OctoTime now)
{
  OctoFlight *f = flight;
  OctoTime timeout = octo_flight_loss_timeout (f);
  guint64 lost = 0;

  /* Send times grow with seq: stop at the first packet still in time. */
  for (guint64 s = f->base; s < f->next; s++) {
    SentPacket *p = slot (f, s);
    if (!p->in_flight)
      continue;
    if (p->sent_time + timeout > now)
      break;
    mark_lost (f, p);
    lost += p->bytes;
  }
  advance_base (f);
  return lost;
}

OctoTime
octo_flight_next_timeout (const OctoFlight *flight)
{
  if (flight->base == flight->next)
    return OCTO_TIME_NONE;
  return slot (flight, flight->base)->sent_time +
      octo_flight_loss_timeout (flight);
}

gboolean
octo_flight_on_trimmed (OctoFlight *flight, guint32 seq32, guint32 bytes)
{
  guint64 seq;
  SentPacket *p;

  if (!expand_seq (flight, seq32, &seq) || !octo_flight_outstanding (flight,
          seq))
    return FALSE;
  p = slot (flight, seq);
  if (bytes >= p->bytes)
    return FALSE;
  p->bytes -= bytes;
  flight->inflight -= bytes;
  return TRUE;
}

gboolean
octo_flight_outstanding (const OctoFlight *flight, guint64 seq)
{
  return seq >= flight->base && seq < flight->next &&
      slot (flight, seq)->in_flight;
}

guint64
octo_flight_inflight (const OctoFlight *flight)
{
  return flight->inflight;
}

gboolean
octo_flight_is_app_limited (const OctoFlight *flight)
{
  return flight->app_limited_until != 0;
}

OctoTime
octo_flight_srtt (const OctoFlight *flight)
{
  return flight->srtt;
}

OctoTime
octo_flight_min_rtt (const OctoFlight *flight)
{
  return flight->min_rtt;
}

const OctoFlightStats *
octo_flight_get_stats (const OctoFlight *flight)
{
  return &flight->stats;
}
