/* octo-pc-score: per-frame quality of a live case-3 run.  The source
 * frames are made again exactly as octopusplysrc made them (the same PLY,
 * turn rate, colouring and frame rate; frame f at f / fps seconds), and
 * for every frame it writes one CSV row:
 *
 *   frame,shown,layers_used,view_ssim,metrics_quality,cell_layers,points,
 *   d1_psnr_db
 *
 * shown, layers_used and metrics_quality come from octo-metrics'
 * frames.csv (--frames); view_ssim is the exact table score
 * (pc-view-quality.h) of the layers octo-metrics counted as used;
 * cell_layers (by spatial cell), points and d1_psnr_db (pc-d1.h, against
 * the source frame) come from the PLY file octopusplyenc wrote of the
 * frame the receiver merged (--received, files named by anything; the
 * frame id is read from the "frame-id" header comment), empty if none.
 * --png renders the listed frames (or the next one received), source |
 * received side by side, from the viewer's position.
 *
 *   octo-pc-score --source bunny.ply --degrees-per-second 36 \
 *     --colour-from-height --camera=-0.017,0.11,-0.23 \
 *     --table ssim-table.csv --frames run/frames.csv \
 *     --received run-frames --png 20,100 --png-dir run-png --out q.csv */
#include "pc-animate.h"
#include "pc-d1.h"
#include "pc-partition.h"
#include "pc-ply.h"
#include "pc-png.h"
#include "pc-render.h"
#include "pc-view-quality.h"
#include "octo-ssim.h"
#include "pc-workers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gchar *source = NULL, *table_path = NULL, *frames_path = NULL;
static gchar *received_dir = NULL, *png_list = NULL, *png_dir = NULL;
static gchar *out_path = NULL, *camera_arg = NULL, *direction_arg = NULL;
static gdouble degrees_per_second = 0.0;
static gboolean colour_from_height = FALSE;
static gint fps_n = 20, fps_d = 1, cells_x = 2, cells_z = 2, layers = 5;
static gint size = 256;

static const GOptionEntry entries[] = {
  {"source", 0, 0, G_OPTION_ARG_FILENAME, &source,
      "The PLY file octopusplysrc animated", "FILE"},
  {"degrees-per-second", 0, 0, G_OPTION_ARG_DOUBLE, &degrees_per_second,
      "Its turn rate (default 0)", "DEG"},
  {"colour-from-height", 0, 0, G_OPTION_ARG_NONE, &colour_from_height,
      "It coloured points by height", NULL},
  {"fps", 0, 0, G_OPTION_ARG_INT, &fps_n, "Its frame rate (default 20)",
      "N"},
  {"camera", 0, 0, G_OPTION_ARG_STRING, &camera_arg,
      "octopuspcenc's camera-position X,Y,Z (default 0,0,-10)", "X,Y,Z"},
  {"camera-direction", 0, 0, G_OPTION_ARG_STRING, &direction_arg,
      "octopuspcenc's camera-direction (default 0,0,1)", "X,Y,Z"},
  {"cells-x", 0, 0, G_OPTION_ARG_INT, &cells_x, "Its cells-x (default 2)",
      "N"},
  {"cells-z", 0, 0, G_OPTION_ARG_INT, &cells_z, "Its cells-z (default 2)",
      "N"},
  {"density-layers", 0, 0, G_OPTION_ARG_INT, &layers,
      "Its density-layers (default 5)", "N"},
  {"table", 0, 0, G_OPTION_ARG_FILENAME, &table_path,
      "The (distance, density) -> SSIM table", "CSV"},
  {"frames", 0, 0, G_OPTION_ARG_FILENAME, &frames_path,
      "octo-metrics' frames.csv of the run", "CSV"},
  {"received", 0, 0, G_OPTION_ARG_FILENAME, &received_dir,
      "Directory of the received frames as PLY (octopusplyenc)", "DIR"},
  {"png", 0, 0, G_OPTION_ARG_STRING, &png_list,
      "Comma-separated frames to render (each, or the next with a PLY)",
      "LIST"},
  {"png-dir", 0, 0, G_OPTION_ARG_FILENAME, &png_dir,
      "Where to write frame-N.png (default: the --out file's directory)",
      "DIR"},
  {"size", 0, 0, G_OPTION_ARG_INT, &size,
      "Height of each rendering in pixels (default 256)", "PX"},
  {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out_path, "Per-frame CSV",
      "FILE"},
  G_OPTION_ENTRY_NULL
};

static gboolean
parse_vector (const gchar *text, float v[3])
{
  gchar **parts = g_strsplit (text, ",", -1);
  gboolean ok = g_strv_length (parts) == 3;

  for (guint a = 0; ok && a < 3; a++) {
    gchar *end;
    v[a] = (float) g_ascii_strtod (parts[a], &end);
    ok = end != parts[a] && *end == '\0';
  }
  g_strfreev (parts);
  return ok;
}

typedef struct {
  gboolean shown;
  guint32 layers_used;
  double quality;
} MetricsRow;

/* frames.csv: frame,capture_ms,messages,received,level,shown,show_ms,
 * latency_ms,layers_used,quality */
static GArray *
read_frames (const gchar *path, GError **error)
{
  gchar *text, **lines;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (MetricsRow));

  if (!g_file_get_contents (path, &text, NULL, error)) {
    g_array_unref (rows);
    return NULL;
  }
  lines = g_strsplit (text, "\n", -1);
  g_free (text);
  for (guint i = 1; lines[0] && lines[i]; i++) {
    gchar **f;
    MetricsRow r;
    guint64 frame;
    if (!*g_strstrip (lines[i]))
      continue;
    f = g_strsplit (lines[i], ",", -1);
    if (g_strv_length (f) != 10 || !g_ascii_string_to_unsigned (f[0], 10, 0,
            10000000, &frame, NULL) || frame != rows->len) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: expected "
          "10 fields, frames in order from 0 (octo-metrics' frames.csv)",
          path, i + 1);
      g_strfreev (f);
      g_strfreev (lines);
      g_array_unref (rows);
      return NULL;
    }
    r.shown = atoi (f[5]) != 0;
    r.layers_used = (guint32) strtoul (f[8], NULL, 16);
    r.quality = g_ascii_strtod (f[9], NULL);
    g_array_append_val (rows, r);
    g_strfreev (f);
  }
  g_strfreev (lines);
  return rows;
}

typedef struct {
  GArray *points;
  gchar *cell_layers;           /* "2 5 0 1", by spatial cell */
} Received;

static void
received_free (gpointer p)
{
  Received *r = p;
  g_array_unref (r->points);
  g_free (r->cell_layers);
  g_free (r);
}

/* frame id -> Received, from every file in @dir. */
static GHashTable *
read_received (const gchar *dir, GError **error)
{
  GHashTable *by_frame = g_hash_table_new_full (NULL, NULL, NULL,
      received_free);
  GDir *d = g_dir_open (dir, 0, error);
  const gchar *name;

  if (!d) {
    g_hash_table_unref (by_frame);
    return NULL;
  }
  while ((name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL), *data, *id;
    gsize len;
    Received *r;
    guint64 frame;

    if (!g_file_get_contents (path, &data, &len, error)) {
      g_free (path);
      g_dir_close (d);
      g_hash_table_unref (by_frame);
      return NULL;
    }
    id = octo_pc_ply_comment ((const guint8 *) data, len, "frame-id");
    r = g_new0 (Received, 1);
    r->points = octo_pc_ply_parse ((const guint8 *) data, len, error);
    r->cell_layers = octo_pc_ply_comment ((const guint8 *) data, len,
        "cell-layers");
    if (!r->points || !id || !g_ascii_string_to_unsigned (id, 10, 0,
            G_MAXUINT32, &frame, NULL)) {
      if (r->points)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: no "
            "\"comment frame-id N\" header line (not from octopusplyenc?)",
            path);
      else
        g_prefix_error (error, "%s: ", path);
      if (r->points)
        g_array_unref (r->points);
      g_free (r->cell_layers);
      g_free (r);
      g_free (id);
      g_free (data);
      g_free (path);
      g_dir_close (d);
      g_hash_table_unref (by_frame);
      return NULL;
    }
    g_hash_table_replace (by_frame, GUINT_TO_POINTER ((guint) frame), r);
    g_free (id);
    g_free (data);
    g_free (path);
  }
  g_dir_close (d);
  return by_frame;
}

static gboolean
render_pair (const gchar *dir, guint frame, const OctoPcPoint *src,
    gsize n_src, const GArray *rec, const OctoPcViewport *vp, GError **error)
{
  float min[3], max[3], extent = 0.0f;
  OctoPcCamera cam = { size, size, {0}, {0}, 30.0f, 0.0f };
  guint8 *img = g_new (guint8, (gsize) size * size * 3);
  guint8 *pair = g_new (guint8, (gsize) size * size * 6);
  gchar *path;
  gboolean ok;

  octo_pc_bounds (src, n_src, min, max);
  for (guint a = 0; a < 3; a++) {
    cam.eye[a] = vp->position[a];
    cam.target[a] = 0.5f * (min[a] + max[a]);
    extent = MAX (extent, max[a] - min[a]);
  }
  /* the splat size the SSIM table was made with */
  cam.splat_radius = 0.6f * octo_pc_surface_spacing (extent, n_src);
  for (guint side = 0; side < 2; side++) {
    if (side == 0)
      octo_pc_render (&cam, src, n_src, img);
    else
      octo_pc_render (&cam, (const OctoPcPoint *) rec->data, rec->len, img);
    for (gint y = 0; y < size; y++)
      memcpy (pair + ((gsize) y * 2 * size + side * size) * 3,
          img + (gsize) y * size * 3, (gsize) size * 3);
  }
  path = g_strdup_printf ("%s/frame-%05u.png", dir, frame);
  ok = pc_png_write (path, pair, 2 * size, size, error);
  g_free (path);
  g_free (img);
  g_free (pair);
  return ok;
}

/* The source frame @f as octopusplysrc made it: at f / fps seconds. */
static void
source_frame (const OctoPcAnimation *anim, const GArray *cloud, guint f,
    OctoPcPoint *out)
{
  guint64 pts_ns = (guint64) f * G_GUINT64_CONSTANT (1000000000) * fps_d
      / fps_n;
  octo_pc_animate (anim, (const OctoPcPoint *) cloud->data, cloud->len,
      (double) pts_ns / 1e9, out);
}

typedef struct {
  const OctoPcAnimation *anim;
  const GArray *cloud;
  GHashTable *received;
  double *psnr;                 /* by frame; NAN: not received */
} D1Jobs;

static void
d1_job (guint f, gpointer data)
{
  D1Jobs *j = data;
  Received *rec = g_hash_table_lookup (j->received, GUINT_TO_POINTER (f));
  OctoPcPoint *src;

  j->psnr[f] = NAN;
  if (!rec)
    return;
  src = g_new (OctoPcPoint, MAX (j->cloud->len, 1u));
  source_frame (j->anim, j->cloud, f, src);
  j->psnr[f] = octo_pc_d1_psnr (src, j->cloud->len,
      (const OctoPcPoint *) rec->points->data, rec->points->len);
  g_free (src);
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- per-frame quality of a "
      "live point-cloud run");
  GError *error = NULL;
  OctoPcViewport vp = { {0.0f, 0.0f, -10.0f}, {0.0f, 0.0f, 1.0f} };
  OctoPcAnimation anim;
  OctoPcSsimTable *table;
  GArray *cloud, *metrics;
  GHashTable *received, *png_frames = g_hash_table_new (NULL, NULL);
  OctoPcPoint *src;
  gchar *data;
  gsize len;
  FILE *out;
  OctoPcViewGeometry *geom = g_new (OctoPcViewGeometry, 1);
  guint n_received = 0, n_shown = 0, n_approx = 0, n_d1 = 0;
  double sum_d1 = 0.0, sum_view = 0.0, max_gap = 0.0;
  gboolean png_pending = FALSE;
  double *psnr_of;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc != 1
      || !source || !table_path || !frames_path || !received_dir || !out_path
      || fps_n < 1 || cells_x < 1 || cells_x > OCTO_PC_MAX_GRID
      || cells_z < 1 || cells_z > OCTO_PC_MAX_GRID || layers < 1
      || layers > OCTO_PC_MAX_LAYERS || size < 16
      || (camera_arg && !parse_vector (camera_arg, vp.position))
      || (direction_arg && !parse_vector (direction_arg, vp.direction))) {
    g_printerr ("octo-pc-score: %s\n%s", error ? error->message :
        "need --source, --table, --frames, --received and --out (vectors "
        "as X,Y,Z)", g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  if (!(table = octo_pc_ssim_table_load (table_path, &error))
      || !(metrics = read_frames (frames_path, &error))
      || !(received = read_received (received_dir, &error))) {
    g_printerr ("octo-pc-score: %s\n", error->message);
    return 1;
  }
  if (!g_file_get_contents (source, &data, &len, &error)
      || !(cloud = octo_pc_ply_parse ((const guint8 *) data, len, &error))) {
    g_printerr ("octo-pc-score: %s: %s\n", source, error->message);
    return 1;
  }
  g_free (data);
  if (png_list) {
    gchar **items = g_strsplit (png_list, ",", -1);
    for (guint i = 0; items[i]; i++)
      g_hash_table_add (png_frames,
          GUINT_TO_POINTER ((guint) strtoul (items[i], NULL, 10)));
    g_strfreev (items);
  }
  if (!png_dir)
    png_dir = g_path_get_dirname (out_path);
  if (!(out = fopen (out_path, "w"))) {
    g_printerr ("octo-pc-score: cannot write %s: %s\n", out_path,
        g_strerror (errno));
    return 1;
  }
  fputs ("frame,shown,layers_used,view_ssim,metrics_quality,cell_layers,"
      "points,d1_psnr_db\n", out);

  anim = (OctoPcAnimation) { degrees_per_second, colour_from_height };
  psnr_of = g_new (double, MAX (metrics->len, 1u));
  src = g_new (OctoPcPoint, MAX (cloud->len, 1u));
  /* D1 is the costly part: every received frame's, on all processors */
  {
    D1Jobs jobs = { &anim, cloud, received, psnr_of };
    OctoPcWorkers *w = octo_pc_workers_new (g_get_num_processors ());
    octo_pc_workers_run (w, metrics->len, d1_job, &jobs);
    octo_pc_workers_free (w);
  }
  for (guint f = 0; f < metrics->len; f++) {
    const MetricsRow *m = &g_array_index (metrics, MetricsRow, f);
    OctoPcPartition *part;
    guint used[OCTO_PC_MAX_CELLS] = { 0 };
    guint n_cells = cells_x * cells_z;
    Received *rec = g_hash_table_lookup (received, GUINT_TO_POINTER (f));
    double view;

    source_frame (&anim, cloud, f, src);
    part = octo_pc_partition_new (src, cloud->len, cells_x, cells_z, layers,
        &vp, 0);
    octo_pc_view_geometry (part, &vp, geom);
    for (guint i = 0; i < n_cells * (guint) layers && i < 32; i++) {
      guint rank, layer;
      octo_pc_send_order (n_cells, layers, i, &rank, &layer);
      if (m->layers_used & (1u << i))
        used[part->cell_by_rank[rank]]++;
    }
    view = m->shown ? octo_pc_view_frame_quality (table, geom, used) : 0.0;
    octo_pc_partition_free (part);
    if (m->shown) {
      n_shown++;
      sum_view += view;
      if (fabs (view - m->quality) > 1e-6)
        n_approx++;
      max_gap = MAX (max_gap, fabs (view - m->quality));
    }
    fprintf (out, "%u,%d,0x%x,%.6f,%.6f,", f, m->shown, m->layers_used, view,
        m->quality);
    png_pending |= g_hash_table_contains (png_frames, GUINT_TO_POINTER (f));
    if (rec) {
      double psnr = psnr_of[f];
      n_received++;
      if (isfinite (psnr)) {
        sum_d1 += psnr;
        n_d1++;
      }
      fprintf (out, "%s,%u,%.3f\n", rec->cell_layers ? rec->cell_layers : "",
          rec->points->len, psnr);
      if (png_pending && !render_pair (png_dir, f, src, cloud->len,
              rec->points, &vp, &error)) {
        g_printerr ("octo-pc-score: %s\n", error->message);
        return 1;
      }
      png_pending = FALSE;
    } else {
      fputs (",,\n", out);
    }
  }
  fclose (out);
  printf ("frames %u, shown %u, received as PLY %u; mean view SSIM (the "
      "table's " OCTO_SSIM_NAME " of renders; shown) "
      "%.4f; mean D1 PSNR (received) %.2f dB; octo-metrics' summed "
      "increments differ from the exact table score on %u shown frames "
      "(max %.4f)\n", metrics->len, n_shown, n_received,
      n_shown ? sum_view / n_shown : 0.0, n_d1 ? sum_d1 / n_d1 : NAN,
      n_approx, max_gap);

  g_free (src);
  g_free (psnr_of);
  g_free (geom);
  g_array_unref (cloud);
  g_array_unref (metrics);
  g_hash_table_unref (received);
  g_hash_table_unref (png_frames);
  octo_pc_ssim_table_free (table);
  g_option_context_free (ctx);
  return 0;
}
