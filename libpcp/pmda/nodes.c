/*
 * nodes.c - pmdaNodeLookup over libpcp's PMNS node trees (__pmnsNode of
 * <pcp/libpcp.h>, names/pcptree.c), apart from tree.c, whose pmdaNameSpace
 * is pmkit's own layout of the same struct tag.
 */
#include "pmda_int.h"

#include <pcp/libpcp.h>

#include <string.h>

/*
 * The node called name (dotted, relative to the list node and its
 * siblings), or NULL: PCP's walk, which goes down only through non-leaf
 * nodes and the dynamic-subtree roots (domain DYNAMIC_PMID, item 0).
 */
__pmnsNode *pmdaNodeLookup(__pmnsNode *node, const char *name)
{
    while (node != NULL) {
        size_t len = strlen(node->name);

        if (strncmp(name, node->name, len) == 0) {
            if (name[len] == '\0')
                return node;
            if (name[len] == '.' && (node->pmid == PM_ID_NULL || IS_DYNAMIC_ROOT(node->pmid))) {
                node = node->first;
                name += len + 1;
                continue;
            }
        }
        node = node->next;
    }
    return NULL;
}
