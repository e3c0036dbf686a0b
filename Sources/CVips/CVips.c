#include "CVips.h"
#include <vips/vector.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// MARK: the library, opened once

#if defined(__APPLE__)
#define CVIPS_LIBRARY "libvips.42.dylib"
// dyld's default search path has neither Homebrew prefix (and SIP strips DYLD_* variables),
// so where Homebrew installs it is tried too, Apple silicon's first.
static const char *const cvips_library_paths[] = {
    CVIPS_LIBRARY, "/opt/homebrew/lib/" CVIPS_LIBRARY, "/usr/local/lib/" CVIPS_LIBRARY, NULL};
#else
#define CVIPS_LIBRARY "libvips.so.42"
static const char *const cvips_library_paths[] = {CVIPS_LIBRARY, NULL};
#endif

// Every libvips function CVips calls. Each gets a pointer of its own declared type (from
// libvips' headers, through __typeof__, so no signature is written twice and a mismatch
// cannot compile), found by name when the library is opened, and is called through CALL().
#define CVIPS_FUNCTIONS(X) \
    X(vips_init) X(vips_version_string) X(vips_vector_set_enabled) X(vips_cache_set_max) \
    X(vips_cache_set_max_mem) X(vips_cache_set_max_files) X(vips_operation_block_set) X(vips_concurrency_set) \
    X(vips_source_custom_new) X(vips_target_custom_new) X(vips_image_new_from_source) X(vips_pdfload_source) \
    X(vips_foreign_find_load_source) X(vips_image_new_from_memory_copy) X(vips_image_copy_memory) \
    X(vips_image_get_width) X(vips_image_get_height) X(vips_image_get_bands) X(vips_image_get_format) \
    X(vips_image_get_interpretation) X(vips_image_hasalpha) X(vips_format_sizeof) X(vips_image_get_typeof) \
    X(vips_image_get_string) X(vips_image_get_int) X(vips_image_get_blob) X(vips_image_set_blob_copy) \
    X(vips_image_remove) X(vips_image_get_fields) X(vips_resize) X(vips_premultiply) X(vips_unpremultiply) \
    X(vips_cast) X(vips_autorot) X(vips_copy) X(vips_array_double_new) X(vips_area_unref) X(vips_flatten) \
    X(vips_embed) X(vips_crop) X(vips_colourspace) X(vips_icc_transform) X(vips_equal) X(vips_subtract) \
    X(vips_abs) X(vips_min) X(vips_max) X(vips_extract_band) X(vips_bandjoin) X(vips_pngsave_target) \
    X(vips_jpegsave_target) X(vips_webpsave_target) X(vips_error_buffer_copy)

#define CVIPS_POINTER(name) static __typeof__(name) *cvips_p_##name;
CVIPS_FUNCTIONS(CVIPS_POINTER)
#define CALL(name) (*cvips_p_##name)

static pthread_once_t cvips_once = PTHREAD_ONCE_INIT;
static const char *cvips_failure = "libvips was not opened";
static char cvips_reason[512];

static void cvips_load_library(void) {
    // Local: libvips' symbols do not join the process's global scope (nothing else binds to
    // them); its loader modules (vips-modules-*) name libvips themselves and find this copy.
    void *library = NULL;
    for (int i = 0; !library && cvips_library_paths[i]; i++) {
        if (i > 0) (void)dlerror();  // each failure replaces the last: the last name tried is reported
        library = dlopen(cvips_library_paths[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        // dlerror() names the library and says why ("libvips.so.42: cannot open shared object
        // file: No such file or directory").
        const char *why = dlerror();
        snprintf(cvips_reason, sizeof cvips_reason, "%s", why ? why : CVIPS_LIBRARY ": could not be opened");
        cvips_failure = cvips_reason;
        return;
    }
#define CVIPS_RESOLVE(name) \
    cvips_p_##name = (__typeof__(cvips_p_##name))dlsym(library, #name); \
    if (!cvips_p_##name) { \
        snprintf(cvips_reason, sizeof cvips_reason, "%s has no function %s (a libvips too old or incompatible)", CVIPS_LIBRARY, #name); \
        cvips_failure = cvips_reason; \
        return; \
    }
    CVIPS_FUNCTIONS(CVIPS_RESOLVE)
    cvips_failure = NULL;
}

const char *cvips_open(void) {
    pthread_once(&cvips_once, cvips_load_library);
    return cvips_failure;
}

// MARK: start-up

int cvips_init(const char *argv0) { return CALL(vips_init)(argv0); }
const char *cvips_version_string(void) { return CALL(vips_version_string)(); }

static void cvips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer user) {
    (void)domain; (void)level; (void)message; (void)user;
}

void cvips_limit_malloc_arenas(void) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
#endif
}

/// Blocks every loader but the five the engine needs (PNG, JPEG, WebP, HEIF, PDF): a file
/// that says it is a PNG and is really a matlab, FITS, SVG or ImageMagick file never reaches
/// those parsers. Sets the operation cache to nothing: every input is read once, and a cache
/// would only keep files and pixels alive. Switches off libvips' run-time generated vector
/// code (orc): its 8-bit resampling rounds differently from the plain C path, so the same
/// master gave different bytes with VIPS_NOVECTOR=1 (as on a CPU orc cannot target); the C
/// path is integer arithmetic, the same everywhere, and was no slower than 1.3x here.
void cvips_configure(void) {
    // glibc's arena count (mallopt(M_ARENA_MAX, 2), which kept PDF rendering's memory flat) is
    // process-wide, so it is the executable's choice, not the library's: the newsstand and
    // ImagingBench executables set it at start-up; an app embedding the engine keeps its own.
    CALL(vips_vector_set_enabled)(FALSE);
    // libvips prints warnings to stderr ("heifload: ignoring nclx profile", "read gave 2
    // warnings"): the engine fails on what matters (fail_on=error) and reports it as a value,
    // so a command's output is not interleaved with a library's.
    g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO),
                      cvips_drop_log, NULL);
    CALL(vips_cache_set_max)(0);
    CALL(vips_cache_set_max_mem)(0);
    CALL(vips_cache_set_max_files)(0);
    CALL(vips_operation_block_set)("VipsForeignLoad", TRUE);
    CALL(vips_operation_block_set)("VipsForeignLoadPng", FALSE);
    CALL(vips_operation_block_set)("VipsForeignLoadJpeg", FALSE);
    CALL(vips_operation_block_set)("VipsForeignLoadWebp", FALSE);
    CALL(vips_operation_block_set)("VipsForeignLoadHeif", FALSE);
    CALL(vips_operation_block_set)("VipsForeignLoadPdf", FALSE);
}

/// Sends every message a library logs through GLib (poppler's complaints about a PDF, GLib's
/// own warnings) to `fd`, one line each: the byte 0x1E, the domain, a tab, the level (error,
/// critical, warning, message, info), a tab, the text with line breaks as spaces, a line feed.
/// Debug messages are dropped, and libvips' own below critical (its start-up notes; its
/// warnings the engine drops anyway, see cvips_configure). One write() of at most 1,024 bytes a
/// message, so lines from several threads never mix in a pipe. The handler keeps no state.
static void cvips_log_line(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer user) {
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

void cvips_log_to(int fd) { g_log_set_default_handler(cvips_log_line, GINT_TO_POINTER(fd)); }

void cvips_set_concurrency(int threads) { CALL(vips_concurrency_set)(threads); }

// MARK: reading from a descriptor at our own offset

// libvips' C API can read from a file name or a descriptor it seeks itself; a source over pread
// at its own offset lets two operations read one open file at once.
typedef struct {
    int fd;
    gint64 position;
} CVipsReadState;

static gint64 cvips_pread_read(VipsSourceCustom *source, void *buffer, gint64 length, gpointer user) {
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

static gint64 cvips_pread_seek(VipsSourceCustom *source, gint64 offset, int whence, gpointer user) {
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

static void cvips_free_read_state(gpointer data, GClosure *closure) {
    (void)closure;
    g_free(data);
}

VipsSource *cvips_source_new_pread(int fd) {
    VipsSourceCustom *source = CALL(vips_source_custom_new)();
    CVipsReadState *state = g_new0(CVipsReadState, 1);
    state->fd = fd;
    g_signal_connect_data(source, "read", G_CALLBACK(cvips_pread_read), state, cvips_free_read_state, (GConnectFlags)0);
    g_signal_connect(source, "seek", G_CALLBACK(cvips_pread_seek), state);
    // A plain cast: VIPS_SOURCE() would check the type with vips_source_get_type(), one more
    // function to find, for an object made just above.
    return (VipsSource *)source;
}

// MARK: writing to a descriptor, or only counting

static gint64 cvips_target_write(VipsTargetCustom *target, const void *data, gint64 length, gpointer user) {
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

VipsTarget *cvips_target_new(CVipsWriteState *state) {
    VipsTargetCustom *target = CALL(vips_target_custom_new)();
    g_signal_connect(target, "write", G_CALLBACK(cvips_target_write), state);
    return (VipsTarget *)target;
}

// MARK: images

int cvips_load(VipsSource *source, VipsImage **out, gboolean sequential) {
    *out = CALL(vips_image_new_from_source)(source, "",
        "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM,
        "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    return *out ? 0 : -1;
}

int cvips_pdfload(VipsSource *source, VipsImage **out, int page, double scale) {
    return CALL(vips_pdfload_source)(source, out, "page", page, "n", 1, "scale", scale,
        "fail_on", VIPS_FAIL_ON_ERROR, NULL);
}

const char *cvips_foreign_find_load_source(VipsSource *source) { return CALL(vips_foreign_find_load_source)(source); }

VipsImage *cvips_image_new_from_memory_copy(const void *data, size_t size, int width, int height, int bands,
                                            VipsBandFormat format) {
    return CALL(vips_image_new_from_memory_copy)(data, size, width, height, bands, format);
}

VipsImage *cvips_image_copy_memory(VipsImage *image) { return CALL(vips_image_copy_memory)(image); }

int cvips_image_get_width(const VipsImage *image) { return CALL(vips_image_get_width)(image); }
int cvips_image_get_height(const VipsImage *image) { return CALL(vips_image_get_height)(image); }
int cvips_image_get_bands(const VipsImage *image) { return CALL(vips_image_get_bands)(image); }
VipsBandFormat cvips_image_get_format(const VipsImage *image) { return CALL(vips_image_get_format)(image); }
VipsInterpretation cvips_image_get_interpretation(const VipsImage *image) {
    return CALL(vips_image_get_interpretation)(image);
}
gboolean cvips_image_hasalpha(VipsImage *image) { return CALL(vips_image_hasalpha)(image); }
guint64 cvips_format_sizeof(VipsBandFormat format) { return CALL(vips_format_sizeof)(format); }

GType cvips_image_get_typeof(const VipsImage *image, const char *name) { return CALL(vips_image_get_typeof)(image, name); }
int cvips_image_get_string(const VipsImage *image, const char *name, const char **out) {
    return CALL(vips_image_get_string)(image, name, out);
}
int cvips_image_get_int(const VipsImage *image, const char *name, int *out) {
    return CALL(vips_image_get_int)(image, name, out);
}
int cvips_image_get_blob(const VipsImage *image, const char *name, const void **data, size_t *length) {
    return CALL(vips_image_get_blob)(image, name, data, length);
}
void cvips_image_set_blob_copy(VipsImage *image, const char *name, const void *data, size_t length) {
    CALL(vips_image_set_blob_copy)(image, name, data, length);
}
gboolean cvips_image_remove(VipsImage *image, const char *name) { return CALL(vips_image_remove)(image, name); }
char **cvips_fields(VipsImage *image) { return CALL(vips_image_get_fields)(image); }

// MARK: operations

int cvips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return CALL(vips_resize)(in, out, hscale, "vscale", vscale, "kernel", VIPS_KERNEL_LANCZOS3, NULL);
}
int cvips_premultiply(VipsImage *in, VipsImage **out) { return CALL(vips_premultiply)(in, out, NULL); }
int cvips_unpremultiply(VipsImage *in, VipsImage **out) { return CALL(vips_unpremultiply)(in, out, NULL); }
int cvips_cast(VipsImage *in, VipsImage **out, VipsBandFormat format) { return CALL(vips_cast)(in, out, format, NULL); }
int cvips_autorot(VipsImage *in, VipsImage **out) { return CALL(vips_autorot)(in, out, NULL); }
int cvips_copy(VipsImage *in, VipsImage **out) { return CALL(vips_copy)(in, out, NULL); }
int cvips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[1] = {255.0};
    VipsArrayDouble *background = CALL(vips_array_double_new)(white, 1);
    int result = CALL(vips_flatten)(in, out, "background", background, NULL);
    CALL(vips_area_unref)(VIPS_AREA(background));
    return result;
}
int cvips_extend(VipsImage *in, VipsImage **out, int width, int height) {
    return CALL(vips_embed)(in, out, 0, 0, width, height, "extend", VIPS_EXTEND_COPY, NULL);
}
int cvips_crop(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return CALL(vips_crop)(in, out, left, top, width, height, NULL);
}
int cvips_colourspace_srgb(VipsImage *in, VipsImage **out) {
    return CALL(vips_colourspace)(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}
int cvips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return CALL(vips_icc_transform)(in, out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL);
}
int cvips_equal(VipsImage *left, VipsImage *right, VipsImage **out) { return CALL(vips_equal)(left, right, out, NULL); }
int cvips_subtract(VipsImage *left, VipsImage *right, VipsImage **out) {
    return CALL(vips_subtract)(left, right, out, NULL);
}
int cvips_abs(VipsImage *in, VipsImage **out) { return CALL(vips_abs)(in, out, NULL); }
int cvips_min(VipsImage *in, double *value, int *x, int *y) { return CALL(vips_min)(in, value, "x", x, "y", y, NULL); }
int cvips_max(VipsImage *in, double *value) { return CALL(vips_max)(in, value, NULL); }
int cvips_extract_bands(VipsImage *in, VipsImage **out, int first, int count) {
    return CALL(vips_extract_band)(in, out, first, "n", count, NULL);
}
int cvips_bandjoin(VipsImage **in, int count, VipsImage **out) { return CALL(vips_bandjoin)(in, out, count, NULL); }
int cvips_set_interpretation(VipsImage *in, VipsImage **out, VipsInterpretation interpretation) {
    return CALL(vips_copy)(in, out, "interpretation", interpretation, NULL);
}

// MARK: saving

int cvips_pngsave(VipsImage *in, VipsTarget *target, int compression, int filter, gboolean strip, gboolean palette,
                  int bitdepth) {
    if (palette)
        return CALL(vips_pngsave_target)(in, target, "compression", compression, "filter", filter, "strip", strip,
            "interlace", FALSE, "palette", TRUE, "Q", 100, "dither", 0.0, "effort", 10, "bitdepth", bitdepth, NULL);
    if (bitdepth > 0)
        return CALL(vips_pngsave_target)(in, target, "compression", compression, "filter", filter, "strip", strip,
            "interlace", FALSE, "bitdepth", bitdepth, NULL);
    return CALL(vips_pngsave_target)(in, target, "compression", compression, "filter", filter, "strip", strip,
        "interlace", FALSE, NULL);
}

int cvips_jpegsave(VipsImage *in, VipsTarget *target, int quality, gboolean strip) {
    return CALL(vips_jpegsave_target)(in, target, "Q", quality, "strip", strip, "optimize_coding", TRUE,
        "interlace", FALSE, "subsample_mode", VIPS_FOREIGN_SUBSAMPLE_AUTO, NULL);
}

int cvips_webpsave(VipsImage *in, VipsTarget *target, int quality, gboolean strip) {
    return CALL(vips_webpsave_target)(in, target, "Q", quality, "strip", strip, "effort", 4,
        "smart_subsample", FALSE, "lossless", FALSE, NULL);
}

// MARK: errors and memory

char *cvips_take_error(void) { return cvips_open() ? NULL : CALL(vips_error_buffer_copy)(); }
void cvips_unref(gpointer object) { g_object_unref(object); }
void cvips_free(gpointer memory) { g_free(memory); }
void cvips_strfreev(char **list) { g_strfreev(list); }
