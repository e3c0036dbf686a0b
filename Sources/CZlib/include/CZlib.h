#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/// `inflateInit2` is a macro (it passes zlib's version and the stream's size), which Swift
/// cannot import. Raw DEFLATE, as zip entries hold it: no zlib header, a 32 KiB window.
static inline int czlib_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
