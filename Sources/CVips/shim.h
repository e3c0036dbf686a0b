#include <vips/vips.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// libvips' C API takes variadic, NULL-terminated options, which Swift cannot call: these are
// fixed-argument wrappers for exactly the calls NewsstandImaging makes, plus a source and a
// target over a file descriptor that use pread/pwrite at their own offset (so two operations
// can read one open file at once, and a write error keeps its errno).

// MARK: start-up

/// Blocks every loader but the five the engine needs (PNG, JPEG, WebP, HEIF, PDF): a file
/// that says it is a PNG and is really a matlab, FITS, SVG or ImageMagick file never reaches
/// those parsers. Sets the operation cache to nothing: every input is read once, and a cache
/// would only keep files and pixels alive. Switches off libvips' run-time generated vector
/// code (orc): its 8-bit resampling rounds differently from the plain C path, so the same
/// master gave different bytes with VIPS_NOVECTOR=1 (as on a CPU orc cannot target); the C
/// path is integer arithmetic, the same everywhere, and was no slower than 1.3x here.
static inline void cvips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer user) {
    (void)domain; (void)level; (void)message; (void)user;
}

/// Two malloc arenas instead of glibc's eight per core (process-wide: called by executables).
static inline void cvips_limit_malloc_arenas(void) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
#endif
}

static inline void cvips_configure(void) {
    // glibc's arena count (mallopt(M_ARENA_MAX, 2), which kept PDF rendering's memory flat) is
    // process-wide, so it is the executable's choice, not the library's: the newsstand and
    // ImagingBench executables set it at start-up; an app embedding the engine keeps its own.
    vips_vector_set_enabled(FALSE);
    // libvips prints warnings to stderr ("heifload: ignoring nclx profile", "read gave 2
    // warnings"): the engine fails on what matters (fail_on=error) and reports it as a value,
    // so a command's output is not interleaved with a library's.
    g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO),
                      cvips_drop_log, NULL);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    vips_operation_block_set("VipsForeignLoadPng", FALSE);
    vips_operation_block_set("VipsForeignLoadJpeg", FALSE);
    vips_operation_block_set("VipsForeignLoadWebp", FALSE);
    vips_operation_block_set("VipsForeignLoadHeif", FALSE);
    vips_operation_block_set("VipsForeignLoadPdf", FALSE);
}

/// Sends every message a library logs through GLib (poppler's complaints about a PDF, GLib's
/// own warnings) to `fd`, one line each: the byte 0x1E, the domain, a tab, the level (error,
/// critical, warning, message, info), a tab, the text with line breaks as spaces, a line feed.
/// Debug messages are dropped, and libvips' own below critical (its start-up notes; its
/// warnings the engine drops anyway, see cvips_configure). One write() of at most 1,024 bytes a
/// message, so lines from several threads never mix in a pipe. The handler keeps no state.
static inline void cvips_log_line(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer user) {
    if (level & G_LOG_LEVEL_DEBUG) return;
    if (domain && strcmp(domain, "VIPS") == 0 && !(level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL))) return;
    const char *name = (level & G_LOG_LEVEL_ERROR) ? "error"
        : (level & G_LOG_LEVEL_CRITICAL) ? "critical"
        : (level & G_LOG_LEVEL_WARNING) ? "warning"
        : (level & G_LOG_LEVEL_MESSAGE) ? "message" : "info";
    char line[1024];
    int n = snprintf(line, sizeof line, "\x1e%s\t%s\t%s", domain ? domain : "", name, message ? message : "");
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    for (int i = 1; i < n; i++)
        if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
    line[n] = '\n';
    ssize_t written;
    do written = write(GPOINTER_TO_INT(user), line, (size_t)n + 1); while (written < 0 && errno == EINTR);
}

static inline void cvips_log_to(int fd) { g_log_set_default_handler(cvips_log_line, GINT_TO_POINTER(fd)); }

static inline void cvips_set_concurrency(int threads) { vips_concurrency_set(threads); }

// MARK: reading from a descriptor at our own offset

typedef struct {
    int fd;
    gint64 position;
} CVipsReadState;

static inline gint64 cvips_pread_read(VipsSourceCustom *source, void *buffer, gint64 length, gpointer user) {
    (void)source;
    CVipsReadState *state = (CVipsReadState *)user;
    for (;;) {
        ssize_t n = pread(state->fd, buffer, (size_t)length, (off_t)state->position);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        state->position += n;
        return n;
    }
}

static inline gint64 cvips_pread_seek(VipsSourceCustom *source, gint64 offset, int whence, gpointer user) {
    (void)source;
    CVipsReadState *state = (CVipsReadState *)user;
    gint64 base = 0;
    if (whence == SEEK_CUR) base = state->position;
    else if (whence == SEEK_END) {
        struct stat info;
        if (fstat(state->fd, &info) != 0) return -1;
        base = (gint64)info.st_size;
    } else if (whence != SEEK_SET) return -1;
    if (base + offset < 0) return -1;
    state->position = base + offset;
    return state->position;
}

static inline void cvips_free_read_state(gpointer data, GClosure *closure) {
    (void)closure;
    g_free(data);
}

/// A source reading `fd` from offset 0 with pread; the descriptor is not closed and must stay
/// open while the source or any image made from it lives.
static inline VipsSource *cvips_source_new_pread(int fd) {
    VipsSourceCustom *source = vips_source_custom_new();
    CVipsReadState *state = g_new0(CVipsReadState, 1);
    state->fd = fd;
    g_signal_connect_data(source, "read", G_CALLBACK(cvips_pread_read), state, cvips_free_read_state, (GConnectFlags)0);
    g_signal_connect(source, "seek", G_CALLBACK(cvips_pread_seek), state);
    return VIPS_SOURCE(source);
}

// MARK: writing to a descriptor, or only counting

/// What a target wrote; `error` is the errno of a failed write (0 when none). Owned by the caller,
/// who must keep it alive as long as the target.
typedef struct {
    int fd;            // -1: count only, write nothing
    gint64 written;
    int error;
} CVipsWriteState;

static inline gint64 cvips_target_write(VipsTargetCustom *target, const void *data, gint64 length, gpointer user) {
    (void)target;
    CVipsWriteState *state = (CVipsWriteState *)user;
    if (state->fd < 0) {
        state->written += length;
        return length;
    }
    const char *bytes = (const char *)data;
    gint64 done = 0;
    while (done < length) {
        ssize_t n = pwrite(state->fd, bytes + done, (size_t)(length - done), (off_t)(state->written + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            state->error = n < 0 ? errno : ENOSPC;
            return -1;
        }
        done += n;
    }
    state->written += done;
    return done;
}

/// A target that pwrites from offset 0 of `state->fd` (or only counts bytes when it is -1).
static inline VipsTarget *cvips_target_new(CVipsWriteState *state) {
    VipsTargetCustom *target = vips_target_custom_new();
    g_signal_connect(target, "write", G_CALLBACK(cvips_target_write), state);
    return VIPS_TARGET(target);
}

// MARK: loading

static inline int cvips_load(VipsSource *source, VipsImage **out, gboolean sequential) {
    *out = vips_image_new_from_source(source, "",
        "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM,
        "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    return *out ? 0 : -1;
}

static inline int cvips_pdfload(VipsSource *source, VipsImage **out, int page, double scale) {
    return vips_pdfload_source(source, out, "page", page, "n", 1, "scale", scale,
        "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

// MARK: operations

static inline int cvips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}
static inline int cvips_premultiply(VipsImage *in, VipsImage **out) { return vips_premultiply(in, out, NULL); }
static inline int cvips_unpremultiply(VipsImage *in, VipsImage **out) { return vips_unpremultiply(in, out, NULL); }
static inline int cvips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) {
    return vips_cast(in, out, format, NULL);
}
static inline int cvips_autorot(VipsImage *in, VipsImage **out) { return vips_autorot(in, out, NULL); }
static inline int cvips_copy(VipsImage *in, VipsImage **out) { return vips_copy(in, out, NULL); }
static inline int cvips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[1] = {255.0};
    VipsArrayDouble *background = vips_array_double_new(white, 1);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}
/// Adds rows or columns at the right and bottom, copying the edge pixels.
static inline int cvips_extend(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_embed(in, out, 0, 0, width, height, "extend", VIPS_EXTEND_COPY, NULL);
}
static inline int cvips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_crop(in, out, left, top, width, height, NULL);
}
static inline int cvips_colourspace_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}
static inline int cvips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL);
}
static inline int cvips_equal(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_equal(left, right, out, NULL);
}
static inline int cvips_subtract(VipsImage *left, VipsImage *right, VipsImage **out) {
    return vips_subtract(left, right, out, NULL);
}
static inline int cvips_abs(VipsImage *in, VipsImage **out) { return vips_abs(in, out, NULL); }
/// The smallest value over every band and pixel, and where it is.
static inline int cvips_min(VipsImage *in, double *value, int *x, int *y) {
    return vips_min(in, value, "x", x, "y", y, NULL);
}
static inline int cvips_max(VipsImage *in, double *value) { return vips_max(in, value, NULL); }
static inline int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int count) {
    return vips_extract_band(in, out, first, "n", count, NULL);
}
static inline int cvips_bandjoin(VipsImage **in, int count, VipsImage **out) { return vips_bandjoin(in, out, count, NULL); }
static inline int cvips_set_interpretation(VipsImage *in, VipsImage **out, VipsInterpretation interpretation) {
    return vips_copy(in, out, "interpretation", interpretation, NULL);
}

// MARK: saving

/// PNG. `palette` (with `bitdepth` 1, 2, 4 or 8) asks libimagequant for a palette at full
/// quality without dithering: lossy in general, so its result is only kept after a pixel check.
/// A `bitdepth` of 0 keeps the image's own depth.
static inline int cvips_pngsave(VipsImage *in, VipsTarget *target, int compression, int filter,
                                gboolean strip, gboolean palette, int bitdepth) {
    if (palette)
        return vips_pngsave_target(in, target, "compression", compression, "filter", filter, "strip", strip,
            "interlace", FALSE, "palette", TRUE, "Q", 100, "dither", 0.0, "effort", 10, "bitdepth", bitdepth, NULL);
    if (bitdepth > 0)
        return vips_pngsave_target(in, target, "compression", compression, "filter", filter, "strip", strip,
            "interlace", FALSE, "bitdepth", bitdepth, NULL);
    return vips_pngsave_target(in, target, "compression", compression, "filter", filter, "strip", strip,
        "interlace", FALSE, NULL);
}

/// JPEG: baseline, Huffman tables optimised, no chroma subsampling at quality 90 and above
/// (libvips' automatic mode), no trellis or scan optimisation (libjpeg-turbo has neither).
static inline int cvips_jpegsave(VipsImage *in, VipsTarget *target, int quality, gboolean strip) {
    return vips_jpegsave_target(in, target, "Q", quality, "strip", strip, "optimize_coding", TRUE,
        "interlace", FALSE, "subsample_mode", VIPS_FOREIGN_SUBSAMPLE_AUTO, NULL);
}

static inline int cvips_webpsave(VipsImage *in, VipsTarget *target, int quality, gboolean strip) {
    return vips_webpsave_target(in, target, "Q", quality, "strip", strip, "effort", 4,
        "smart_subsample", FALSE, "lossless", FALSE, NULL);
}

// MARK: errors and metadata

/// The error text libvips collected, taken and cleared in one step (the buffer is global: a
/// concurrent failure's text may be mixed in). Free with g_free.
static inline char *cvips_take_error(void) { return vips_error_buffer_copy(); }

static inline void cvips_unref(gpointer object) { g_object_unref(object); }
static inline void cvips_free(gpointer memory) { g_free(memory); }

/// Field names of an image's metadata, NULL-terminated; free with g_strfreev.
static inline char **cvips_fields(VipsImage *image) { return vips_image_get_fields(image); }
static inline void cvips_strfreev(char **list) { g_strfreev(list); }
