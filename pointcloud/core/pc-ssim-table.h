/* gst-octopus point clouds: the per-(density, distance) -> SSIM table
 * (data/pointcloud/ssim-table.csv; how it is made: its README).
 *
 * CSV: a header line "distance,density,ssim", then one row per grid point;
 * distance in multiples of the cloud's largest extent, density the
 * fraction of points kept (0 < density <= 1), ssim linear.  Every
 * distance must have the same densities. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define OCTO_PC_SSIM_TABLE_ERROR (octo_pc_ssim_table_error_quark ())
GQuark octo_pc_ssim_table_error_quark (void);

typedef struct _OctoPcSsimTable OctoPcSsimTable;

/* Parses the CSV text of the file @name; errors read "NAME:LINE: reason"
 * (LINE 0 for a problem of the whole table). */
OctoPcSsimTable *octo_pc_ssim_table_parse (const gchar *text,
    const gchar *name, GError **error);

/* Reads and parses the file @path (errors as above, or why it could not
 * be read). */
OctoPcSsimTable *octo_pc_ssim_table_load (const gchar *path,
    GError **error);
void octo_pc_ssim_table_free (OctoPcSsimTable *table);

/* SSIM at @density (0 gives 0; below the smallest tabulated density,
 * linear towards 0) and @distance (clamped to the table's range),
 * interpolated bilinearly. */
double octo_pc_ssim_table_lookup (const OctoPcSsimTable *table,
    double density, double distance);

G_END_DECLS
