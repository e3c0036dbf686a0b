#ifndef NEWSSTAND_CVIPS_H
#define NEWSSTAND_CVIPS_H

// The imaging engine's view of libvips: its types (from its headers) and fixed-argument
// functions for exactly the calls NewsstandImaging makes. libvips' C API takes variadic,
// NULL-terminated options, which Swift cannot call; and libvips is not linked: CVips.c opens
// it with dlopen the first time the engine starts or its version is asked (`cvips_open`), so
// that a command that works on no image (validate, a build whose images are all given,
// publish, the reader's tools) does not pay for binding libvips and the hundred libraries it brings (24 ms of every start-up,
// measured: bench/README.md, "Where a full build goes"). Only libvips goes through dlopen;
// GLib is linked (CGObject). No function below but `cvips_open`, `cvips_limit_malloc_arenas`
// and `cvips_log_to` may be called before `cvips_open` has returned NULL.

#include <vips/vips.h>

// MARK: start-up

/// Opens libvips and finds every function CVips calls, once per process (later calls return
/// the first call's answer): NULL when it is loaded, else the reason, a string that lives as
/// long as the process.
const char *cvips_open(void);
/// `vips_init`.
int cvips_init(const char *argv0);
/// libvips' version ("8.14.1").
const char *cvips_version_string(void);
/// Blocks every loader but the five the engine needs, sets the operation cache to nothing,
/// switches off run-time generated vector code, drops libvips' warnings (CVips.c says why).
void cvips_configure(void);
/// Two malloc arenas instead of glibc's eight per core (process-wide: called by executables).
void cvips_limit_malloc_arenas(void);
/// Sends every message a library logs through GLib to `fd`, one `LibraryMessage` line each.
void cvips_log_to(int fd);
void cvips_set_concurrency(int threads);

// MARK: sources and targets over a descriptor

/// A source reading `fd` from offset 0 with pread; the descriptor is not closed and must stay
/// open while the source or any image made from it lives.
VipsSource *cvips_source_new_pread(int fd);

/// What a target wrote; `error` is the errno of a failed write (0 when none). Owned by the caller,
/// who must keep it alive as long as the target.
typedef struct {
    int fd;            // -1: count only, write nothing
    gint64 written;
    int error;
} CVipsWriteState;

/// A target that pwrites from offset 0 of `state->fd` (or only counts bytes when it is -1).
VipsTarget *cvips_target_new(CVipsWriteState *state);

// MARK: images

int cvips_load(VipsSource *source, VipsImage **out, gboolean sequential);
int cvips_pdfload(VipsSource *source, VipsImage **out, int page, double scale);
const char *cvips_foreign_find_load_source(VipsSource *source);
VipsImage *cvips_image_new_from_memory_copy(const void *data, size_t size, int width, int height, int bands,
                                            VipsBandFormat format);
VipsImage *cvips_image_copy_memory(VipsImage *image);

int cvips_image_get_width(const VipsImage *image);
int cvips_image_get_height(const VipsImage *image);
int cvips_image_get_bands(const VipsImage *image);
VipsBandFormat cvips_image_get_format(const VipsImage *image);
VipsInterpretation cvips_image_get_interpretation(const VipsImage *image);
gboolean cvips_image_hasalpha(VipsImage *image);
guint64 cvips_format_sizeof(VipsBandFormat format);

/// Metadata: a field's type (0 when absent), its value, its removal.
GType cvips_image_get_typeof(const VipsImage *image, const char *name);
int cvips_image_get_string(const VipsImage *image, const char *name, const char **out);
int cvips_image_get_int(const VipsImage *image, const char *name, int *out);
int cvips_image_get_blob(const VipsImage *image, const char *name, const void **data, size_t *length);
void cvips_image_set_blob_copy(VipsImage *image, const char *name, const void *data, size_t length);
gboolean cvips_image_remove(VipsImage *image, const char *name);
/// Field names of an image's metadata, NULL-terminated; free with cvips_strfreev.
char **cvips_fields(VipsImage *image);

// MARK: operations

int cvips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale);
int cvips_premultiply(VipsImage *in, VipsImage **out);
int cvips_unpremultiply(VipsImage *in, VipsImage **out);
int cvips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format);
int cvips_autorot(VipsImage *in, VipsImage **out);
int cvips_copy(VipsImage *in, VipsImage **out);
int cvips_flatten_white(VipsImage *in, VipsImage **out);
/// Adds rows or columns at the right and bottom, copying the edge pixels.
int cvips_extend(VipsImage *in, VipsImage **out, int width, int height);
int cvips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
int cvips_colourspace_srgb(VipsImage *in, VipsImage **out);
int cvips_icc_to_srgb(VipsImage *in, VipsImage **out);
int cvips_equal(VipsImage *left, VipsImage *right, VipsImage **out);
int cvips_subtract(VipsImage *left, VipsImage *right, VipsImage **out);
int cvips_abs(VipsImage *in, VipsImage **out);
/// The smallest value over every band and pixel, and where it is.
int cvips_min(VipsImage *in, double *value, int *x, int *y);
int cvips_max(VipsImage *in, double *value);
int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int count);
int cvips_bandjoin(VipsImage **in, int count, VipsImage **out);
int cvips_set_interpretation(VipsImage *in, VipsImage **out, VipsInterpretation interpretation);

// MARK: saving

/// PNG. `palette` (with `bitdepth` 1, 2, 4 or 8) asks libimagequant for a palette at full
/// quality without dithering: lossy in general, so its result is only kept after a pixel check.
/// A `bitdepth` of 0 keeps the image's own depth.
int cvips_pngsave(VipsImage *in, VipsTarget *target, int compression, int filter, gboolean strip, gboolean palette,
                  int bitdepth);
/// JPEG: baseline, Huffman tables optimised, no chroma subsampling at quality 90 and above
/// (libvips' automatic mode), no trellis or scan optimisation (libjpeg-turbo has neither).
int cvips_jpegsave(VipsImage *in, VipsTarget *target, int quality, gboolean strip);
int cvips_webpsave(VipsImage *in, VipsTarget *target, int quality, gboolean strip);

// MARK: errors and memory

/// The error text libvips collected, taken and cleared in one step (the buffer is global: a
/// concurrent failure's text may be mixed in); NULL when libvips is not loaded. Free with
/// cvips_free.
char *cvips_take_error(void);
void cvips_unref(gpointer object);
void cvips_free(gpointer memory);
void cvips_strfreev(char **list);

#endif
