// CZlib: zlib's gzip streams for Swift. zlib's init calls are macros (they pass zlib's version
// and the stream's size to deflateInit2_ and inflateInit2_), which Swift cannot import; each
// CZlib_* function below is one such call as a function. They can go if zlib exports functions
// for them. Only the HTTPServer module imports this module (and HTTPTestSupport, to read gzip back).
#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/// `deflateInit2` for a gzip stream (header and trailer, not raw deflate or zlib's wrapper).
int CZlib_deflate_init_gzip(z_stream *stream, int level);

/// `inflateInit2` for a gzip stream.
int CZlib_inflate_init_gzip(z_stream *stream);

#endif
