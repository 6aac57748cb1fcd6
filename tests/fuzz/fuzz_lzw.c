/*
 * fuzz_lzw.c - libFuzzer target for the decoders behind .gz, .z and .Z
 * files in libpcp/archive/file.c: compress(1)'s LZW (pmkit's own decoder)
 * and gzip's format (zlib), chosen by the file's first bytes.  Hostile
 * bytes must decode to bytes or an error: no crash, no read or write
 * outside a buffer, no endless loop.
 *
 * Input: the compressed file, written to an unlinked temporary file and
 * read through afile_read forward in chunks (of a size taken from the
 * input's length, so that reads end inside codes' strings), then again
 * backwards from the end found, as a reader seeking would.  The seeds are
 * files compress(1) and gzip made of text and random bytes, one of them
 * long enough for compress to clear its table.
 */
#include "arch_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OUT (16u << 20) /* read no further: hostile codes expand */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t buf[65536];
    const char *dir = getenv("TMPDIR");
    char path[4096];
    size_t chunk = 1 + size % 9973;
    uint64_t off = 0;
    arch_file f;
    ssize_t n = 0;
    int fd;

    snprintf(path, sizeof(path), "%s/pmkit-fuzz-lzw.XXXXXX", dir && *dir ? dir : "/tmp");
    if ((fd = mkstemp(path)) < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size || afile_open(&f, path, AF_GZ) < 0) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    unlink(path);
    while (off < MAX_OUT && (n = afile_read(&f, off, buf, chunk)) > 0)
        off += (uint64_t)n;
    while (n >= 0 && off > 0) {
        size_t len = off < chunk ? (size_t)off : chunk;
        off -= len;
        if ((n = afile_read(&f, off, buf, len)) != (ssize_t)len)
            abort(); /* bytes decoded once must read back */
    }
    afile_close(&f);
    return 0;
}
