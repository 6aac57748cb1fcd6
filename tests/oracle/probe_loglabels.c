/*
 * probe_loglabels.c - the label sets' table (hashlabels) of an archive
 * context's __pmLogCtl, walked bucket by bucket, for each archive named
 * on the command line; built against Debian's libpcp.h and run on both
 * libraries by debian_archive_readers.sh, the two outputs must be
 * identical.
 *
 * It prints each table's node count and size, each class's and each
 * identifier's bucket and key in walk order (so keys added twice show),
 * and each chain entry: time, class, identifier, and every set (instance,
 * JSON, compound, whether it has a hash) with every label's offsets,
 * lengths and flags.  What pmdumplog -e prints is a part of this; the
 * layout is the rest.
 */
#include <pcp/pmapi.h>

#include "libpcp.h"

#include <stdio.h>

static void print_set(const pmLabelSet *ls)
{
    printf("      inst %d nlabels %d compound %d hash %d json %d [%.*s]\n", ls->inst, ls->nlabels,
           ls->compound, ls->hash != NULL, ls->jsonlen, ls->json != NULL ? ls->jsonlen : 0,
           ls->json != NULL ? ls->json : "");
    for (int i = 0; ls->labels != NULL && i < ls->nlabels; i++) {
        const pmLabel *l = &ls->labels[i];
        printf("        label %d name %u,%u value %u,%u flags 0x%x\n", i, l->name, l->namelen,
               l->value, l->valuelen, l->flags);
    }
}

static void print_chain(const __pmLogLabelSet *e)
{
    for (; e != NULL; e = e->next) {
        printf("    at %lld.%09d type %d ident %d nsets %d\n", (long long)e->stamp.sec,
               (int)e->stamp.nsec, e->type, e->ident, e->nsets);
        for (int i = 0; e->labelsets != NULL && i < e->nsets; i++)
            print_set(&e->labelsets[i]);
    }
}

static void print_table(const __pmHashCtl *types)
{
    printf("classes: nodes %d hsize %d\n", types->nodes, types->hsize);
    for (int i = 0; i < types->hsize; i++) {
        for (const __pmHashNode *n = types->hash[i]; n != NULL; n = n->next) {
            const __pmHashCtl *idents = n->data;
            printf("class %u (bucket %d): nodes %d hsize %d\n", n->key, i, idents->nodes,
                   idents->hsize);
            for (int j = 0; j < idents->hsize; j++) {
                for (const __pmHashNode *m = idents->hash[j]; m != NULL; m = m->next) {
                    printf("  ident 0x%x (bucket %d)\n", m->key, j);
                    print_chain(m->data);
                }
            }
        }
    }
}

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        int h = pmNewContext(PM_CONTEXT_ARCHIVE, argv[a]);
        __pmContext *c;

        printf("== %s\n", argv[a]);
        if (h < 0) {
            printf("pmNewContext: %s\n", pmErrStr(h));
            continue;
        }
        if ((c = __pmHandleToPtr(h)) == NULL) {
            printf("__pmHandleToPtr: no context\n");
            continue;
        }
        print_table(&c->c_archctl->ac_log->hashlabels);
        PM_UNLOCK(c->c_lock);
        pmDestroyContext(h);
    }
    return 0;
}
