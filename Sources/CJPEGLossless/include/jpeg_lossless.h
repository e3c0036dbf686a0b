#ifndef NEWSSTAND_JPEG_LOSSLESS_H
#define NEWSSTAND_JPEG_LOSSLESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `njpeg_optimize` found and did.
typedef struct {
    /// 0 when the output was written; otherwise the text of `message` says why not.
    int failed;
    /// errno of a failed write to the output (0 when the failure was something else).
    int write_error;
    char message[256];
    unsigned int width;
    unsigned int height;
    int components;
    int progressive;
    long long bytes_written;
} NJPEGResult;

/// Rewrites the JPEG read from `input_fd` (with pread, from offset 0) into `output_fd` (with
/// pwrite, from offset 0) without decoding it: the DCT coefficients are copied as they are, the
/// Huffman tables are optimised, every APPn and COM marker is dropped except an ICC profile when
/// `keep_icc` is non-zero. A progressive input stays progressive. Any libjpeg warning (corrupt
/// data, a truncated file) is a failure: the output of a damaged file is never trusted.
/// Images with more than `max_pixels` pixels are refused before their coefficients are read,
/// and libjpeg may use at most `max_memory` bytes.
void njpeg_optimize(int input_fd, int output_fd, int keep_icc, unsigned long long max_pixels,
                    long max_memory, NJPEGResult *result);

#ifdef __cplusplus
}
#endif

#endif
