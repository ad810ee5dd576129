/* The WebRTC baseline's transport in the simulator: the sender paces at
 * GCC's target as WebRTC's pacer does (octo_gcc_pacing_bps), the receiver
 * returns per-packet arrival times every 20 ms (transport-wide congestion control
 * feedback), which reach the sender one propagation delay later.  The
 * controller starts, floors and caps as demo-pipelines/webrtc-call.py's
 * gcc arm configures rtpgccbwe (and its receivers send RTCP), so that the
 * two compare (bench/validate-live.py).
 *
 * Probing: the core's controller (octo-gcc-probe.h) decides when and at
 * which rate; here its clusters are sent as padding and measured. */
#pragma once

#include "octo-gcc.h"
#include "octo-gcc-probe.h"
#include "sim-world.h"

G_BEGIN_DECLS

#define SIM_GCC_FEEDBACK_INTERVAL (20 * OCTO_MSECOND)
#define SIM_GCC_INITIAL_BPS 1000000
#define SIM_GCC_MIN_BPS 200000
#define SIM_GCC_MAX_BPS 6000000

typedef struct _SimGcc SimGcc;

/* Hooks itself into flow @flow's packet observers; the flow must be an
 * OctoSender of FIXED rate. */
SimGcc *sim_gcc_new (SimWorld *world, guint flow, OctoTime one_way_delay,
    OctoTime rtt);
void sim_gcc_free (SimGcc *gcc);

/* Sends and receives the feedback due at @now and updates the sender's
 * rates; returns when to run next. */
OctoTime sim_gcc_run (SimGcc *gcc, OctoTime now);
/* The app reports the bytes of every frame it submits (ALR detection). */
void sim_gcc_on_app_bytes (SimGcc *gcc, guint32 bytes, OctoTime now);

G_END_DECLS
