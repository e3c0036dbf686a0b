// Lossless JPEG optimisation with libjpeg(-turbo)'s coefficient API, as jpegtran -optimize does.
// libjpeg reports errors by calling error_exit, which must not return: the only way back is
// longjmp, which Swift cannot do, hence this small C file.

#include "jpeg_lossless.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>

#define NJPEG_BUFFER 65536

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf *jump;  // shared by the decompressor and the compressor
    NJPEGResult *result;
} NJPEGError;

typedef struct {
    struct jpeg_source_mgr base;
    int fd;
    long long position;
    int read_error;
    JOCTET buffer[NJPEG_BUFFER];
} NJPEGSource;

typedef struct {
    struct jpeg_destination_mgr base;
    int fd;
    long long position;
    int write_error;
    JOCTET buffer[NJPEG_BUFFER];
} NJPEGDestination;

static void njpeg_error_exit(j_common_ptr info) {
    NJPEGError *error = (NJPEGError *)info->err;
    if (!error->result->failed) {
        error->result->failed = 1;
        char text[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, text);
        snprintf(error->result->message, sizeof error->result->message, "%s", text);
    }
    longjmp(*error->jump, 1);
}

// A warning (corrupt data, premature end) means the decoder guessed: stop, do not write a guess.
static void njpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0) njpeg_error_exit(info);
}

static void njpeg_init_source(j_decompress_ptr info) { (void)info; }

static boolean njpeg_fill_input(j_decompress_ptr info) {
    NJPEGSource *source = (NJPEGSource *)info->src;
    ssize_t n;
    do {
        n = pread(source->fd, source->buffer, NJPEG_BUFFER, (off_t)source->position);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        NJPEGError *error = (NJPEGError *)info->err;
        error->result->failed = 1;
        snprintf(error->result->message, sizeof error->result->message, "%s",
                 n < 0 ? strerror(errno) : "the file ends before the image does");
        longjmp(*error->jump, 1);
    }
    source->position += n;
    source->base.next_input_byte = source->buffer;
    source->base.bytes_in_buffer = (size_t)n;
    return TRUE;
}

static void njpeg_skip_input(j_decompress_ptr info, long count) {
    NJPEGSource *source = (NJPEGSource *)info->src;
    if (count <= 0) return;
    if ((size_t)count <= source->base.bytes_in_buffer) {
        source->base.next_input_byte += count;
        source->base.bytes_in_buffer -= (size_t)count;
        return;
    }
    count -= (long)source->base.bytes_in_buffer;
    source->base.bytes_in_buffer = 0;
    source->position += count;
}

static void njpeg_term_source(j_decompress_ptr info) { (void)info; }

static void njpeg_flush(NJPEGDestination *destination, size_t count, j_compress_ptr info) {
    size_t done = 0;
    while (done < count) {
        ssize_t n = pwrite(destination->fd, destination->buffer + done, count - done, (off_t)destination->position);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            NJPEGError *error = (NJPEGError *)info->err;
            error->result->failed = 1;
            error->result->write_error = n < 0 ? errno : ENOSPC;
            snprintf(error->result->message, sizeof error->result->message, "%s", strerror(error->result->write_error));
            longjmp(*error->jump, 1);
        }
        done += (size_t)n;
        destination->position += n;
    }
}

static void njpeg_init_destination(j_compress_ptr info) {
    NJPEGDestination *destination = (NJPEGDestination *)info->dest;
    destination->base.next_output_byte = destination->buffer;
    destination->base.free_in_buffer = NJPEG_BUFFER;
}

static boolean njpeg_empty_output(j_compress_ptr info) {
    NJPEGDestination *destination = (NJPEGDestination *)info->dest;
    njpeg_flush(destination, NJPEG_BUFFER, info);
    destination->base.next_output_byte = destination->buffer;
    destination->base.free_in_buffer = NJPEG_BUFFER;
    return TRUE;
}

static void njpeg_term_destination(j_compress_ptr info) {
    NJPEGDestination *destination = (NJPEGDestination *)info->dest;
    njpeg_flush(destination, NJPEG_BUFFER - destination->base.free_in_buffer, info);
}

void njpeg_optimize(int input_fd, int output_fd, int keep_icc, unsigned long long max_pixels,
                    long max_memory, NJPEGResult *result) {
    memset(result, 0, sizeof *result);
    struct jpeg_decompress_struct in;
    struct jpeg_compress_struct out;
    NJPEGError in_error, out_error;
    // Heap-allocated so the 64 KB buffers stay off the caller's (possibly small) thread stack.
    NJPEGSource *source = calloc(1, sizeof *source);
    NJPEGDestination *destination = calloc(1, sizeof *destination);
    jmp_buf jump;
    // Read after a longjmp, so kept out of registers.
    JOCTET *volatile icc = NULL;
    volatile int in_created = 0, out_created = 0;
    unsigned int icc_length = 0;
    if (!source || !destination) {
        result->failed = 1;
        snprintf(result->message, sizeof result->message, "out of memory");
        goto done;
    }

    in.err = jpeg_std_error(&in_error.base);
    in_error.base.error_exit = njpeg_error_exit;
    in_error.base.emit_message = njpeg_emit_message;
    in_error.result = result;
    in_error.jump = &jump;
    out.err = jpeg_std_error(&out_error.base);
    out_error.base.error_exit = njpeg_error_exit;
    out_error.base.emit_message = njpeg_emit_message;
    out_error.result = result;
    out_error.jump = &jump;
    if (setjmp(jump)) goto done;

    jpeg_create_decompress(&in);
    in_created = 1;
    in.mem->max_memory_to_use = max_memory;
    source->fd = input_fd;
    source->base.init_source = njpeg_init_source;
    source->base.fill_input_buffer = njpeg_fill_input;
    source->base.skip_input_data = njpeg_skip_input;
    source->base.resync_to_restart = jpeg_resync_to_restart;
    source->base.term_source = njpeg_term_source;
    in.src = &source->base;
    if (keep_icc) jpeg_save_markers(&in, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&in, TRUE);
    result->width = in.image_width;
    result->height = in.image_height;
    result->components = in.num_components;
    result->progressive = in.progressive_mode;
    if ((unsigned long long)in.image_width * in.image_height > max_pixels) {
        result->failed = 1;
        snprintf(result->message, sizeof result->message, "%ux%u pixels is more than the limit of %llu",
                 in.image_width, in.image_height, max_pixels);
        goto done;
    }
    if (keep_icc) {
        JOCTET *profile = NULL;
        if (jpeg_read_icc_profile(&in, &profile, &icc_length)) icc = profile;
        else icc_length = 0;
    }
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&in);

    jpeg_create_compress(&out);
    out_created = 1;
    out.mem->max_memory_to_use = max_memory;
    jpeg_copy_critical_parameters(&in, &out);
    out.optimize_coding = TRUE;
    out.arith_code = FALSE;
    if (in.progressive_mode) jpeg_simple_progression(&out);
    destination->fd = output_fd;
    destination->base.init_destination = njpeg_init_destination;
    destination->base.empty_output_buffer = njpeg_empty_output;
    destination->base.term_destination = njpeg_term_destination;
    out.dest = &destination->base;
    jpeg_write_coefficients(&out, coefficients);
    if (icc && icc_length > 0) jpeg_write_icc_profile(&out, icc, icc_length);
    jpeg_finish_compress(&out);
    jpeg_finish_decompress(&in);
    result->bytes_written = destination->position;

done:
    if (out_created) jpeg_destroy_compress(&out);
    if (in_created) jpeg_destroy_decompress(&in);
    free(icc);
    free(source);
    free(destination);
}
