/*
 * pmcd_wire.h - the pmcd side of PCP's PDU wire format, as much as the
 * tests' fake pmcds need (unit.host, tsan.host_threads): PDU types, words
 * out, PDUs in, the greeting.  Separate from pmkit's own encoder and
 * decoder (libpcp/wire/pdu.c), so that the tests do not check pmkit
 * against itself.
 */
#ifndef PMKIT_TESTS_PMCD_WIRE_H
#define PMKIT_TESTS_PMCD_WIRE_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define T_ERROR      0x7000
#define T_RESULT     0x7001
#define T_PROFILE    0x7002
#define T_FETCH      0x7003
#define T_DESC_REQ   0x7004
#define T_TEXT       0x7009
#define T_CREDS      0x700c
#define T_PMNS_IDS   0x700d
#define T_PMNS_NAMES 0x700e

static void put_words(int fd, const uint32_t *w, size_t n)
{
    unsigned char b[256];

    for (size_t i = 0; i < n; i++) {
        b[4 * i] = (unsigned char)(w[i] >> 24);
        b[4 * i + 1] = (unsigned char)(w[i] >> 16);
        b[4 * i + 2] = (unsigned char)(w[i] >> 8);
        b[4 * i + 3] = (unsigned char)w[i];
    }
    if (write(fd, b, 4 * n) != (ssize_t)(4 * n))
        abort();
}

static uint32_t word(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One PDU from the client: its type (the body in buf), or -1 at EOF. */
static int get_pdu(int fd, unsigned char *buf, size_t cap)
{
    size_t got = 0, len = 12;

    while (got < len) {
        ssize_t r = read(fd, buf + got, len - got);
        if (r <= 0)
            return -1;
        got += (size_t)r;
        if (got == 12) {
            len = word(buf);
            if (len < 12 || len > cap)
                return -1;
        }
    }
    return (int)word(buf + 4);
}

static void greet(int fd, uint32_t info)
{
    const uint32_t g[] = {20, T_ERROR, 0, 0, info};

    put_words(fd, g, 5);
}

#endif /* PMKIT_TESTS_PMCD_WIRE_H */
