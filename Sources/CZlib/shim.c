#include "CZlib.h"

// windowBits 15 + 16: the largest window, with a gzip header and trailer; memLevel 8 is zlib's default.
int CZlib_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

int CZlib_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
