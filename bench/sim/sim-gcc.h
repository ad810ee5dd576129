/* The WebRTC baseline's transport in the simulator: the sender paces at
 * GCC's target (x 2.5, WebRTC's pacing factor) and the receiver returns
 * per-packet arrival times every 50 ms (transport-wide congestion control
 * feedback), which reach the sender one propagation delay later.
 *
 * Probing as libwebrtc's ProbeController: clusters of padding (15 ms, at
 * least 5 packets) at 3x the start rate, then 2x each successful result
 * while results keep up (>= 70 % of the probe), and every 5 s at 2x the
 * target while the app sends less than 80 % of it (application-limited). */
#pragma once

#include "octo-gcc.h"
#include "sim-world.h"

G_BEGIN_DECLS

#define SIM_GCC_FEEDBACK_INTERVAL (50 * OCTO_MSECOND)
#define SIM_GCC_PACING_FACTOR 2.5

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
