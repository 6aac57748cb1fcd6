/*
 * fuzz_linux_proc.c - libFuzzer target for the linux agent's /proc
 * parsers (pmdas/linux/proc*.c).
 *
 * The first byte picks the processor count handed to the /proc/stat
 * parser; the rest is given, as the text of a file, to every parser in
 * turn.  Checked: device and interface names are non-empty and hold no
 * newline (interfaces: no ':' either), processors counted are the ones
 * marked seen, and nothing reads outside the input (the sanitizers watch).
 */
#include "proc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int device(void *arg, const char *name, size_t len, const uint64_t *col)
{
    char *copy;

    (void)col;
    if (len == 0 || memchr(name, '\n', len) != NULL)
        abort();
    if (arg != NULL && memchr(name, ':', len) != NULL)
        abort(); /* interfaces end at the first ':' */
    if ((copy = malloc(len + 1)) == NULL)
        abort();
    memcpy(copy, name, len);
    copy[len] = '\0';
    (void)proc_disk_is_disk(copy);
    free(copy);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    proc_stat st = {0};
    proc_meminfo mem;
    proc_loadavg load;
    proc_uptime up;
    const char *text;
    unsigned seen = 0;
    char *copy;

    if (size == 0)
        return 0;
    /* the parsers get exactly the bytes, plus a NUL after them as proc_read gives */
    if ((copy = malloc(size)) == NULL)
        abort();
    memcpy(copy, data + 1, size - 1);
    copy[size - 1] = '\0';
    text = copy;

    if (proc_stat_parse(&st, text, size - 1, data[0] % 70) == 0) {
        for (unsigned i = 0; i < st.nslots; i++)
            seen += st.seen[i];
        if (seen != st.ncpu)
            abort();
        for (unsigned i = 0; i < st.nslots; i++)
            if (st.seen[i])
                (void)proc_ticks_to_msec(st.cpu[i].ticks[CPU_USER], 1 + data[0]);
    }
    proc_stat_free(&st);
    proc_meminfo_parse(&mem, text, size - 1);
    proc_loadavg_parse(&load, text);
    proc_uptime_parse(&up, text);
    proc_disk_parse(text, size - 1, 0, device, NULL);
    proc_disk_parse(text, size - 1, 1, device, NULL);
    proc_net_dev_parse(text, size - 1, device, &seen);
    free(copy);
    return 0;
}
