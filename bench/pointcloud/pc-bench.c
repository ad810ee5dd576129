/* pc-bench: the cost of layering a point-cloud frame.  Densifies a PLY
 * cloud to about 100 k points (jittered copies), then times per frame —
 * layered: octo_pc_encode_frame (cells x density layers, each layer its
 * own Draco stream on the shared grid; on the worker threads and, for
 * reference, on one) and decoding + merging all layers;
 * baseline: one Draco encode and decode of the whole frame on the same
 * grid, method and speed — and compares the bytes.  Prints the medians
 * and the ratios to the baseline measured in the same run.
 *
 *   build/bench/pointcloud/pc-bench data/media/bun_zipper.ply */
#include "pc-encode.h"
#include "pc-layer.h"
#include "pc-ply.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static gint target_points = 100000, frames = 15, cells = 2, layers = 5;
static gint speed = 4, bits = 11, threads = 0;
static gboolean sequential = FALSE;

static const GOptionEntry entries[] = {
  {"points", 'n', 0, G_OPTION_ARG_INT, &target_points,
      "Densify to at least this many points (default 100000)", "N"},
  {"frames", 'f', 0, G_OPTION_ARG_INT, &frames,
      "Frames to time; medians are reported (default 15)", "N"},
  {"cells", 'c', 0, G_OPTION_ARG_INT, &cells,
      "Cells per ground axis (default 2: 2x2)", "N"},
  {"layers", 'l', 0, G_OPTION_ARG_INT, &layers,
      "Density layers per cell (default 5; 2x2x5 = 20 layers)", "N"},
  {"speed", 's', 0, G_OPTION_ARG_INT, &speed,
      "Draco speed 0..10 (default 4, octopuspcenc's)", "N"},
  {"bits", 'b', 0, G_OPTION_ARG_INT, &bits,
      "Position quantisation bits (default 11)", "N"},
  {"threads", 't', 0, G_OPTION_ARG_INT, &threads,
      "Threads coding the layers (default 0: octopuspcenc's default, the "
      "processors up to 4)", "N"},
  {"sequential", 0, 0, G_OPTION_ARG_NONE, &sequential,
      "Draco sequential coding instead of kd-tree", NULL},
  G_OPTION_ENTRY_NULL
};

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Copies of @src jittered by about a tenth of the mean point spacing,
 * until there are at least @target points. */
static GArray *
densify (const GArray *src, guint target)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
  GRand *r = g_rand_new_with_seed (1);
  float min[3], max[3];
  double jitter;

  octo_pc_bounds ((const OctoPcPoint *) src->data, src->len, min, max);
  jitter = 0.1 * (max[0] - min[0]) / cbrt ((double) src->len);
  g_array_append_vals (out, src->data, src->len);
  while (out->len < target)
    for (guint i = 0; i < src->len; i++) {
      OctoPcPoint p = g_array_index (src, OctoPcPoint, i);
      for (guint a = 0; a < 3; a++)
        p.xyz[a] += (float) g_rand_double_range (r, -jitter, jitter);
      g_array_append_val (out, p);
    }
  g_rand_free (r);
  return out;
}

/* Wall time, and CPU time of all the process's threads: on a busy
 * machine the CPU time still says what the work costs. */
enum { ENC_LAYERED, ENC_LAYERED_1, DEC_LAYERED, ENC_SINGLE, DEC_SINGLE,
  N_MEASURES };

typedef struct {
  double wall0, cpu0;
  double *wall[N_MEASURES], *cpu[N_MEASURES];
} Clock;

static double
cpu_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
start (Clock *c)
{
  c->wall0 = g_get_monotonic_time () / 1000.0;
  c->cpu0 = cpu_ms ();
}

static void
stop (Clock *c, guint measure, gint frame)
{
  c->wall[measure][frame] = g_get_monotonic_time () / 1000.0 - c->wall0;
  c->cpu[measure][frame] = cpu_ms () - c->cpu0;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("CLOUD.ply - layering cost");
  GError *error = NULL;
  gchar *data;
  gsize len;
  GArray *src, *cloud;
  OctoPcEncodeConfig config;
  OctoPcViewport vp = { {0, 0, -10}, {0, 0, 1} };
  Clock clk;
  OctoPcWorkers *workers, *one;
  gsize bytes_l = 0, bytes_s = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc != 2
      || frames < 1 || cells < 1 || cells > OCTO_PC_MAX_GRID || layers < 1
      || layers > OCTO_PC_MAX_LAYERS || threads < 0 || threads > 64) {
    g_printerr ("pc-bench: %s\n%s", error ? error->message :
        "need one PLY file and sane options",
        g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  if (!g_file_get_contents (argv[1], &data, &len, &error)
      || !(src = octo_pc_ply_parse ((const guint8 *) data, len, &error))) {
    g_printerr ("pc-bench: %s: %s\n", argv[1], error->message);
    return 1;
  }
  g_free (data);
  cloud = densify (src, (guint) target_points);
  config = (OctoPcEncodeConfig) { cells, cells, layers,
    sequential ? OCTO_PC_DRACO_SEQUENTIAL : OCTO_PC_DRACO_KD_TREE, speed,
    bits, 0 };
  workers = octo_pc_workers_new (threads ? (guint) threads :
      octo_pc_workers_default_threads ());
  one = octo_pc_workers_new (1);
  for (guint m = 0; m < N_MEASURES; m++) {
    clk.wall[m] = g_new (double, frames);
    clk.cpu[m] = g_new (double, frames);
  }

  for (gint f = 0; f < frames; f++) {
    const OctoPcPoint *pts = (const OctoPcPoint *) cloud->data;
    OctoPcMerger *merger = octo_pc_merger_new ();
    OctoPcMergedFrame *done = NULL;
    OctoPcDracoParams params = { config.method, speed, bits, {0}, 0 };
    float min[3], max[3];
    GArray *msgs, *whole_dec;
    GBytes *whole;

    /* layered: encode (partition included) on one thread and on the
     * workers (the same bytes), then decode and merge */
    start (&clk);
    msgs = octo_pc_encode_frame (pts, cloud->len, &config, &vp, (guint32) f,
        one, &error);
    stop (&clk, ENC_LAYERED_1, f);
    g_assert_no_error (error);
    octo_pc_layer_messages_free (msgs);
    start (&clk);
    msgs = octo_pc_encode_frame (pts, cloud->len, &config, &vp, (guint32) f,
        workers, &error);
    stop (&clk, ENC_LAYERED, f);
    g_assert_no_error (error);
    bytes_l = 0;
    start (&clk);
    for (guint i = 0; i < msgs->len; i++) {
      GBytes *b = g_array_index (msgs, OctoPcLayerMessage, i).message;
      bytes_l += g_bytes_get_size (b);
      if (octo_pc_merger_push (merger, g_bytes_get_data (b, NULL),
              g_bytes_get_size (b), &done, &error) != OCTO_PC_MERGE_ADDED)
        g_error ("layer %u: %s", i, error ? error->message : "refused");
    }
    done = octo_pc_merger_flush (merger);
    stop (&clk, DEC_LAYERED, f);
    g_assert_cmpuint (done->points->len, ==, cloud->len);
    octo_pc_merged_frame_free (done);
    octo_pc_merger_free (merger);
    octo_pc_layer_messages_free (msgs);

    /* baseline: the whole frame as one Draco stream on the same grid */
    start (&clk);
    octo_pc_bounds (pts, cloud->len, min, max);
    for (guint a = 0; a < 3; a++) {
      params.origin[a] = min[a];
      params.range = MAX (params.range, max[a] - min[a]);
    }
    whole = octo_pc_draco_encode (pts, NULL, cloud->len, &params, &error);
    stop (&clk, ENC_SINGLE, f);
    g_assert_no_error (error);
    bytes_s = g_bytes_get_size (whole);
    whole_dec = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
    start (&clk);
    if (!octo_pc_draco_decode (g_bytes_get_data (whole, NULL), bytes_s,
            whole_dec, &error))
      g_error ("whole frame: %s", error->message);
    stop (&clk, DEC_SINGLE, f);
    g_assert_cmpuint (whole_dec->len, ==, cloud->len);
    g_array_unref (whole_dec);
    g_bytes_unref (whole);
  }

  {
    static const char *rows[] = { "encode", "encode, layers on 1 thread",
      "decode (+ merge)" };
    static const guint layered[] = { ENC_LAYERED, ENC_LAYERED_1,
      DEC_LAYERED };
    static const guint single[] = { ENC_SINGLE, ENC_SINGLE, DEC_SINGLE };
    double ratio[3];

    printf ("pc-bench: %u points (%s densified), %dx%d cells x %d layers "
        "= %d messages, Draco %s speed %d, %d bits, median of %d frames; "
        "layers coded on %u threads, the single stream on 1 (Draco codes "
        "one stream on one thread)\n",
        cloud->len, argv[1], cells, cells, layers, cells * cells * layers,
        sequential ? "sequential" : "kd-tree", speed, bits, frames,
        octo_pc_workers_threads (workers));
    printf ("%-28s %10s %10s %8s %10s %10s\n", "per frame, ms", "layered",
        "single", "ratio", "cpu lay.", "cpu sing.");
    for (guint r = 0; r < 3; r++) {
      double wl = median (clk.wall[layered[r]], frames);
      double ws = median (clk.wall[single[r]], frames);
      ratio[r] = wl / ws;
      printf ("%-28s %10.2f %10.2f %8.3f %10.2f %10.2f\n", rows[r], wl, ws,
          ratio[r], median (clk.cpu[layered[r]], frames),
          median (clk.cpu[single[r]], frames));
    }
    printf ("%-28s %10zu %10zu %8.3f\n", "bytes (layer headers incl.)",
        bytes_l, bytes_s, (double) bytes_l / (double) bytes_s);
    printf ("layering overhead: %+.1f %% bytes, %+.1f %% encode time "
        "(%+.1f %% on 1 thread)\n",
        100.0 * ((double) bytes_l / (double) bytes_s - 1.0),
        100.0 * (ratio[0] - 1.0), 100.0 * (ratio[1] - 1.0));
  }
  for (guint m = 0; m < N_MEASURES; m++) {
    g_free (clk.wall[m]);
    g_free (clk.cpu[m]);
  }
  octo_pc_workers_free (workers);
  octo_pc_workers_free (one);
  g_array_unref (cloud);
  g_array_unref (src);
  g_option_context_free (ctx);
  return 0;
}
