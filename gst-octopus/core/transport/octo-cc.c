/* gst-octopus core: the controllers behind OctoCcOps (see octo-cc.h). */
#include "octo-cc.h"

void
octo_cc_free (OctoCc *cc)
{
  if (cc)
    cc->ops->free (cc);
}

void
octo_cc_on_nack (OctoCc *cc, guint trimmed, OctoTime now)
{
  if (cc->ops->on_nack && trimmed > 0)
    cc->ops->on_nack (cc, trimmed, now);
}

/* BBR and Delay-BBR. */

typedef struct {
  OctoCc cc;
  OctoBbr *bbr;
} BbrCc;

#define BBR_OF(cc) (((const BbrCc *) (cc))->bbr)

static void
bbr_free (OctoCc *cc)
{
  octo_bbr_free (((BbrCc *) cc)->bbr);
  g_free (cc);
}

static void
bbr_on_send (OctoCc *cc, guint64 seq, guint64 inflight, gboolean app_limited,
    OctoTime now)
{
  octo_bbr_on_send (((BbrCc *) cc)->bbr, seq, inflight, app_limited, now);
}

static void
bbr_on_ack (OctoCc *cc, const OctoRateSample *rs, guint64 delivered,
    guint64 inflight, OctoTime now)
{
  octo_bbr_on_ack (((BbrCc *) cc)->bbr, rs, delivered, inflight, now);
}

static void
bbr_on_timeout (OctoCc *cc, guint64 inflight, OctoTime now)
{
  octo_bbr_on_timeout (((BbrCc *) cc)->bbr, inflight, now);
}

static guint64
bbr_pacing_rate (const OctoCc *cc)
{
  return octo_bbr_pacing_rate (BBR_OF (cc));
}

static guint64
bbr_bandwidth (const OctoCc *cc)
{
  return octo_bbr_bandwidth (BBR_OF (cc));
}

static guint64
bbr_cwnd (const OctoCc *cc)
{
  return octo_bbr_cwnd (BBR_OF (cc));
}

static OctoTime
bbr_min_rtt (const OctoCc *cc)
{
  return octo_bbr_min_rtt (BBR_OF (cc));
}

static gboolean
bbr_probing (const OctoCc *cc)
{
  OctoBbrMode mode = octo_bbr_mode (BBR_OF (cc));

  return mode == OCTO_BBR_STARTUP ||
      (mode == OCTO_BBR_PROBE_BW && octo_bbr_pacing_gain (BBR_OF (cc)) > 1.0);
}

static gboolean
bbr_draining (const OctoCc *cc)
{
  OctoBbrMode mode = octo_bbr_mode (BBR_OF (cc));

  return mode == OCTO_BBR_DRAIN || mode == OCTO_BBR_PROBE_RTT ||
      octo_bbr_pacing_gain (BBR_OF (cc)) < 1.0;
}

static gboolean
bbr_searching (const OctoCc *cc)
{
  return octo_bbr_mode (BBR_OF (cc)) == OCTO_BBR_STARTUP;
}

static const gchar *
bbr_state (const OctoCc *cc)
{
  return octo_bbr_mode_to_string (octo_bbr_mode (BBR_OF (cc)));
}

static const OctoCcOps bbr_ops = {
  .free = bbr_free,
  .on_send = bbr_on_send,
  .on_ack = bbr_on_ack,
  .on_timeout = bbr_on_timeout,
  .pacing_rate = bbr_pacing_rate,
  .bandwidth = bbr_bandwidth,
  .cwnd = bbr_cwnd,
  .min_rtt = bbr_min_rtt,
  .probing = bbr_probing,
  .draining = bbr_draining,
  .searching = bbr_searching,
  .state = bbr_state,
};

OctoCc *
octo_cc_new_bbr (const OctoBbrConfig *config, OctoTime now)
{
  BbrCc *b = g_new0 (BbrCc, 1);

  b->cc.ops = &bbr_ops;
  b->bbr = octo_bbr_new (config, now);
  return &b->cc;
}

/* A fixed rate. */

typedef struct {
  OctoCc cc;
  guint64 pacing_rate, bandwidth;
} FixedCc;

static void
fixed_free (OctoCc *cc)
{
  g_free (cc);
}

static guint64
fixed_pacing_rate (const OctoCc *cc)
{
  return ((const FixedCc *) cc)->pacing_rate;
}

static guint64
fixed_bandwidth (const OctoCc *cc)
{
  const FixedCc *f = (const FixedCc *) cc;

  return f->bandwidth ? f->bandwidth : f->pacing_rate;
}

static guint64
fixed_cwnd (const OctoCc *cc)
{
  (void) cc;
  return OCTO_CC_NO_WINDOW;
}

static const gchar *
fixed_state (const OctoCc *cc)
{
  (void) cc;
  return "fixed";
}

static const OctoCcOps fixed_ops = {
  .free = fixed_free,
  .pacing_rate = fixed_pacing_rate,
  .bandwidth = fixed_bandwidth,
  .cwnd = fixed_cwnd,
  .state = fixed_state,
};

OctoCc *
octo_cc_new_fixed (guint64 pacing_rate, guint64 bandwidth)
{
  FixedCc *f = g_new0 (FixedCc, 1);

  f->cc.ops = &fixed_ops;
  f->pacing_rate = pacing_rate;
  f->bandwidth = bandwidth;
  return &f->cc;
}

void
octo_cc_fixed_set_rates (OctoCc *cc, guint64 pacing_rate, guint64 bandwidth)
{
  FixedCc *f = (FixedCc *) cc;

  g_return_if_fail (cc->ops == &fixed_ops);
  f->pacing_rate = pacing_rate;
  f->bandwidth = bandwidth;
}
