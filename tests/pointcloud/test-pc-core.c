/* Point-cloud core: PLY reading, Draco layers on a shared grid, cells,
 * density layers, viewport ranks, send order and the receiver's merge. */
#include "pc-animate.h"
#include "pc-draco.h"
#include "pc-encode.h"
#include "pc-layer.h"
#include "pc-partition.h"
#include "pc-ply.h"

#include <math.h>
#include <string.h>

static GArray *
parse_string (const gchar *text, GError **error)
{
  return octo_pc_ply_parse ((const guint8 *) text, strlen (text), error);
}

static void
test_ply_ascii_reads_positions_and_colours (void)
{
  GError *error = NULL;
  GArray *pts = parse_string ("ply\r\nformat ascii 1.0\r\ncomment x\r\n"
      "element vertex 2\r\nproperty float x\r\nproperty float y\r\n"
      "property float z\r\nproperty float confidence\r\n"
      "property uchar red\r\nproperty uchar green\r\nproperty uchar blue\r\n"
      "element face 1\r\nproperty list uchar int vertex_indices\r\n"
      "end_header\r\n1 2 3 0.5 10 20 30\r\n-1.5 0 2e1 1 255 0 7 \r\n"
      "3 0 1 0\r\n", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (pts->len, ==, 2);
  g_assert_cmpfloat (g_array_index (pts, OctoPcPoint, 1).xyz[0], ==, -1.5f);
  g_assert_cmpfloat (g_array_index (pts, OctoPcPoint, 1).xyz[2], ==, 20.0f);
  g_assert_cmpuint (g_array_index (pts, OctoPcPoint, 0).rgb[1], ==, 20);
  g_assert_cmpuint (g_array_index (pts, OctoPcPoint, 1).rgb[2], ==, 7);
  g_array_unref (pts);
}

static void
test_ply_ascii_errors_name_the_line (void)
{
  static const struct {
    const gchar *text;
    const gchar *message;
  } cases[] = {
    {"plx\n", "line 1: not a PLY file (no 'ply' magic)"},
    {"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
          "property float y\nend_header\n1 2\n",
        "line 6: vertex element lacks x, y or z"},
    {"ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\n"
          "property float y\nproperty float z\nend_header\n1 2 3\n1 2\n",
        "line 9: too few values (property 3 of 3)"},
    {"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
          "property float y\nproperty float z\nend_header\n1 2 zz\n",
        "line 8: not a finite number (property 3)"},
    {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
          "property float y\nproperty float z\nend_header\n1 2 3\n",
        "line 9: file ends at vertex 1 of 3"},
    {"ply\nformat ascii 1.0\nelement vertex 1\nproperty flot x\n",
        "line 4: unknown type 'flot'"},
    {"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n",
        "line 4: header ends without 'end_header'"},
    {"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
          "property float y\nproperty float z\nend_header\n1 2 3 4\n",
        "line 8: more values than the 3 properties"},
    /* found by fuzz-pc-ply: 2^64 - 1 entries of nothing, read forever */
    {"ply\nformat binary_little_endian 1.0\nelement face 9\n"
          "element vertex 1\nproperty float x\nproperty float y\n"
          "property float z\nend_header\n",
        "line 3: element has 9 entries but no properties"},
    {"ply\nformat ascii 1.0\nelement vertex 18446744073709551616\n",
        "line 3: bad element count '18446744073709551616'"},
    /* found by fuzz-pc-ply under UBSan: a list length past any integer */
    {"ply\nformat ascii 1.0\nelement face 1\nproperty list uchar int idx\n"
          "element vertex 1\nproperty float x\nproperty float y\n"
          "property float z\nend_header\n2e27 1 2\n1 2 3\n",
        "line 10: bad or missing list length"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    GError *error = NULL;
    GArray *pts = parse_string (cases[i].text, &error);
    g_assert_null (pts);
    g_assert_error (error, OCTO_PC_PLY_ERROR, 0);
    g_assert_cmpstr (error->message, ==, cases[i].message);
    g_error_free (error);
  }
}

/* A binary PLY: a face element with a list before the vertices, doubles
 * and big or little endian. */
static GByteArray *
binary_ply (gboolean big_endian, guint vertices_written)
{
  GByteArray *b = g_byte_array_new ();
  gchar *header = g_strdup_printf ("ply\nformat %s 1.0\nelement face 1\n"
      "property list uchar int idx\nelement vertex 2\nproperty double x\n"
      "property float y\nproperty float z\nproperty uchar red\n"
      "property uchar green\nproperty uchar blue\nend_header\n",
      big_endian ? "binary_big_endian" : "binary_little_endian");
  guint8 face[1 + 12] = { 3 };

  g_byte_array_append (b, (const guint8 *) header, strlen (header));
  g_free (header);
  g_byte_array_append (b, face, sizeof (face));
  for (guint v = 0; v < vertices_written; v++) {
    double x = 0.25 + v;
    float yz[2] = { -1.0f * (float) v, 7.5f };
    guint64 xb;
    guint8 rgb[3] = { 1, 2, (guint8) (3 + v) };
    memcpy (&xb, &x, 8);
    xb = big_endian ? GUINT64_TO_BE (xb) : GUINT64_TO_LE (xb);
    g_byte_array_append (b, (const guint8 *) &xb, 8);
    for (guint k = 0; k < 2; k++) {
      guint32 w;
      memcpy (&w, &yz[k], 4);
      w = big_endian ? GUINT32_TO_BE (w) : GUINT32_TO_LE (w);
      g_byte_array_append (b, (const guint8 *) &w, 4);
    }
    g_byte_array_append (b, rgb, 3);
  }
  return b;
}

static void
test_ply_binary_both_endians (void)
{
  for (guint be = 0; be < 2; be++) {
    GError *error = NULL;
    GByteArray *b = binary_ply (be, 2);
    GArray *pts = octo_pc_ply_parse (b->data, b->len, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (pts->len, ==, 2);
    g_assert_cmpfloat (g_array_index (pts, OctoPcPoint, 1).xyz[0], ==, 1.25f);
    g_assert_cmpfloat (g_array_index (pts, OctoPcPoint, 1).xyz[1], ==, -1.0f);
    g_assert_cmpfloat (g_array_index (pts, OctoPcPoint, 1).xyz[2], ==, 7.5f);
    g_assert_cmpuint (g_array_index (pts, OctoPcPoint, 1).rgb[2], ==, 4);
    g_array_unref (pts);
    g_byte_array_unref (b);
  }
}

static void
test_ply_binary_truncation_names_the_offset (void)
{
  GError *error = NULL;
  GByteArray *b = binary_ply (FALSE, 1);
  /* header, 13 face bytes, one 19-byte vertex: the second starts here */
  gsize end = b->len;
  gchar *expected = g_strdup_printf ("byte offset %" G_GSIZE_FORMAT
      ": file ends inside vertex 1 of 2", end);
  GArray *pts = octo_pc_ply_parse (b->data, b->len, &error);

  g_assert_null (pts);
  g_assert_cmpstr (error->message, ==, expected);
  g_error_free (error);
  g_free (expected);
  g_byte_array_unref (b);
}

static void
test_ply_write_then_read_is_identity (void)
{
  OctoPcPoint in[3] = {
    {{1.0f, 2.0f, 3.0f}, {4, 5, 6}, 0},
    {{-0.125f, 1e-3f, 9e3f}, {255, 0, 128}, 0},
    {{0, 0, 0}, {0, 0, 0}, 0},
  };
  GError *error = NULL;
  GBytes *bytes = octo_pc_ply_write (in, 3, NULL);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  GArray *out = octo_pc_ply_parse (data, len, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, 3);
  g_assert_cmpmem (out->data, 3 * sizeof (OctoPcPoint), in, sizeof (in));
  g_array_unref (out);
  g_bytes_unref (bytes);
}

static void
test_ply_comments_round_trip (void)
{
  OctoPcPoint pt = { {1.0f, 2.0f, 3.0f}, {4, 5, 6}, 0 };
  const gchar *comments[] = { "frame-id 42", "frame-idx 7",
    "cell-layers  2 5 0 1 ", NULL };
  GBytes *bytes = octo_pc_ply_write (&pt, 1, comments);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gchar *v;

  v = octo_pc_ply_comment (data, len, "frame-id");
  g_assert_cmpstr (v, ==, "42");
  g_free (v);
  v = octo_pc_ply_comment (data, len, "frame-idx");
  g_assert_cmpstr (v, ==, "7");
  g_free (v);
  v = octo_pc_ply_comment (data, len, "cell-layers");
  g_assert_cmpstr (v, ==, "2 5 0 1");
  g_free (v);
  g_assert_null (octo_pc_ply_comment (data, len, "frame"));
  g_assert_null (octo_pc_ply_comment (data, len, "cell-points"));
  /* a header cut before end_header has no comments to speak of */
  g_assert_null (octo_pc_ply_comment (data, 30, "frame-id"));
  g_bytes_unref (bytes);
}

static void
test_ply_reads_the_bunny (void)
{
  const gchar *path = g_getenv ("OCTO_PC_BUNNY");
  gchar *data;
  gsize len;
  GError *error = NULL;
  GArray *pts;

  g_assert_nonnull (path);
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  pts = octo_pc_ply_parse ((const guint8 *) data, len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pts->len, ==, 35947);
  g_assert_cmpfloat_with_epsilon (g_array_index (pts, OctoPcPoint,
          0).xyz[0], -0.0378297f, 1e-7);
  g_assert_cmpuint (g_array_index (pts, OctoPcPoint, 0).rgb[0], ==,
      OCTO_PC_PLY_DEFAULT_GREY);
  g_array_unref (pts);
  g_free (data);
}

static GArray *
random_cloud (guint n, guint32 seed)
{
  GRand *r = g_rand_new_with_seed (seed);
  GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (OctoPcPoint), n);
  g_array_set_size (a, n);
  for (guint i = 0; i < n; i++) {
    OctoPcPoint *p = &g_array_index (a, OctoPcPoint, i);
    for (guint k = 0; k < 3; k++) {
      p->xyz[k] = (float) g_rand_double_range (r, -1.0, 1.0);
      p->rgb[k] = (guint8) g_rand_int_range (r, 0, 256);
    }
    p->pad = 0;
  }
  g_rand_free (r);
  return a;
}

static void
grid_for (const GArray *cloud, OctoPcDracoParams *params)
{
  float min[3], max[3];
  octo_pc_bounds ((const OctoPcPoint *) cloud->data, cloud->len, min, max);
  memcpy (params->origin, min, sizeof (min));
  params->range = MAX (MAX (max[0] - min[0], max[1] - min[1]),
      max[2] - min[2]);
}

/* Every decoded point matches a distinct source point of the same colour
 * within half a grid step per axis. */
static void
assert_decodes_to (const GArray *src, const guint *idx, guint n,
    const GArray *dec, double step)
{
  gboolean *used = g_new0 (gboolean, n);
  g_assert_cmpuint (dec->len, ==, n);
  for (guint i = 0; i < dec->len; i++) {
    const OctoPcPoint *d = &g_array_index (dec, OctoPcPoint, i);
    gboolean found = FALSE;
    for (guint j = 0; j < n && !found; j++) {
      const OctoPcPoint *s = &g_array_index (src, OctoPcPoint, idx[j]);
      if (used[j] || memcmp (s->rgb, d->rgb, 3) != 0)
        continue;
      found = fabs (s->xyz[0] - d->xyz[0]) <= step / 2 + 1e-6
          && fabs (s->xyz[1] - d->xyz[1]) <= step / 2 + 1e-6
          && fabs (s->xyz[2] - d->xyz[2]) <= step / 2 + 1e-6;
      used[j] = found;
    }
    g_assert_true (found);
  }
  g_free (used);
}

static void
test_draco_layers_round_trip_on_one_grid (void)
{
  GArray *cloud = random_cloud (1500, 7);
  OctoPcViewport vp = { {0, 0, -10}, {0, 0, 1} };
  OctoPcPartition *part = octo_pc_partition_new ((OctoPcPoint *) cloud->data,
      cloud->len, 2, 2, 5, &vp, 1);

  for (guint method = 0; method < 2; method++) {
    OctoPcDracoParams params = { .method = method, .speed = 5,
      .position_bits = 11 };
    grid_for (cloud, &params);
    for (guint m = 0; m < 20; m++) {
      GArray *layer = part->members[m];
      GError *error = NULL;
      GBytes *code = octo_pc_draco_encode ((OctoPcPoint *) cloud->data,
          (guint *) layer->data, layer->len, &params, &error);
      GArray *dec = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
      gsize len;
      const guint8 *data;
      g_assert_no_error (error);
      data = g_bytes_get_data (code, &len);
      g_assert_true (octo_pc_draco_decode (data, len, dec, &error));
      g_assert_no_error (error);
      assert_decodes_to (cloud, (guint *) layer->data, layer->len, dec,
          octo_pc_draco_step (&params));
      g_array_unref (dec);
      g_bytes_unref (code);
    }
  }
  octo_pc_partition_free (part);
  g_array_unref (cloud);
}

static void
test_draco_rejects_malformed_payloads (void)
{
  GArray *cloud = random_cloud (200, 3);
  OctoPcDracoParams params = { .method = OCTO_PC_DRACO_SEQUENTIAL,
    .speed = 5, .position_bits = 11 };
  GError *error = NULL;
  GBytes *code;
  gsize len;
  const guint8 *data;
  GArray *dec = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
  guint8 junk[64];

  grid_for (cloud, &params);
  code = octo_pc_draco_encode ((OctoPcPoint *) cloud->data, NULL, cloud->len,
      &params, &error);
  data = g_bytes_get_data (code, &len);
  /* every proper prefix of a valid payload is refused */
  for (gsize cut = 1; cut < len; cut += 1 + cut / 8) {
    g_assert_false (octo_pc_draco_decode (data, cut, dec, &error));
    g_assert_error (error, OCTO_PC_DRACO_ERROR, 0);
    g_clear_error (&error);
    g_assert_cmpuint (dec->len, ==, 0);
  }
  memset (junk, 0xa5, sizeof (junk));
  g_assert_false (octo_pc_draco_decode (junk, sizeof (junk), dec, &error));
  g_assert_true (g_str_has_prefix (error->message,
          "malformed Draco payload"));
  g_clear_error (&error);
  g_array_unref (dec);
  g_bytes_unref (code);
  g_array_unref (cloud);
}

/* The point count in Draco's geometry header sizes every attribute array;
 * a forged count is refused from the header, before Draco allocates. */
static void
test_draco_bounds_claimed_points_before_decoding (void)
{
  GArray *cloud = random_cloud (500, 5);
  GArray *dec = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
  GError *error = NULL;

  for (int method = 0; method < 2; method++) {
    OctoPcDracoParams params = { .method = method, .speed = 5,
      .position_bits = 11 };
    gsize len;
    guint64 cost;
    grid_for (cloud, &params);
    GBytes *code = octo_pc_draco_encode ((OctoPcPoint *) cloud->data, NULL,
        cloud->len, &params, &error);
    g_assert_no_error (error);
    const guint8 *encoded = g_bytes_get_data (code, &len);
    guint8 *data = g_memdup2 (encoded, len);

    /* an honest layer: positions (3 floats), colours (3 bytes), output */
    gboolean priced = octo_pc_draco_decode_cost (data, len, &cost, &error);
    g_assert_no_error (error);
    g_assert_true (priced);
    g_assert_cmpuint (cost, ==, 500 * (sizeof (OctoPcPoint) + 3 * 12 + 3 * 9));

    /* the count is the little-endian int32 after the 11-byte header */
    g_assert_cmpuint (data[11] | data[12] << 8 | data[13] << 16, ==, 500);
    const guint32 forged[] = { 1u << 20, OCTO_PC_DRACO_MAX_POINTS + 1,
      0x1d000008, 0x80000000 };
    const char *reason[] = { "bytes each: decoding would take",
      "(limit 16777216)", "(limit 16777216)", "(limit 16777216)" };
    for (guint i = 0; i < G_N_ELEMENTS (forged); i++) {
      for (int b = 0; b < 4; b++)
        data[11 + b] = forged[i] >> (8 * b);
      g_assert_false (octo_pc_draco_decode (data, len, dec, &error));
      g_assert_error (error, OCTO_PC_DRACO_ERROR, 0);
      g_assert_nonnull (strstr (error->message, reason[i]));
      g_clear_error (&error);
      g_assert_cmpuint (dec->len, ==, 0);
    }
    /* metadata and other geometry are not what octopuspcenc writes */
    data[11] = 500 & 0xff, data[12] = 500 >> 8, data[13] = data[14] = 0;
    data[10] = 0x80;
    g_assert_false (octo_pc_draco_decode (data, len, dec, &error));
    g_assert_nonnull (strstr (error->message, "without metadata"));
    g_clear_error (&error);
    data[10] = 0;
    data[7] = 1;
    g_assert_false (octo_pc_draco_decode (data, len, dec, &error));
    g_clear_error (&error);
    data[7] = 0;
    g_assert_true (octo_pc_draco_decode (data, len, dec, &error));
    g_assert_cmpuint (dec->len, ==, 500);
    g_array_set_size (dec, 0);
    g_free (data);
    g_bytes_unref (code);
  }
  g_array_unref (dec);
  g_array_unref (cloud);
}

static void
test_layers_are_disjoint_uniform_splits_of_cells (void)
{
  GArray *cloud = random_cloud (2003, 11);
  OctoPcViewport vp = { {0, 0, -10}, {0, 0, 1} };
  OctoPcPartition *part = octo_pc_partition_new ((OctoPcPoint *) cloud->data,
      cloud->len, 2, 2, 5, &vp, 42);
  guint *seen = g_new0 (guint, cloud->len);
  guint total = 0;

  for (guint c = 0; c < 4; c++) {
    guint cell_total = 0;
    for (guint l = 0; l < 5; l++) {
      GArray *m = part->members[c * 5 + l];
      /* sizes differ by at most one: floor or ceil of a fifth */
      g_assert_cmpuint (m->len, >=, part->cell_points[c] / 5);
      g_assert_cmpuint (m->len, <=, (part->cell_points[c] + 4) / 5);
      for (guint i = 0; i < m->len; i++) {
        guint idx = g_array_index (m, guint, i);
        const OctoPcPoint *p = &g_array_index (cloud, OctoPcPoint, idx);
        guint ix = p->xyz[0] < 0.5f * (part->min[0] + part->max[0]) ? 0 : 1;
        guint iz = p->xyz[2] < 0.5f * (part->min[2] + part->max[2]) ? 0 : 1;
        g_assert_cmpuint (ix + 2 * iz, ==, c);
        seen[idx]++;
      }
      cell_total += m->len;
    }
    g_assert_cmpuint (cell_total, ==, part->cell_points[c]);
    total += cell_total;
  }
  g_assert_cmpuint (total, ==, cloud->len);
  for (guint i = 0; i < cloud->len; i++)
    g_assert_cmpuint (seen[i], ==, 1);
  g_free (seen);
  octo_pc_partition_free (part);
  g_array_unref (cloud);
}

static void
test_viewport_decides_front_cells (void)
{
  GArray *cloud = random_cloud (400, 5);
  static const struct {
    OctoPcViewport vp;
    guint by_rank[4];
  } cases[] = {
    /* looking along +z from far in front: the low-z row is nearer */
    {{{0, 0, -10}, {0, 0, 1}}, {0, 1, 2, 3}},
    {{{0, 0, 10}, {0, 0, -1}}, {2, 3, 0, 1}},
    /* looking along -x from +x: the high-x column first */
    {{{10, 0, 0}, {-1, 0, 0}}, {1, 3, 0, 2}},
    /* from the (-x, +z) side, mostly along +x: cell 2 nearest, 1 farthest */
    {{{-10, 0, 10}, {1, 0, -0.5f}}, {2, 0, 3, 1}},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    OctoPcPartition *part = octo_pc_partition_new (
        (OctoPcPoint *) cloud->data, cloud->len, 2, 2, 5, &cases[i].vp, 1);
    for (guint r = 0; r < 4; r++) {
      g_assert_cmpuint (part->cell_by_rank[r], ==, cases[i].by_rank[r]);
      g_assert_cmpuint (part->rank_by_cell[cases[i].by_rank[r]], ==, r);
    }
    octo_pc_partition_free (part);
  }
  g_array_unref (cloud);
}

static void
test_send_order_is_front_first_by_layer (void)
{
  /* (rank, layer) in docs/design.md's order for 4 cells x 5 layers */
  static const guint expected[20][2] = {
    {0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3},
    {0, 4}, {1, 4}, {2, 0}, {3, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2},
    {2, 3}, {3, 3}, {2, 4}, {3, 4},
  };
  for (guint i = 0; i < 20; i++) {
    guint rank, layer;
    octo_pc_send_order (4, 5, i, &rank, &layer);
    g_assert_cmpuint (rank, ==, expected[i][0]);
    g_assert_cmpuint (layer, ==, expected[i][1]);
  }
}

/* The layer messages of one frame. */
static GPtrArray *
encode_frame (const GArray *cloud, const OctoPcPartition *part,
    guint32 frame_id)
{
  GPtrArray *msgs = g_ptr_array_new_with_free_func (
      (GDestroyNotify) g_bytes_unref);
  OctoPcDracoParams params = { .method = OCTO_PC_DRACO_KD_TREE, .speed = 5,
    .position_bits = 11 };

  grid_for (cloud, &params);
  for (guint c = 0; c < 4; c++)
    for (guint l = 0; l < 5; l++) {
      GArray *m = part->members[c * 5 + l];
      OctoPcLayerHeader h = { 2, 2, c, part->rank_by_cell[c], l, 5, frame_id,
        part->cell_points[c] };
      GByteArray *msg = g_byte_array_new ();
      guint8 hdr[OCTO_PC_LAYER_HEADER_LEN];
      GBytes *code = octo_pc_draco_encode ((OctoPcPoint *) cloud->data,
          (guint *) m->data, m->len, &params, NULL);
      octo_pc_layer_header_pack (&h, hdr);
      g_byte_array_append (msg, hdr, sizeof (hdr));
      g_byte_array_append (msg, g_bytes_get_data (code, NULL),
          g_bytes_get_size (code));
      g_bytes_unref (code);
      g_ptr_array_add (msgs, g_byte_array_free_to_bytes (msg));
    }
  return msgs;
}

static void
test_any_subset_of_layers_merges (void)
{
  GArray *cloud = random_cloud (1000, 9);
  OctoPcViewport vp = { {0, 0, -10}, {0, 0, 1} };
  OctoPcPartition *part = octo_pc_partition_new ((OctoPcPoint *) cloud->data,
      cloud->len, 2, 2, 5, &vp, 4);
  GPtrArray *msgs = encode_frame (cloud, part, 0);
  OctoPcMerger *merger = octo_pc_merger_new ();
  GRand *r = g_rand_new_with_seed (99);

  /* frame f carries a random subset of the 20 layers */
  for (guint32 f = 1; f <= 40; f++) {
    guint32 subset = g_rand_int (r) & 0xfffff;
    guint expected = 0;
    OctoPcMergedFrame *done = NULL;
    for (guint m = 0; m < 20; m++) {
      GBytes *b = g_ptr_array_index (msgs, m);
      guint8 *copy;
      gsize len;
      OctoPcMergeResult res;
      if (!(subset & (1u << m)))
        continue;
      len = g_bytes_get_size (b);
      copy = g_memdup2 (g_bytes_get_data (b, NULL), len);
      /* same payload, this frame's id */
      copy[10] = f >> 24; copy[11] = f >> 16; copy[12] = f >> 8; copy[13] = f;
      res = octo_pc_merger_push (merger, copy, len, &done, NULL);
      g_assert_cmpint (res, ==, OCTO_PC_MERGE_ADDED);
      g_assert_null (done);
      res = octo_pc_merger_push (merger, copy, len, &done, NULL);
      g_assert_cmpint (res, ==, OCTO_PC_MERGE_DUPLICATE);
      g_free (copy);
      expected += part->members[m]->len;
    }
    done = octo_pc_merger_flush (merger);
    if (!subset) {
      g_assert_null (done);
      continue;
    }
    g_assert_cmpuint (done->frame_id, ==, f);
    g_assert_cmpuint (done->points->len, ==, expected);
    for (guint c = 0; c < 4; c++) {
      g_assert_cmpuint (done->layer_mask[c], ==, (subset >> (5 * c)) & 0x1f);
      g_assert_cmpuint (octo_pc_merged_frame_layers (done, c), ==,
          (guint) __builtin_popcount ((subset >> (5 * c)) & 0x1f));
    }
    octo_pc_merged_frame_free (done);
  }
  g_rand_free (r);
  octo_pc_merger_free (merger);
  g_ptr_array_unref (msgs);
  octo_pc_partition_free (part);
  g_array_unref (cloud);
}

static void
test_merger_completes_on_newer_frame_and_drops_late (void)
{
  GArray *cloud = random_cloud (300, 2);
  OctoPcViewport vp = { {0, 0, -10}, {0, 0, 1} };
  OctoPcPartition *part = octo_pc_partition_new ((OctoPcPoint *) cloud->data,
      cloud->len, 2, 2, 5, &vp, 4);
  GPtrArray *f5 = encode_frame (cloud, part, 5);
  GPtrArray *f6 = encode_frame (cloud, part, 6);
  OctoPcMerger *merger = octo_pc_merger_new ();
  OctoPcMergedFrame *done = NULL;
  GError *error = NULL;
  gsize len;
  const guint8 *d;
  guint8 bad[OCTO_PC_LAYER_HEADER_LEN + 8];

  d = g_bytes_get_data (g_ptr_array_index (f5, 0), &len);
  g_assert_cmpint (octo_pc_merger_push (merger, d, len, &done, NULL), ==,
      OCTO_PC_MERGE_ADDED);
  d = g_bytes_get_data (g_ptr_array_index (f6, 3), &len);
  g_assert_cmpint (octo_pc_merger_push (merger, d, len, &done, NULL), ==,
      OCTO_PC_MERGE_ADDED);
  g_assert_nonnull (done);
  g_assert_cmpuint (done->frame_id, ==, 5);
  g_assert_cmpuint (done->points->len, ==, part->members[0]->len);
  octo_pc_merged_frame_free (done);
  /* frame 5 is complete: its other layers come too late */
  d = g_bytes_get_data (g_ptr_array_index (f5, 1), &len);
  g_assert_cmpint (octo_pc_merger_push (merger, d, len, &done, NULL), ==,
      OCTO_PC_MERGE_LATE);
  /* a malformed payload leaves frame 6 as it was */
  d = g_bytes_get_data (g_ptr_array_index (f6, 4), &len);
  memcpy (bad, d, OCTO_PC_LAYER_HEADER_LEN);
  memset (bad + OCTO_PC_LAYER_HEADER_LEN, 0x5a, 8);
  g_assert_cmpint (octo_pc_merger_push (merger, bad, sizeof (bad), &done,
          &error), ==, OCTO_PC_MERGE_MALFORMED);
  g_assert_error (error, OCTO_PC_DRACO_ERROR, 0);
  g_clear_error (&error);
  g_assert_cmpint (octo_pc_merger_push (merger, bad, 5, &done, &error), ==,
      OCTO_PC_MERGE_MALFORMED);
  g_assert_cmpstr (error->message, ==,
      "layer message of 5 bytes is shorter than its 18-byte header");
  g_clear_error (&error);
  done = octo_pc_merger_flush (merger);
  g_assert_cmpuint (done->frame_id, ==, 6);
  g_assert_cmpuint (done->points->len, ==, part->members[3]->len);
  g_assert_cmpuint (done->layer_mask[0], ==, 1u << 3);
  octo_pc_merged_frame_free (done);

  octo_pc_merger_free (merger);
  g_ptr_array_unref (f5);
  g_ptr_array_unref (f6);
  octo_pc_partition_free (part);
  g_array_unref (cloud);
}

static void
test_animation_turns_about_the_centre (void)
{
  OctoPcPoint src[2] = {
    {{1, 0, 0}, {9, 9, 9}, 0},
    {{-1, 2, 0}, {9, 9, 9}, 0},
  };
  OctoPcPoint dst[2];
  OctoPcAnimation anim = { 90.0, TRUE };

  /* a quarter turn after 1 s: x goes to -z about the centre (0, 1, 0) */
  octo_pc_animate (&anim, src, 2, 1.0, dst);
  g_assert_cmpfloat_with_epsilon (dst[0].xyz[0], 0.0f, 1e-6);
  g_assert_cmpfloat_with_epsilon (dst[0].xyz[2], -1.0f, 1e-6);
  g_assert_cmpfloat (dst[1].xyz[1], ==, 2.0f);
  /* lowest point blue, highest red */
  g_assert_cmpuint (dst[0].rgb[2], ==, 255);
  g_assert_cmpuint (dst[1].rgb[0], ==, 255);
}

/* The worker pool changes who codes a layer, never the bytes or order. */
static void
test_encode_on_workers_matches_one_thread (void)
{
  GRand *r = g_rand_new_with_seed (5);
  OctoPcPoint *pts = g_new0 (OctoPcPoint, 3000);
  OctoPcEncodeConfig config = { 2, 2, 5, OCTO_PC_DRACO_KD_TREE, 4, 11, 9 };
  OctoPcViewport vp = { {0, 0, -10}, {0, 0, 1} };
  GArray *serial;

  for (guint i = 0; i < 3000; i++)
    for (guint a = 0; a < 3; a++) {
      pts[i].xyz[a] = (float) g_rand_double (r);
      pts[i].rgb[a] = (guint8) g_rand_int_range (r, 0, 256);
    }
  serial = octo_pc_encode_frame (pts, 3000, &config, &vp, 3, NULL, NULL);
  g_assert_nonnull (serial);
  g_assert_cmpuint (serial->len, ==, 20);
  for (guint threads = 1; threads <= 3; threads++) {
    OctoPcWorkers *w = octo_pc_workers_new (threads);
    GArray *par = octo_pc_encode_frame (pts, 3000, &config, &vp, 3, w, NULL);
    g_assert_cmpuint (octo_pc_workers_threads (w), ==, threads);
    g_assert_cmpuint (par->len, ==, serial->len);
    for (guint i = 0; i < par->len; i++) {
      const OctoPcLayerMessage *a = &g_array_index (serial,
          OctoPcLayerMessage, i), *b = &g_array_index (par,
          OctoPcLayerMessage, i);
      g_assert_true (g_bytes_equal (a->message, b->message));
      g_assert_cmpuint (a->cell, ==, b->cell);
      g_assert_cmpuint (a->layer, ==, b->layer);
      g_assert_cmpuint (a->points, ==, b->points);
    }
    octo_pc_layer_messages_free (par);
    octo_pc_workers_free (w);
  }
  octo_pc_layer_messages_free (serial);
  g_free (pts);
  g_rand_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pc/ply/ascii-reads-positions-and-colours",
      test_ply_ascii_reads_positions_and_colours);
  g_test_add_func ("/pc/ply/ascii-errors-name-the-line",
      test_ply_ascii_errors_name_the_line);
  g_test_add_func ("/pc/ply/binary-both-endians",
      test_ply_binary_both_endians);
  g_test_add_func ("/pc/ply/binary-truncation-names-the-offset",
      test_ply_binary_truncation_names_the_offset);
  g_test_add_func ("/pc/ply/write-then-read-is-identity",
      test_ply_write_then_read_is_identity);
  g_test_add_func ("/pc/ply/comments-round-trip",
      test_ply_comments_round_trip);
  g_test_add_func ("/pc/ply/reads-the-bunny", test_ply_reads_the_bunny);
  g_test_add_func ("/pc/draco/layers-round-trip-on-one-grid",
      test_draco_layers_round_trip_on_one_grid);
  g_test_add_func ("/pc/draco/rejects-malformed-payloads",
      test_draco_rejects_malformed_payloads);
  g_test_add_func ("/pc/draco/bounds-claimed-points-before-decoding",
      test_draco_bounds_claimed_points_before_decoding);
  g_test_add_func ("/pc/partition/layers-are-disjoint-uniform-splits",
      test_layers_are_disjoint_uniform_splits_of_cells);
  g_test_add_func ("/pc/partition/viewport-decides-front-cells",
      test_viewport_decides_front_cells);
  g_test_add_func ("/pc/partition/send-order-is-front-first-by-layer",
      test_send_order_is_front_first_by_layer);
  g_test_add_func ("/pc/encode/on-workers-matches-one-thread",
      test_encode_on_workers_matches_one_thread);
  g_test_add_func ("/pc/merge/any-subset-of-layers-merges",
      test_any_subset_of_layers_merges);
  g_test_add_func ("/pc/merge/completes-on-newer-frame-and-drops-late",
      test_merger_completes_on_newer_frame_and_drops_late);
  g_test_add_func ("/pc/animate/turns-about-the-centre",
      test_animation_turns_about_the_centre);
  return g_test_run ();
}
