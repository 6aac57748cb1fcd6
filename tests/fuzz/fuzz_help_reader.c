/*
 * fuzz_help_reader.c - libFuzzer target for the help database reader
 * (libpcp/pmda/help.c): a hostile .dir and .pag must be refused or read
 * safely, never crash.
 *
 * Input: two bytes giving the length of the .dir (little-endian, clipped to
 * what is there), the .dir, then the .pag.  When the database opens as
 * pmdaOpenHelp opens it (its records not yet checked), every record's key
 * is looked up both ways, by PCP's scans and then through the index, and
 * every answer must be no text or a string that ends inside the .pag; so
 * must the answers for a few absent keys.
 */
#include "help_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The texts of the record with key, if any: NULL or a string that ends
 * inside the .pag. */
static void check(help_db *db, uint32_t key, int last)
{
    uint32_t i = help_db_find(db, key, last);
    const char *t[2];

    if (i == HELP_NONE)
        return;
    if (i >= db->n || help_db_record(db, i).key != key)
        abort(); /* not a record with the key */
    t[0] = help_db_text(db, help_db_record(db, i).off_oneline);
    t[1] = help_db_text(db, help_db_record(db, i).off_text);
    for (int k = 0; k < 2; k++)
        if (t[k] != NULL && (t[k] < db->pag || t[k] >= db->pag + db->paglen ||
                             memchr(t[k], '\0', (size_t)(db->pag + db->paglen - t[k])) == NULL))
            abort(); /* an answer that does not end inside the .pag */
}

/* Every record's key found, and a few absent ones, by scans and then
 * through the index. */
static void lookups(help_db *db)
{
    static const uint32_t absent[] = {0, 1, 0x80000000u, 0xffffffffu, 0x3f400000u};

    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < db->n; i++) {
            uint32_t key = help_db_record(db, i).key;
            check(db, key, 0);
            check(db, key, 1);
            if (help_db_find(db, key, 0) == HELP_NONE)
                abort(); /* every record's key is found */
        }
        for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
            check(db, absent[i], 1);
        if (help_db_index(db) < 0)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
    /* opened as pmdaOpenHelp opens (records unchecked) */
    if (help_db_open_buffers(&db, dir, dirlen, pag, size - dirlen, NULL, 0) != 0)
        return 0;
    lookups(&db);
    help_db_free(&db);
    return 0;
}
