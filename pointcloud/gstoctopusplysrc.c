/* octopusplysrc: reads PLY point clouds (pc-ply.c) and pushes frames in
 * the layout of pc-point.h.
 *
 *  location=cloud.ply          one file; num-frames copies of it, turned
 *                              by degrees-per-second (the demo's motion)
 *  location=seq/frame%04d.ply  a sequence from start-index until the first
 *                              missing file (or num-frames)
 *
 * Timestamps are frame-index / framerate; is-live=true releases each frame
 * on the clock at its timestamp (a camera-like live source). */
#include "gstoctopusplysrc.h"

#include "pc-animate.h"
#include "pc-ply.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_octopus_ply_src_debug);
#define GST_CAT_DEFAULT gst_octopus_ply_src_debug

enum {
  PROP_0,
  PROP_LOCATION,
  PROP_START_INDEX,
  PROP_NUM_FRAMES,
  PROP_FRAMERATE,
  PROP_DEGREES_PER_SECOND,
  PROP_COLOUR_FROM_HEIGHT,
  PROP_IS_LIVE,
};

#define DEFAULT_START_INDEX 0
#define DEFAULT_NUM_FRAMES -1
#define DEFAULT_FPS_N 20
#define DEFAULT_FPS_D 1
#define DEFAULT_DEGREES_PER_SECOND 0.0
#define DEFAULT_COLOUR_FROM_HEIGHT FALSE
#define DEFAULT_IS_LIVE FALSE

struct _GstOctopusPlySrc {
  GstPushSrc parent;

  gchar *location;
  gint start_index;
  gint num_frames;
  gint fps_n, fps_d;
  gdouble degrees_per_second;
  gboolean colour_from_height;

  gboolean sequence;            /* location is a printf pattern */
  GArray *still;                /* the single file's points */
  guint64 frame;
};

#define gst_octopus_ply_src_parent_class parent_class
G_DEFINE_TYPE (GstOctopusPlySrc, gst_octopus_ply_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE (octopusplysrc, "octopusplysrc", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_PLY_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (OCTO_PC_CAPS));

/* A pattern must hold exactly one integer conversion and nothing else. */
static gboolean
is_sequence_pattern (const gchar *location)
{
  const gchar *p = strchr (location, '%');
  if (!p)
    return FALSE;
  p++;
  while (*p >= '0' && *p <= '9')
    p++;
  return *p == 'd' && strchr (p, '%') == NULL;
}

/* Reads and parses @path; posts an error naming the file and returns NULL
 * on failure, or when @missing_ok and the file does not exist. */
static GArray *
load (GstOctopusPlySrc *self, const gchar *path, gboolean missing_ok)
{
  gchar *data;
  gsize len;
  GError *error = NULL;
  GArray *pts;

  if (!g_file_get_contents (path, &data, &len, &error)) {
    if (!(missing_ok && g_error_matches (error, G_FILE_ERROR,
                G_FILE_ERROR_NOENT)))
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
          ("Could not read point cloud '%s'", path), ("%s", error->message));
    g_error_free (error);
    return NULL;
  }
  pts = octo_pc_ply_parse ((const guint8 *) data, len, &error);
  g_free (data);
  if (!pts) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE,
        ("Bad PLY file '%s': %s", path, error->message),
        ("%s: %s", path, error->message));
    g_error_free (error);
  }
  return pts;
}

static gboolean
gst_octopus_ply_src_start (GstBaseSrc *bsrc)
{
  GstOctopusPlySrc *self = GST_OCTOPUS_PLY_SRC (bsrc);

  self->frame = 0;
  if (!self->location) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No PLY file given"),
        ("set location to a .ply file or a pattern such as frame%%04d.ply"));
    return FALSE;
  }
  self->sequence = is_sequence_pattern (self->location);
  if (!self->sequence) {
    self->still = load (self, self->location, FALSE);
    return self->still != NULL;
  }
  return TRUE;
}

static gboolean
gst_octopus_ply_src_stop (GstBaseSrc *bsrc)
{
  GstOctopusPlySrc *self = GST_OCTOPUS_PLY_SRC (bsrc);
  g_clear_pointer (&self->still, g_array_unref);
  return TRUE;
}

static GstCaps *
gst_octopus_ply_src_get_caps (GstBaseSrc *bsrc, GstCaps *filter)
{
  GstOctopusPlySrc *self = GST_OCTOPUS_PLY_SRC (bsrc);
  GstCaps *caps = gst_caps_new_simple (OCTO_PC_MEDIA_TYPE,
      "format", G_TYPE_STRING, "xyz32f-rgb8",
      "framerate", GST_TYPE_FRACTION, self->fps_n, self->fps_d, NULL);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, caps,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = tmp;
  }
  return caps;
}

static GstFlowReturn
gst_octopus_ply_src_create (GstPushSrc *psrc, GstBuffer **out)
{
  GstOctopusPlySrc *self = GST_OCTOPUS_PLY_SRC (psrc);
  GstClockTime pts = gst_util_uint64_scale (self->frame,
      GST_SECOND * self->fps_d, self->fps_n);
  GstBuffer *buf;
  GstMapInfo map;
  GArray *pts_in;
  gboolean own;

  if (self->num_frames >= 0 && self->frame >= (guint64) self->num_frames)
    return GST_FLOW_EOS;
  if (self->sequence) {
    gchar *path = g_strdup_printf (self->location,
        self->start_index + (gint) self->frame);
    pts_in = load (self, path, self->frame > 0);
    if (!pts_in) {
      gboolean exists = g_file_test (path, G_FILE_TEST_EXISTS);
      g_free (path);
      return self->frame > 0 && !exists ? GST_FLOW_EOS : GST_FLOW_ERROR;
    }
    g_free (path);
    own = TRUE;
  } else {
    if (self->num_frames < 0 && self->frame > 0)
      return GST_FLOW_EOS;
    pts_in = self->still;
    own = FALSE;
  }

  buf = gst_buffer_new_allocate (NULL, pts_in->len * sizeof (OctoPcPoint),
      NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  {
    OctoPcAnimation anim = { self->degrees_per_second,
      self->colour_from_height };
    octo_pc_animate (&anim, (const OctoPcPoint *) pts_in->data, pts_in->len,
        (double) pts / GST_SECOND, (OctoPcPoint *) map.data);
  }
  gst_buffer_unmap (buf, &map);
  if (own)
    g_array_unref (pts_in);

  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (GST_SECOND,
      self->fps_d, self->fps_n);
  GST_BUFFER_OFFSET (buf) = self->frame;
  self->frame++;
  *out = buf;
  return GST_FLOW_OK;
}

static void
gst_octopus_ply_src_get_times (GstBaseSrc *bsrc, GstBuffer *buf,
    GstClockTime *start, GstClockTime *end)
{
  /* only a live source waits for the clock */
  if (!gst_base_src_is_live (bsrc))
    return;
  *start = GST_BUFFER_PTS (buf);
  *end = GST_CLOCK_TIME_NONE;
}

static void
gst_octopus_ply_src_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusPlySrc *self = GST_OCTOPUS_PLY_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_START_INDEX:
      self->start_index = g_value_get_int (value);
      break;
    case PROP_NUM_FRAMES:
      self->num_frames = g_value_get_int (value);
      break;
    case PROP_FRAMERATE:
      self->fps_n = gst_value_get_fraction_numerator (value);
      self->fps_d = gst_value_get_fraction_denominator (value);
      break;
    case PROP_DEGREES_PER_SECOND:
      self->degrees_per_second = g_value_get_double (value);
      break;
    case PROP_COLOUR_FROM_HEIGHT:
      self->colour_from_height = g_value_get_boolean (value);
      break;
    case PROP_IS_LIVE:
      /* takes the object lock itself */
      GST_OBJECT_UNLOCK (self);
      gst_base_src_set_live (GST_BASE_SRC (self), g_value_get_boolean (value));
      return;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_ply_src_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstOctopusPlySrc *self = GST_OCTOPUS_PLY_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_START_INDEX:
      g_value_set_int (value, self->start_index);
      break;
    case PROP_NUM_FRAMES:
      g_value_set_int (value, self->num_frames);
      break;
    case PROP_FRAMERATE:
      gst_value_set_fraction (value, self->fps_n, self->fps_d);
      break;
    case PROP_DEGREES_PER_SECOND:
      g_value_set_double (value, self->degrees_per_second);
      break;
    case PROP_COLOUR_FROM_HEIGHT:
      g_value_set_boolean (value, self->colour_from_height);
      break;
    case PROP_IS_LIVE:
      GST_OBJECT_UNLOCK (self);
      g_value_set_boolean (value, gst_base_src_is_live (GST_BASE_SRC (self)));
      return;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_ply_src_finalize (GObject *object)
{
  GstOctopusPlySrc *self = GST_OCTOPUS_PLY_SRC (object);
  g_free (self->location);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_ply_src_class_init (GstOctopusPlySrcClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_ply_src_set_property;
  gobject_class->get_property = gst_octopus_ply_src_get_property;
  gobject_class->finalize = gst_octopus_ply_src_finalize;

  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "PLY file (ASCII or binary), or a pattern with one integer "
          "conversion (frame%04d.ply) for a numbered sequence", NULL, rw));
  g_object_class_install_property (gobject_class, PROP_START_INDEX,
      g_param_spec_int ("start-index", "Start index",
          "First number of a sequence pattern", 0, G_MAXINT,
          DEFAULT_START_INDEX, rw));
  g_object_class_install_property (gobject_class, PROP_NUM_FRAMES,
      g_param_spec_int ("num-frames", "Number of frames",
          "Frames to push (-1: every file of a sequence, or one frame of a "
          "single file); a single file repeats, turned by "
          "degrees-per-second", -1, G_MAXINT, DEFAULT_NUM_FRAMES, rw));
  g_object_class_install_property (gobject_class, PROP_FRAMERATE,
      gst_param_spec_fraction ("framerate", "Frame rate",
          "Frames per second (timestamps and caps)", 1, 1, 1000, 1,
          DEFAULT_FPS_N, DEFAULT_FPS_D, rw));
  g_object_class_install_property (gobject_class, PROP_DEGREES_PER_SECOND,
      g_param_spec_double ("degrees-per-second", "Degrees per second",
          "Rigid turn about the vertical (y) axis through the cloud's centre",
          -3600.0, 3600.0, DEFAULT_DEGREES_PER_SECOND, rw));
  g_object_class_install_property (gobject_class, PROP_COLOUR_FROM_HEIGHT,
      g_param_spec_boolean ("colour-from-height", "Colour from height",
          "Replace colours by a blue-green-red ramp over the height (y)",
          DEFAULT_COLOUR_FROM_HEIGHT, rw));
  g_object_class_install_property (gobject_class, PROP_IS_LIVE,
      g_param_spec_boolean ("is-live", "Is live",
          "Release each frame on the pipeline clock at its timestamp",
          DEFAULT_IS_LIVE, rw));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus PLY point-cloud source", "Source/PointCloud",
      "Reads PLY point clouds (ASCII or binary, single files, numbered "
      "sequences, or one cloud animated) as point-cloud frames",
      GST_OCTOPUS_AUTHORS);

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_octopus_ply_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_ply_src_stop);
  bsrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_octopus_ply_src_get_caps);
  bsrc_class->get_times = GST_DEBUG_FUNCPTR (gst_octopus_ply_src_get_times);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_octopus_ply_src_create);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_ply_src_debug, "octopusplysrc", 0,
      "Octopus PLY point-cloud source");
}

static void
gst_octopus_ply_src_init (GstOctopusPlySrc *self)
{
  self->start_index = DEFAULT_START_INDEX;
  self->num_frames = DEFAULT_NUM_FRAMES;
  self->fps_n = DEFAULT_FPS_N;
  self->fps_d = DEFAULT_FPS_D;
  self->degrees_per_second = DEFAULT_DEGREES_PER_SECOND;
  self->colour_from_height = DEFAULT_COLOUR_FROM_HEIGHT;
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}
