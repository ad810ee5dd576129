/* octopuspcenc: the encoder element.  pc-encode.c splits and codes each
 * frame; this element reads the properties, pushes the messages and tags
 * them with the core's volumetric preset (octo_preset_volumetric), where
 * the meta's cell id is the cell's viewport rank so that cells 0 and 1 are
 * the front ones, as the preset (and octopustag policy=volumetric)
 * expects.  sent-log= writes eval/octo-metrics' sender log, scored by
 * pc-view-quality.c from ssim-table= (docs/design.md's live volumetric
 * metric). */
#include "gstoctopuspcenc.h"

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-frame-log.h"
#include "octo-preset.h"
#include "pc-encode.h"
#include "pc-ssim-table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_octopus_pc_enc_debug);
#define GST_CAT_DEFAULT gst_octopus_pc_enc_debug

enum {
  PROP_0,
  PROP_CELLS_X,
  PROP_CELLS_Z,
  PROP_DENSITY_LAYERS,
  PROP_METHOD,
  PROP_SPEED,
  PROP_POSITION_BITS,
  PROP_SEED,
  PROP_CAMERA_POSITION,
  PROP_CAMERA_DIRECTION,
  PROP_SENT_LOG,
  PROP_SSIM_TABLE,
  PROP_THREADS,
  PROP_STATS,
};

#define DEFAULT_CELLS 2
#define DEFAULT_DENSITY_LAYERS 5
#define DEFAULT_METHOD OCTO_PC_DRACO_KD_TREE
#define DEFAULT_SPEED 4
#define DEFAULT_POSITION_BITS 11
#define DEFAULT_SEED 0
#define DEFAULT_THREADS 0
/* in front of the scene, looking along +z */
static const float default_camera_position[3] = { 0.0f, 0.0f, -10.0f };
static const float default_camera_direction[3] = { 0.0f, 0.0f, 1.0f };

struct _GstOctopusPcEnc {
  GstElement parent;
  GstPad *sinkpad, *srcpad;

  OctoPcEncodeConfig config;
  OctoPcViewport viewport;
  gchar *sent_log;
  gchar *ssim_table_path;
  guint threads;

  FILE *log;
  OctoPcWorkers *workers;
  OctoPcSsimTable *ssim_table;
  guint32 frame_id;
  GstSegment segment;
  guint64 frames, messages, payload_bytes, points;
};

#define gst_octopus_pc_enc_parent_class parent_class
G_DEFINE_TYPE (GstOctopusPcEnc, gst_octopus_pc_enc, GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE (octopuspcenc, "octopuspcenc", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_PC_ENC);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (OCTO_PC_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_OCTOPUS_PC_LAYER_CAPS));

GType
gst_octopus_pc_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {OCTO_PC_DRACO_SEQUENTIAL, "Draco sequential coding", "sequential"},
    {OCTO_PC_DRACO_KD_TREE, "Draco kd-tree coding", "kd-tree"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstOctopusPcMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static GstClockTime
capture_time (GstOctopusPcEnc *self, GstBuffer *buf)
{
  GstClockTime rt;
  if (!GST_BUFFER_PTS_IS_VALID (buf) || self->segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  rt = gst_segment_to_running_time (&self->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buf));
  if (!GST_CLOCK_TIME_IS_VALID (rt))
    return GST_CLOCK_TIME_NONE;
  return rt + gst_element_get_base_time (GST_ELEMENT (self));
}

static GstFlowReturn
gst_octopus_pc_enc_chain (GstPad *pad, GstObject *parent, GstBuffer *in)
{
  GstOctopusPcEnc *self = GST_OCTOPUS_PC_ENC (parent);
  GstMapInfo map;
  OctoPcEncodeConfig config;
  OctoPcViewport viewport;
  GArray *msgs;
  GError *error = NULL;
  GstClockTime capture = capture_time (self, in);
  GstFlowReturn ret = GST_FLOW_OK;
  gsize n;
  guint32 frame_id = self->frame_id++;

  (void) pad;
  if (gst_buffer_get_size (in) % sizeof (OctoPcPoint) != 0) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Bad point-cloud frame"),
        ("frame %u: %" G_GSIZE_FORMAT " bytes is not a whole number of "
            "%u-byte points", frame_id, gst_buffer_get_size (in),
            (guint) sizeof (OctoPcPoint)));
    gst_buffer_unref (in);
    return GST_FLOW_ERROR;
  }
  GST_OBJECT_LOCK (self);
  config = self->config;
  viewport = self->viewport;
  GST_OBJECT_UNLOCK (self);

  gst_buffer_map (in, &map, GST_MAP_READ);
  n = map.size / sizeof (OctoPcPoint);
  msgs = octo_pc_encode_frame ((const OctoPcPoint *) map.data, n, &config,
      &viewport, frame_id, self->workers, &error);
  gst_buffer_unmap (in, &map);
  if (!msgs) {
    GST_ELEMENT_ERROR (self, LIBRARY, ENCODE, ("Draco could not encode a "
            "layer"), ("frame %u: %s", frame_id, error->message));
    g_error_free (error);
    gst_buffer_unref (in);
    return GST_FLOW_ERROR;
  }

  for (guint i = 0; i < msgs->len && ret == GST_FLOW_OK; i++) {
    const OctoPcLayerMessage *msg = &g_array_index (msgs,
        OctoPcLayerMessage, i);
    GstBuffer *out = gst_buffer_new_wrapped_bytes (msg->message);
    GstOctopusMeta *m = gst_buffer_add_octopus_meta (out);
    OctoHeader header = { 0 };

    octo_preset_volumetric (msg->rank, msg->rank < OCTO_PC_FRONT_CELLS,
        msg->layer, frame_id, &header);
    gst_octopus_meta_from_core (m, &header, NULL);
    m->capture_time = capture;
    m->frame_id = frame_id;
    m->cell_id = msg->rank;
    m->density_layer = msg->layer;
    m->keyframe = TRUE;
    GST_BUFFER_PTS (out) = GST_BUFFER_PTS (in);
    GST_BUFFER_DURATION (out) = i == 0 ? GST_BUFFER_DURATION (in) : 0;
    GST_BUFFER_OFFSET (out) = frame_id;

    if (self->log) {
      OctoSentRow row = {
        .frame = frame_id, .index = i,
        .capture = GST_CLOCK_TIME_IS_VALID (capture) ? capture : 0,
        .keyframe = TRUE,
        .quality = self->ssim_table ?
            octo_pc_view_layer_quality (self->ssim_table, msg->cell_share,
            msg->distance, msg->layer, config.n_layers) :
            n ? (gdouble) msg->points / (gdouble) n : 0.0,
      };
      gchar line[OCTO_FRAME_LOG_ROW_MAX];
      fwrite (line, 1, octo_frame_log_sent_row (&row, line), self->log);
    }
    GST_OBJECT_LOCK (self);
    self->messages++;
    self->payload_bytes += gst_buffer_get_size (out);
    GST_OBJECT_UNLOCK (self);
    ret = gst_pad_push (self->srcpad, out);
  }
  GST_OBJECT_LOCK (self);
  self->frames++;
  self->points += n;
  GST_OBJECT_UNLOCK (self);
  octo_pc_layer_messages_free (msgs);
  gst_buffer_unref (in);
  return ret;
}

static gboolean
gst_octopus_pc_enc_sink_event (GstPad *pad, GstObject *parent,
    GstEvent *event)
{
  GstOctopusPcEnc *self = GST_OCTOPUS_PC_ENC (parent);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps = gst_static_pad_template_get_caps (&src_template);
      gst_event_unref (event);
      event = gst_event_new_caps (caps);
      gst_caps_unref (caps);
      return gst_pad_push_event (self->srcpad, event);
    }
    case GST_EVENT_SEGMENT:
      gst_event_copy_segment (event, &self->segment);
      break;
    case GST_EVENT_EOS:
      if (self->log)
        fflush (self->log);
      break;
    default:
      break;
  }
  return gst_pad_event_default (pad, parent, event);
}

/* What READY -> PAUSED acquires. */
static void
release (GstOctopusPcEnc *self)
{
  if (self->log) {
    fclose (self->log);
    self->log = NULL;
  }
  g_clear_pointer (&self->ssim_table, octo_pc_ssim_table_free);
  g_clear_pointer (&self->workers, octo_pc_workers_free);
}

static GstStateChangeReturn
gst_octopus_pc_enc_change_state (GstElement *element,
    GstStateChange transition)
{
  GstOctopusPcEnc *self = GST_OCTOPUS_PC_ENC (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    gchar *path, *table_path;
    guint threads;
    GST_OBJECT_LOCK (self);
    path = g_strdup (self->sent_log);
    table_path = g_strdup (self->ssim_table_path);
    threads = self->threads ? self->threads :
        octo_pc_workers_default_threads ();
    self->frame_id = 0;
    self->frames = self->messages = self->payload_bytes = self->points = 0;
    GST_OBJECT_UNLOCK (self);
    gst_segment_init (&self->segment, GST_FORMAT_UNDEFINED);
    if (table_path) {
      GError *error = NULL;
      self->ssim_table = octo_pc_ssim_table_load (table_path, &error);
      if (!self->ssim_table) {
        GST_ELEMENT_ERROR (self, RESOURCE, READ,
            ("Could not read SSIM table '%s'", table_path), ("%s",
                error->message));
        g_error_free (error);
        g_free (table_path);
        g_free (path);
        release (self);
        return GST_STATE_CHANGE_FAILURE;
      }
    }
    g_free (table_path);
    self->workers = octo_pc_workers_new (threads);
    if (path) {
      self->log = fopen (path, "w");
      if (!self->log) {
        GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
            ("Could not write sent log '%s'", path), GST_ERROR_SYSTEM);
        g_free (path);
        release (self);
        return GST_STATE_CHANGE_FAILURE;
      }
      fputs (OCTO_FRAME_LOG_SENT_HEADER, self->log);
    }
    g_free (path);
  }
  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    release (self);
  return ret;
}

static void
set_vector (float v[3], const GValue *value)
{
  for (guint i = 0; i < 3 && i < gst_value_array_get_size (value); i++) {
    const GValue *e = gst_value_array_get_value (value, i);
    GValue d = G_VALUE_INIT;
    g_value_init (&d, G_TYPE_DOUBLE);
    if (g_value_transform (e, &d))
      v[i] = (float) g_value_get_double (&d);
    g_value_unset (&d);
  }
}

static void
get_vector (const float v[3], GValue *value)
{
  for (guint i = 0; i < 3; i++) {
    GValue d = G_VALUE_INIT;
    g_value_init (&d, G_TYPE_DOUBLE);
    g_value_set_double (&d, v[i]);
    gst_value_array_append_and_take_value (value, &d);
  }
}

static GstStructure *
stats (GstOctopusPcEnc *self)
{
  return gst_structure_new ("application/x-octopus-pcenc-stats",
      "frames", G_TYPE_UINT64, self->frames,
      "messages", G_TYPE_UINT64, self->messages,
      "bytes", G_TYPE_UINT64, self->payload_bytes,
      "points", G_TYPE_UINT64, self->points, NULL);
}

static void
gst_octopus_pc_enc_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusPcEnc *self = GST_OCTOPUS_PC_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CELLS_X:
      self->config.nx = g_value_get_uint (value);
      break;
    case PROP_CELLS_Z:
      self->config.nz = g_value_get_uint (value);
      break;
    case PROP_DENSITY_LAYERS:
      self->config.n_layers = g_value_get_uint (value);
      break;
    case PROP_METHOD:
      self->config.method = g_value_get_enum (value);
      break;
    case PROP_SPEED:
      self->config.speed = g_value_get_int (value);
      break;
    case PROP_POSITION_BITS:
      self->config.position_bits = g_value_get_int (value);
      break;
    case PROP_SEED:
      self->config.seed = g_value_get_uint (value);
      break;
    case PROP_CAMERA_POSITION:
      set_vector (self->viewport.position, value);
      break;
    case PROP_CAMERA_DIRECTION:{
      float d[3];
      memcpy (d, self->viewport.direction, sizeof (d));
      set_vector (d, value);
      /* refused as GObject refuses an out-of-range value: cells are ranked
       * by depth along this vector, which a zero vector does not give */
      if (!(isfinite (d[0]) && isfinite (d[1]) && isfinite (d[2]))
          || d[0] * d[0] + d[1] * d[1] + d[2] * d[2] == 0.0f)
        g_warning ("%s: camera-direction <%g, %g, %g> gives no direction "
            "(a non-zero, finite vector is needed); keeping <%g, %g, %g>",
            GST_OBJECT_NAME (self), d[0], d[1], d[2],
            self->viewport.direction[0], self->viewport.direction[1],
            self->viewport.direction[2]);
      else
        memcpy (self->viewport.direction, d, sizeof (d));
      break;
    }
    case PROP_SENT_LOG:
      g_free (self->sent_log);
      self->sent_log = g_value_dup_string (value);
      break;
    case PROP_SSIM_TABLE:
      g_free (self->ssim_table_path);
      self->ssim_table_path = g_value_dup_string (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_pc_enc_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstOctopusPcEnc *self = GST_OCTOPUS_PC_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CELLS_X:
      g_value_set_uint (value, self->config.nx);
      break;
    case PROP_CELLS_Z:
      g_value_set_uint (value, self->config.nz);
      break;
    case PROP_DENSITY_LAYERS:
      g_value_set_uint (value, self->config.n_layers);
      break;
    case PROP_METHOD:
      g_value_set_enum (value, self->config.method);
      break;
    case PROP_SPEED:
      g_value_set_int (value, self->config.speed);
      break;
    case PROP_POSITION_BITS:
      g_value_set_int (value, self->config.position_bits);
      break;
    case PROP_SEED:
      g_value_set_uint (value, self->config.seed);
      break;
    case PROP_CAMERA_POSITION:
      get_vector (self->viewport.position, value);
      break;
    case PROP_CAMERA_DIRECTION:
      get_vector (self->viewport.direction, value);
      break;
    case PROP_SENT_LOG:
      g_value_set_string (value, self->sent_log);
      break;
    case PROP_SSIM_TABLE:
      g_value_set_string (value, self->ssim_table_path);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->threads);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_pc_enc_finalize (GObject *object)
{
  GstOctopusPcEnc *self = GST_OCTOPUS_PC_ENC (object);
  g_free (self->sent_log);
  g_free (self->ssim_table_path);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_pc_enc_class_init (GstOctopusPcEncClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_pc_enc_set_property;
  gobject_class->get_property = gst_octopus_pc_enc_get_property;
  gobject_class->finalize = gst_octopus_pc_enc_finalize;

  g_object_class_install_property (gobject_class, PROP_CELLS_X,
      g_param_spec_uint ("cells-x", "Cells along x",
          "Columns of the cell grid over the frame's x extent", 1,
          OCTO_PC_MAX_GRID, DEFAULT_CELLS, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_CELLS_Z,
      g_param_spec_uint ("cells-z", "Cells along z",
          "Rows of the cell grid over the frame's z extent", 1,
          OCTO_PC_MAX_GRID, DEFAULT_CELLS, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_DENSITY_LAYERS,
      g_param_spec_uint ("density-layers", "Density layers",
          "Disjoint random subsets per cell (each 1/n of its points); the "
          "volumetric preset's tags are defined for 5", 1,
          OCTO_PC_MAX_LAYERS, DEFAULT_DENSITY_LAYERS,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "Draco point-cloud coding",
          GST_TYPE_OCTOPUS_PC_METHOD, DEFAULT_METHOD,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_SPEED,
      g_param_spec_int ("speed", "Speed",
          "Draco encoding and decoding speed (0 smallest .. 10 fastest)",
          0, 10, DEFAULT_SPEED, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_POSITION_BITS,
      g_param_spec_int ("position-bits", "Position bits",
          "Quantisation bits per axis of the frame's shared grid (its "
          "bounding cube)", 1, 30, DEFAULT_POSITION_BITS,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_SEED,
      g_param_spec_uint ("seed", "Seed",
          "Seed of the layer draws (XORed with the frame id)", 0,
          G_MAXUINT32, DEFAULT_SEED, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_CAMERA_POSITION,
      gst_param_spec_array ("camera-position", "Camera position",
          "Viewer position <x, y, z> in the cloud's coordinates (default "
          "<0, 0, -10>); cells nearest along camera-direction are front",
          g_param_spec_double ("coordinate", "Coordinate", "One axis",
              -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, rw),
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_CAMERA_DIRECTION,
      gst_param_spec_array ("camera-direction", "Camera direction",
          "Viewing direction <x, y, z> (default <0, 0, 1>)",
          g_param_spec_double ("component", "Component", "One axis",
              -G_MAXDOUBLE, G_MAXDOUBLE, 0.0, rw),
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_SENT_LOG,
      g_param_spec_string ("sent-log", "Sent log",
          "CSV of every message sent (frame,index,capture_ns,keyframe,"
          "temporal_layer,level,quality; index = send order) for "
          "eval/octo-metrics; quality = the SSIM the layer adds to its "
          "frame by ssim-table (else its fraction of the frame's points)",
          NULL, rw));
  g_object_class_install_property (gobject_class, PROP_SSIM_TABLE,
      g_param_spec_string ("ssim-table", "SSIM table",
          "The (distance, density) -> SSIM table (CSV, e.g. "
          "data/pointcloud/ssim-table.csv) that scores the sent log: each "
          "cell at its density and its distance from camera-position, "
          "weighted by its share of the points", NULL, rw));
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Threads coding a frame's layers (0: the processors, at most 4); "
          "the output does not depend on it", 0, 64, DEFAULT_THREADS, rw));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "frames, messages, bytes (headers + Draco) and points so far",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus point-cloud encoder", "Codec/Encoder/PointCloud",
      "Splits frames into cells x density layers, Draco-codes each layer on "
      "one shared grid and pushes the layers in send order with volumetric "
      "tags", GST_OCTOPUS_AUTHORS);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_octopus_pc_enc_change_state);

  gst_type_mark_as_plugin_api (GST_TYPE_OCTOPUS_PC_METHOD, 0);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_pc_enc_debug, "octopuspcenc", 0,
      "Octopus point-cloud encoder");
}

static void
gst_octopus_pc_enc_init (GstOctopusPcEnc *self)
{
  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_pc_enc_chain));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_pc_enc_sink_event));
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_use_fixed_caps (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);

  self->config = (OctoPcEncodeConfig) { DEFAULT_CELLS, DEFAULT_CELLS,
    DEFAULT_DENSITY_LAYERS, DEFAULT_METHOD, DEFAULT_SPEED,
    DEFAULT_POSITION_BITS, DEFAULT_SEED };
  self->threads = DEFAULT_THREADS;
  memcpy (self->viewport.position, default_camera_position,
      sizeof (default_camera_position));
  memcpy (self->viewport.direction, default_camera_direction,
      sizeof (default_camera_direction));
}
