/*
 * fuzz_help_reader.c - libFuzzer target for the help database reader
 * (libpcp/pmda/help.c): a hostile .dir and .pag must be refused or read
 * safely, never crash.
 *
 * Input: two bytes giving the length of the .dir (little-endian, clipped to
 * what is there), the .dir, then the .pag.  When the database opens, every
 * record's key is looked up both ways and every answer must be a string
 * that ends inside the .pag; so must the answers for a few absent keys.
 */
#include "help_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const help_db *db, const help_record *r)
{
    if (r == NULL)
        return;
    if (r->off_oneline >= db->paglen || r->off_text >= db->paglen ||
        memchr(db->pag + r->off_oneline, '\0', db->paglen - r->off_oneline) == NULL ||
        memchr(db->pag + r->off_text, '\0', db->paglen - r->off_text) == NULL)
        abort(); /* an answer that does not end inside the .pag */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint32_t absent[] = {0, 1, 0x80000000u, 0xffffffffu, 0x3f400000u};
    size_t dirlen;
    unsigned char *dir;
    char *pag;
    help_db db;

    if (size < 2)
        return 0;
    dirlen = (size_t)data[0] | (size_t)data[1] << 8;
    data += 2, size -= 2;
    if (dirlen > size)
        dirlen = size;
    dir = malloc(dirlen + 1);
    pag = malloc(size - dirlen + 1);
    if (dir == NULL || pag == NULL) {
        free(dir);
        free(pag);
        return 0;
    }
    memcpy(dir, data, dirlen);
    memcpy(pag, data + dirlen, size - dirlen);
    if (help_db_from_buffers(&db, dir, dirlen, pag, size - dirlen, NULL, 0) != 0)
        return 0;
    for (uint32_t i = 0; i < db.n; i++) {
        check(&db, help_db_find(&db, db.rec[i].key, 0));
        check(&db, help_db_find(&db, db.rec[i].key, 1));
        if (help_db_find(&db, db.rec[i].key, 0) == NULL)
            abort(); /* every record's key is found */
    }
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
        check(&db, help_db_find(&db, absent[i], 1));
    help_db_free(&db);
    return 0;
}
