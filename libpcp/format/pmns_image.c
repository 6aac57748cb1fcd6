/*
 * pmns_image.c - opening and reading binary namespace images
 * (docs/pmns-format.md), the format's hash and checksum, and the dump
 * back to ASCII PMNS text.
 *
 * Opening checks the header and the section table only, in constant time:
 * the magic, the version, required features, the header checksum, the
 * recorded file size against the real one (so a truncated file is refused
 * before any section is touched), section bounds, sizes and counts, and
 * the root record.  The body is then used in place; every record access
 * (pmns_image_node_at) checks its offset, lengths and padding against the
 * section, and the walks below check that a child follows its parent and
 * names it, so a damaged body can give wrong answers or an error but
 * never an out-of-bounds read or an endless loop.
 *
 * Not here: the section checksums are verified only by
 * pmns_image_verify_body (pmnscomp --check), never at open; the canonical
 * form is checked by pmnscomp (it needs the text compiler); writing is in
 * pmns_image_write.c.
 */
#include "pmns_image_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OWN_BORROWED, OWN_MALLOC, OWN_MAPPED };

/* ---------------------------------------------------------------- */
/* Hash and checksum (§7). */

uint32_t pmns_image_hash(const char *s, size_t n)
{
    return pmns_img_hash_name(s, n);
}

/* CRC-32C, reflected polynomial 0x82f63b78, one byte per step. */
static const uint32_t crc_table[256] = {
    0x00000000u, 0xf26b8303u, 0xe13b70f7u, 0x1350f3f4u, 0xc79a971fu, 0x35f1141cu, 0x26a1e7e8u,
    0xd4ca64ebu, 0x8ad958cfu, 0x78b2dbccu, 0x6be22838u, 0x9989ab3bu, 0x4d43cfd0u, 0xbf284cd3u,
    0xac78bf27u, 0x5e133c24u, 0x105ec76fu, 0xe235446cu, 0xf165b798u, 0x030e349bu, 0xd7c45070u,
    0x25afd373u, 0x36ff2087u, 0xc494a384u, 0x9a879fa0u, 0x68ec1ca3u, 0x7bbcef57u, 0x89d76c54u,
    0x5d1d08bfu, 0xaf768bbcu, 0xbc267848u, 0x4e4dfb4bu, 0x20bd8edeu, 0xd2d60dddu, 0xc186fe29u,
    0x33ed7d2au, 0xe72719c1u, 0x154c9ac2u, 0x061c6936u, 0xf477ea35u, 0xaa64d611u, 0x580f5512u,
    0x4b5fa6e6u, 0xb93425e5u, 0x6dfe410eu, 0x9f95c20du, 0x8cc531f9u, 0x7eaeb2fau, 0x30e349b1u,
    0xc288cab2u, 0xd1d83946u, 0x23b3ba45u, 0xf779deaeu, 0x05125dadu, 0x1642ae59u, 0xe4292d5au,
    0xba3a117eu, 0x4851927du, 0x5b016189u, 0xa96ae28au, 0x7da08661u, 0x8fcb0562u, 0x9c9bf696u,
    0x6ef07595u, 0x417b1dbcu, 0xb3109ebfu, 0xa0406d4bu, 0x522bee48u, 0x86e18aa3u, 0x748a09a0u,
    0x67dafa54u, 0x95b17957u, 0xcba24573u, 0x39c9c670u, 0x2a993584u, 0xd8f2b687u, 0x0c38d26cu,
    0xfe53516fu, 0xed03a29bu, 0x1f682198u, 0x5125dad3u, 0xa34e59d0u, 0xb01eaa24u, 0x42752927u,
    0x96bf4dccu, 0x64d4cecfu, 0x77843d3bu, 0x85efbe38u, 0xdbfc821cu, 0x2997011fu, 0x3ac7f2ebu,
    0xc8ac71e8u, 0x1c661503u, 0xee0d9600u, 0xfd5d65f4u, 0x0f36e6f7u, 0x61c69362u, 0x93ad1061u,
    0x80fde395u, 0x72966096u, 0xa65c047du, 0x5437877eu, 0x4767748au, 0xb50cf789u, 0xeb1fcbadu,
    0x197448aeu, 0x0a24bb5au, 0xf84f3859u, 0x2c855cb2u, 0xdeeedfb1u, 0xcdbe2c45u, 0x3fd5af46u,
    0x7198540du, 0x83f3d70eu, 0x90a324fau, 0x62c8a7f9u, 0xb602c312u, 0x44694011u, 0x5739b3e5u,
    0xa55230e6u, 0xfb410cc2u, 0x092a8fc1u, 0x1a7a7c35u, 0xe811ff36u, 0x3cdb9bddu, 0xceb018deu,
    0xdde0eb2au, 0x2f8b6829u, 0x82f63b78u, 0x709db87bu, 0x63cd4b8fu, 0x91a6c88cu, 0x456cac67u,
    0xb7072f64u, 0xa457dc90u, 0x563c5f93u, 0x082f63b7u, 0xfa44e0b4u, 0xe9141340u, 0x1b7f9043u,
    0xcfb5f4a8u, 0x3dde77abu, 0x2e8e845fu, 0xdce5075cu, 0x92a8fc17u, 0x60c37f14u, 0x73938ce0u,
    0x81f80fe3u, 0x55326b08u, 0xa759e80bu, 0xb4091bffu, 0x466298fcu, 0x1871a4d8u, 0xea1a27dbu,
    0xf94ad42fu, 0x0b21572cu, 0xdfeb33c7u, 0x2d80b0c4u, 0x3ed04330u, 0xccbbc033u, 0xa24bb5a6u,
    0x502036a5u, 0x4370c551u, 0xb11b4652u, 0x65d122b9u, 0x97baa1bau, 0x84ea524eu, 0x7681d14du,
    0x2892ed69u, 0xdaf96e6au, 0xc9a99d9eu, 0x3bc21e9du, 0xef087a76u, 0x1d63f975u, 0x0e330a81u,
    0xfc588982u, 0xb21572c9u, 0x407ef1cau, 0x532e023eu, 0xa145813du, 0x758fe5d6u, 0x87e466d5u,
    0x94b49521u, 0x66df1622u, 0x38cc2a06u, 0xcaa7a905u, 0xd9f75af1u, 0x2b9cd9f2u, 0xff56bd19u,
    0x0d3d3e1au, 0x1e6dcdeeu, 0xec064eedu, 0xc38d26c4u, 0x31e6a5c7u, 0x22b65633u, 0xd0ddd530u,
    0x0417b1dbu, 0xf67c32d8u, 0xe52cc12cu, 0x1747422fu, 0x49547e0bu, 0xbb3ffd08u, 0xa86f0efcu,
    0x5a048dffu, 0x8ecee914u, 0x7ca56a17u, 0x6ff599e3u, 0x9d9e1ae0u, 0xd3d3e1abu, 0x21b862a8u,
    0x32e8915cu, 0xc083125fu, 0x144976b4u, 0xe622f5b7u, 0xf5720643u, 0x07198540u, 0x590ab964u,
    0xab613a67u, 0xb831c993u, 0x4a5a4a90u, 0x9e902e7bu, 0x6cfbad78u, 0x7fab5e8cu, 0x8dc0dd8fu,
    0xe330a81au, 0x115b2b19u, 0x020bd8edu, 0xf0605beeu, 0x24aa3f05u, 0xd6c1bc06u, 0xc5914ff2u,
    0x37faccf1u, 0x69e9f0d5u, 0x9b8273d6u, 0x88d28022u, 0x7ab90321u, 0xae7367cau, 0x5c18e4c9u,
    0x4f48173du, 0xbd23943eu, 0xf36e6f75u, 0x0105ec76u, 0x12551f82u, 0xe03e9c81u, 0x34f4f86au,
    0xc69f7b69u, 0xd5cf889du, 0x27a40b9eu, 0x79b737bau, 0x8bdcb4b9u, 0x988c474du, 0x6ae7c44eu,
    0xbe2da0a5u, 0x4c4623a6u, 0x5f16d052u, 0xad7d5351u,
};

uint32_t pmns_image_crc32c(uint32_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    crc = ~crc;
    while (len-- > 0)
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

uint32_t pmns_img_header_crc(const uint8_t *b, uint32_t hlen)
{
    static const uint8_t zero[4];
    uint32_t crc = pmns_image_crc32c(0, b, HDR_CRC);

    crc = pmns_image_crc32c(crc, zero, sizeof(zero));
    return pmns_image_crc32c(crc, b + HDR_CRC + 4, hlen - (HDR_CRC + 4));
}

const char *pmns_image_strerror(int code)
{
    switch (code) {
    case PMNS_IMG_EMAGIC:
        return "not a namespace image";
    case PMNS_IMG_ETRUNC:
        return "truncated namespace image";
    case PMNS_IMG_EVERSION:
        return "unsupported namespace image version";
    case PMNS_IMG_EFEATURE:
        return "namespace image needs a feature this libpcp does not have";
    case PMNS_IMG_ECHECKSUM:
        return "namespace image checksum mismatch";
    case PMNS_IMG_ECORRUPT:
        return "corrupt namespace image";
    case PMNS_IMG_ETOOBIG:
        return "namespace too large for the image format";
    case PMNS_IMG_EORDER:
        return "namespace nodes not in breadth-first order";
    case PMNS_IMG_ENOMEM:
        return "out of memory";
    case PMNS_IMG_ESYS:
        return "system error";
    default:
        return "unknown namespace image error";
    }
}

/* ---------------------------------------------------------------- */
/* Opening. */

static int fail(pmns_image_error *err, int code, uint64_t offset, int line, const char *what)
{
    if (err != NULL) {
        err->code = code;
        err->sys = 0;
        err->offset = offset;
        err->line = line;
        err->what = what;
    }
    return code;
}
#define FAIL(code, offset, what) fail(err, (code), (offset), __LINE__, (what))

int pmns_image_is_image(const void *buf, size_t len)
{
    return len >= PMNS_IMG_MAGIC_LEN && memcmp(buf, pmns_img_magic, PMNS_IMG_MAGIC_LEN) == 0;
}

/* Magic, version, header length and checksum, features, file size. */
static int check_header(pmns_image *img, pmns_image_error *err)
{
    const uint8_t *b = img->base;
    uint64_t size = img->size;
    uint32_t hlen, nsect;

    if (!pmns_image_is_image(b, size))
        return FAIL(PMNS_IMG_EMAGIC, 0, "magic");
    if (size < HDR_SIZE)
        return FAIL(PMNS_IMG_ETRUNC, size, "header");
    img->major = rd16(b + HDR_MAJOR);
    img->minor = rd16(b + HDR_MINOR);
    if (img->major != PMNS_IMG_MAJOR)
        return FAIL(PMNS_IMG_EVERSION, HDR_MAJOR, "major version");
    hlen = rd32(b + HDR_LENGTH);
    nsect = rd32(b + HDR_NSECTIONS);
    if (nsect > (UINT32_MAX - HDR_SIZE) / SECT_SIZE || hlen < HDR_SIZE + nsect * SECT_SIZE)
        return FAIL(PMNS_IMG_ECORRUPT, HDR_LENGTH, "header length");
    if (hlen > size)
        return FAIL(PMNS_IMG_ETRUNC, size, "header");
    if (pmns_img_header_crc(b, hlen) != rd32(b + HDR_CRC))
        return FAIL(PMNS_IMG_ECHECKSUM, HDR_CRC, "header checksum");
    if (rd32(b + HDR_FEATURES) != 0)
        return FAIL(PMNS_IMG_EFEATURE, HDR_FEATURES, "required features");
    if (rd64(b + HDR_FILESIZE) > size)
        return FAIL(PMNS_IMG_ETRUNC, size, "file size");
    if (rd64(b + HDR_FILESIZE) < size)
        return FAIL(PMNS_IMG_ECORRUPT, HDR_FILESIZE, "file size");
    img->props = rd32(b + HDR_PROPS);
    img->nnodes = rd32(b + HDR_NODES);
    img->nleaves = rd32(b + HDR_LEAVES);
    img->nnames = rd32(b + HDR_NAMES);
    img->nentries = rd32(b + HDR_ENTRIES);
    return 0;
}

/* The section table: bounds, each known section once. */
static int find_sections(pmns_image *img, uint32_t off[NSECT + 1], uint32_t len[NSECT + 1],
                         pmns_image_error *err)
{
    const uint8_t *b = img->base;
    uint32_t hlen = rd32(b + HDR_LENGTH), nsect = rd32(b + HDR_NSECTIONS);
    int seen = 0;

    for (uint32_t i = 0; i < nsect; i++) {
        const uint8_t *e = b + HDR_SIZE + (size_t)i * SECT_SIZE;
        uint32_t id = rd32(e), o = rd32(e + 4), l = rd32(e + 8);
        if (o % ALIGN_SECTION != 0 || o < hlen || o > img->size || l > img->size - o)
            return FAIL(PMNS_IMG_ECORRUPT, HDR_SIZE + (uint64_t)i * SECT_SIZE, "section bounds");
        if (id < 1 || id > NSECT)
            continue; /* a later minor version's section */
        if (seen & (1 << id))
            return FAIL(PMNS_IMG_ECORRUPT, HDR_SIZE + (uint64_t)i * SECT_SIZE, "section repeated");
        seen |= 1 << id;
        off[id] = o;
        len[id] = l;
    }
    if (seen != ((1 << (NSECT + 1)) - 2))
        return FAIL(PMNS_IMG_ECORRUPT, HDR_NSECTIONS, "section missing");
    return 0;
}

/* Section sizes against the counts, and the root record. */
static int check_sections(pmns_image *img, const uint32_t off[NSECT + 1],
                          const uint32_t len[NSECT + 1], pmns_image_error *err)
{
    const uint8_t *b = img->base;
    pmns_image_node root;

    img->nodes = b + off[SECT_NODES];
    img->nodes_len = len[SECT_NODES];
    img->slots = b + off[SECT_NAMES];
    img->nslots = len[SECT_NAMES] / 8;
    img->buckets = b + off[SECT_BUCKETS];
    img->nbuckets = len[SECT_BUCKETS] / 4 - 1;
    img->entries = b + off[SECT_ENTRIES];
    if (len[SECT_NODES] % 4 != 0 || (uint64_t)img->nnodes * REC_NAME > len[SECT_NODES] ||
        img->nleaves > img->nnodes)
        return FAIL(PMNS_IMG_ECORRUPT, off[SECT_NODES], "NODES size");
    if (len[SECT_NAMES] % 8 != 0 || img->nslots <= img->nnames)
        return FAIL(PMNS_IMG_ECORRUPT, off[SECT_NAMES], "NAME_INDEX size");
    if (len[SECT_BUCKETS] % 4 != 0 || len[SECT_BUCKETS] < 8 || rd32(img->buckets) != 0 ||
        rd32(img->buckets + 4 * (size_t)img->nbuckets) != img->nentries)
        return FAIL(PMNS_IMG_ECORRUPT, off[SECT_BUCKETS], "PMID_BUCKETS size");
    if ((uint64_t)img->nentries * 8 != len[SECT_ENTRIES])
        return FAIL(PMNS_IMG_ECORRUPT, off[SECT_ENTRIES], "PMID_ENTRIES size");
    if (pmns_image_node_at(img, 0, &root) < 0 || (root.flags & PMNS_IMG_LEAF) || root.pathlen != 0)
        return FAIL(PMNS_IMG_ECORRUPT, off[SECT_NODES], "root record");
    return 0;
}

int pmns_image_open_buffer(const void *buf, size_t len, int owned, pmns_image **out,
                           pmns_image_error *err)
{
    uint32_t off[NSECT + 1] = {0}, slen[NSECT + 1] = {0};
    pmns_image *img;
    int sts;

    *out = NULL;
    if ((img = calloc(1, sizeof(*img))) == NULL)
        return FAIL(PMNS_IMG_ENOMEM, 0, "memory");
    img->base = buf;
    img->size = len;
    if (len > UINT32_MAX && pmns_image_is_image(buf, len))
        sts = FAIL(PMNS_IMG_ECORRUPT, HDR_FILESIZE, "file size");
    else if ((sts = check_header(img, err)) == 0 && (sts = find_sections(img, off, slen, err)) == 0)
        sts = check_sections(img, off, slen, err);
    if (sts < 0) {
        free(img);
        return sts;
    }
    img->owner = owned ? OWN_MALLOC : OWN_BORROWED;
    *out = img;
    return 0;
}

static int sys_fail(pmns_image_error *err, int sys, const char *what)
{
    fail(err, PMNS_IMG_ESYS, 0, 0, what);
    if (err != NULL)
        err->sys = sys;
    return PMNS_IMG_ESYS;
}

int pmns_image_open_file(const char *path, pmns_image **out, pmns_image_error *err)
{
    uint8_t magic[PMNS_IMG_MAGIC_LEN];
    struct stat st;
    void *map;
    int fd, sts;

    *out = NULL;
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return sys_fail(err, errno, "open");
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return sys_fail(err, e, "fstat");
    }
    /* only a regular file can be mapped: never read a pipe here; its
     * magic is read first, so a text file is never mapped */
    if (!S_ISREG(st.st_mode) || st.st_size < PMNS_IMG_MAGIC_LEN ||
        pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
        !pmns_image_is_image(magic, sizeof(magic))) {
        close(fd);
        return FAIL(PMNS_IMG_EMAGIC, 0, "magic");
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return sys_fail(err, errno, "mmap");
    pmns_img_advise_huge(map, (size_t)st.st_size);
    if ((sts = pmns_image_open_buffer(map, (size_t)st.st_size, 0, out, err)) < 0) {
        munmap(map, (size_t)st.st_size);
        return sts;
    }
    (*out)->owner = OWN_MAPPED;
    return 0;
}

/*
 * A 1M-name image is 45 MB read at random, and on 4 KiB pages most reads
 * of a lookup also miss the TLB.  Advice on a mapped file matters when the
 * file is read in from disk: the kernel then fills the page cache with
 * 2 MB folios and maps them whole (FilePmdMapped in /proc/PID/smaps), for
 * this process and for every later one that maps the file while it is
 * cached.  Without it, a file read in by faults stays on small folios
 * (a file pmnscomp has just written is on large ones either way).
 */
void pmns_img_advise_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
    if (len >= PMNS_IMG_HUGE_MIN)
        (void)madvise(p, len, MADV_HUGEPAGE); /* advice: nothing to do if refused */
#else
    (void)p;
    (void)len;
#endif
}

void pmns_image_close(pmns_image *img)
{
    if (img == NULL)
        return;
    if (img->owner == OWN_MAPPED)
        munmap((void *)img->base, (size_t)img->size);
    else if (img->owner == OWN_MALLOC)
        pmns_image_free((uint8_t *)img->base, (size_t)img->size);
    free(img);
}

/* ---------------------------------------------------------------- */
/* Records and walks. */

/* *nd from the leaf record r at off, whose third word is info and whose
 * bounds the caller has checked. */
static void leaf_fill(pmns_image_node *nd, const uint8_t *r, uint32_t off, uint32_t info,
                      uint32_t parent)
{
    nd->off = off;
    nd->parent = parent;
    nd->pmid = rd32(r + REC_PMID);
    nd->flags = info >> FLAGS_SHIFT;
    nd->namelen = info & NAMELEN_MAX;
    nd->name = (const char *)r + REC_NAME;
    nd->path = NULL;
    nd->pathlen = nd->first = nd->nkids = 0;
    nd->next = off + (uint32_t)pad4((uint64_t)REC_NAME + nd->namelen);
}

/* Is the leaf record at off (info its third word, par its parent) sound:
 * not the root's place, its parent before it, its name inside NODES?
 * The caller has checked that the record's first words are in NODES;
 * pmns_image_node_at and the lookup's matches() both ask. */
static inline int leaf_sound(const pmns_image *img, uint32_t off, uint32_t info, uint32_t par)
{
    return off != 0 && par < off &&
           pad4((uint64_t)REC_NAME + (info & NAMELEN_MAX)) <= img->nodes_len - off;
}

int pmns_image_node_at(const pmns_image *img, uint32_t off, pmns_image_node *nd)
{
    uint32_t len = img->nodes_len, avail, info, parent;
    const uint8_t *r;
    uint64_t size;

    if ((off & 3) != 0 || off > len || len - off < REC_NAME)
        return PMNS_IMG_ECORRUPT;
    r = img->nodes + off;
    avail = len - off;
    info = rd32(r + REC_INFO);
    parent = rd32(r + REC_PARENT);
    if ((info >> FLAGS_SHIFT) & PMNS_IMG_LEAF) {
        if (!leaf_sound(img, off, info, parent))
            return PMNS_IMG_ECORRUPT;
        leaf_fill(nd, r, off, info, parent);
        return 0;
    }
    if (off == 0 ? parent != PMNS_IMG_NONE : parent >= off)
        return PMNS_IMG_ECORRUPT; /* a parent comes first; only the root has none */
    if (avail < REC_PATH)
        return PMNS_IMG_ECORRUPT;
    nd->off = off;
    nd->parent = parent;
    nd->pmid = rd32(r + REC_PMID);
    nd->namelen = info & NAMELEN_MAX;
    nd->flags = info >> FLAGS_SHIFT;
    nd->first = rd32(r + REC_FIRST);
    nd->nkids = rd32(r + REC_NKIDS);
    nd->pathlen = rd32(r + REC_PATHLEN);
    if (nd->pathlen > avail - REC_PATH || nd->namelen > nd->pathlen)
        return PMNS_IMG_ECORRUPT;
    nd->path = (const char *)r + REC_PATH;
    nd->name = nd->path + nd->pathlen - nd->namelen;
    size = pad4((uint64_t)REC_PATH + nd->pathlen);
    if (size > avail)
        return PMNS_IMG_ECORRUPT;
    nd->next = off + (uint32_t)size;
    return 0;
}

/*
 * Does node off have the full name name[0..len)?  Its record in *nd.
 * This is the inner step of every lookup, and at a million names the leaf
 * record it reads is usually a cache miss: it reads only the words it
 * compares and decodes a leaf itself, so that little work waits on the
 * miss.  The checks keep every read inside NODES, whose root record
 * (checked at open) makes nodes_len >= REC_PATH.
 */
static int matches(const pmns_image *img, uint32_t off, const char *name, size_t len,
                   pmns_image_node *nd)
{
    const uint8_t *r, *p;
    uint32_t nl = img->nodes_len, info, own, par, head;

    if ((off & 3) != 0 || off > nl - REC_NAME)
        return 0;
    r = img->nodes + off;
    info = rd32(r + REC_INFO);
    if (!((info >> FLAGS_SHIFT) & PMNS_IMG_LEAF))
        return pmns_image_node_at(img, off, nd) == 0 && nd->pathlen == len &&
               memcmp(nd->path, name, len) == 0;
    own = info & NAMELEN_MAX;
    par = rd32(r + REC_PARENT);
    if (own > len || !leaf_sound(img, off, info, par) || par > nl - REC_PATH ||
        memcmp(r + REC_NAME, name + len - own, own) != 0)
        return 0;
    /* only the parent's words compared: node_at's other checks on a
     * non-leaf cost a lookup 3% more instructions, and a damaged image may
     * answer wrongly but reads nothing outside NODES */
    p = img->nodes + par;
    if ((rd32(p + REC_INFO) >> FLAGS_SHIFT) & PMNS_IMG_LEAF)
        return 0;
    head = rd32(p + REC_PATHLEN);
    if (head == 0 ? len != own
                  : head > nl - par - REC_PATH || (size_t)head + 1 + own != len ||
                        name[head] != '.' || memcmp(p + REC_PATH, name, head) != 0)
        return 0;
    leaf_fill(nd, r, off, info, par);
    return 1;
}

uint32_t pmns_image_find_hashed(const pmns_image *img, const char *name, size_t len, uint32_t hash,
                                pmns_image_node *nd)
{
    pmns_image_node scratch;
    uint32_t m = img->nslots, i;

    if (nd == NULL)
        nd = &scratch;
    if (len == 0)
        return pmns_image_node_at(img, 0, nd) == 0 ? 0 : PMNS_IMG_NONE;
    if (len > UINT32_MAX || m == 0)
        return PMNS_IMG_NONE;
    i = pmns_image_scale(hash, m);
    for (uint32_t k = 0; k < m; k++) {
        const uint8_t *s = img->slots + (size_t)i * 8;
        uint32_t off = rd32(s + 4);
        if (off == 0)
            break;
        if (rd32(s) == hash && matches(img, off, name, len, nd))
            return off;
        if (++i == m)
            i = 0;
    }
    return PMNS_IMG_NONE;
}

uint32_t pmns_image_find(const pmns_image *img, const char *name, size_t len, pmns_image_node *nd)
{
    return pmns_image_find_hashed(img, name, len, pmns_img_hash_name(name, len), nd);
}

/* How many slots prefetch_record looks at. */
#define PREFETCH_SLOTS 4

uint32_t pmns_image_probe(const pmns_image *img, const char *name, size_t len)
{
    uint32_t h = pmns_img_hash_name(name, len);

    if (img->nslots > 0)
        __builtin_prefetch(img->slots + (size_t)pmns_image_scale(h, img->nslots) * 8);
    return h;
}

/*
 * Prefetch the record of the name whose hash is hash, if it is among the
 * first few slots from its home slot (mostly one cache line: with linear
 * probing a name usually is).  Always inlined: GCC takes a function whose
 * only effect is a prefetch for one without effects, and drops calls to it
 * from the same file.
 */
static inline __attribute__((always_inline)) void prefetch_record(const pmns_image *img,
                                                                  uint32_t hash)
{
    uint32_t i, off;

    if (img->nslots == 0)
        return;
    i = pmns_image_scale(hash, img->nslots);
    for (int k = 0; k < PREFETCH_SLOTS && i < img->nslots; k++, i++) {
        const uint8_t *s = img->slots + (size_t)i * 8;
        if ((off = rd32(s + 4)) == 0)
            return;
        if (rd32(s) == hash) {
            if (off < img->nodes_len)
                __builtin_prefetch(img->nodes + off);
            return;
        }
    }
}

void pmns_image_prefetch_node(const pmns_image *img, uint32_t hash)
{
    prefetch_record(img, hash);
}

/*
 * At a million names a lookup of a leaf reads three places one after the
 * other, each a cache miss: the name's index slot, the leaf's record and
 * its parent's record (whose full name the name must start with).  The
 * parent's record can be found without the leaf's: by its own name, the
 * name up to the last dot.  Prefetched that way, it arrives while the
 * leaf's slot and record are read.  Small namespaces keep their non-leaf
 * records in the cache, and there the extra hash and probe cost a lookup
 * more than they save (one-off measurements on a 2-core VM: 30-40 ns more
 * at 3 000 and 100 000 names, 40-80 ns less at a million).
 */
void pmns_image_prefetch_parent(const pmns_image *img, const char *name, size_t len)
{
    size_t plen = len;

    if (img->nnodes - img->nleaves < PMNS_IMG_PARENT_PREFETCH_MIN)
        return;
    while (plen > 0 && name[plen - 1] != '.')
        plen--;
    if (plen > 1)
        prefetch_record(img, pmns_img_hash_name(name, plen - 1));
}

void pmns_image_children(const pmns_image_node *nd, pmns_image_iter *it)
{
    it->parent = nd->off;
    it->next = nd->first;
    it->left = (nd->flags & PMNS_IMG_LEAF) ? 0 : nd->nkids;
}

int pmns_image_next(const pmns_image *img, pmns_image_iter *it, pmns_image_node *c)
{
    if (it->left == 0)
        return 0;
    if (it->next <= it->parent || pmns_image_node_at(img, it->next, c) < 0 ||
        c->parent != it->parent) {
        it->left = 0;
        return PMNS_IMG_ECORRUPT; /* each record has one parent before it: a tree */
    }
    it->next = c->next;
    it->left--;
    return 1;
}

int pmns_image_name(const pmns_image *img, const pmns_image_node *nd, const char **head,
                    uint32_t *headlen, const char **tail, uint32_t *taillen)
{
    pmns_image_node p;

    if (!(nd->flags & PMNS_IMG_LEAF)) {
        *head = "";
        *headlen = 0;
        *tail = nd->path;
        *taillen = nd->pathlen;
        return 0;
    }
    if (pmns_image_node_at(img, nd->parent, &p) < 0 || (p.flags & PMNS_IMG_LEAF))
        return PMNS_IMG_ECORRUPT;
    *head = p.path;
    *headlen = p.pathlen;
    *tail = nd->name;
    *taillen = nd->namelen;
    return 0;
}

void pmns_image_pmid_first(const pmns_image *img, uint32_t pmid, pmns_image_pmid_iter *it)
{
    uint32_t b = pmns_image_scale(mix_pmid(pmid), img->nbuckets);

    it->pmid = pmid;
    it->at = rd32(img->buckets + 4 * (size_t)b);
    it->end = rd32(img->buckets + 4 * (size_t)b + 4);
    if (it->end > img->nentries || it->at > it->end)
        it->at = it->end = 0; /* damaged: as if unknown */
}

int pmns_image_pmid_next(const pmns_image *img, pmns_image_pmid_iter *it, uint32_t *off)
{
    while (it->at < it->end) {
        const uint8_t *e = img->entries + (size_t)it->at++ * 8;
        if (rd32(e) == it->pmid) {
            *off = rd32(e + 4);
            return 1;
        }
    }
    return 0;
}

int pmns_image_entry(const pmns_image *img, uint32_t i, uint32_t *pmid, uint32_t *off)
{
    if (i >= img->nentries)
        return PMNS_IMG_ECORRUPT;
    *pmid = rd32(img->entries + (size_t)i * 8);
    *off = rd32(img->entries + (size_t)i * 8 + 4);
    return 0;
}

int pmns_image_slot(const pmns_image *img, uint32_t i, uint32_t *hash, uint32_t *off)
{
    if (i >= img->nslots)
        return PMNS_IMG_ECORRUPT;
    *hash = rd32(img->slots + (size_t)i * 8);
    *off = rd32(img->slots + (size_t)i * 8 + 4);
    return *off == 0; /* the root is never indexed: offset 0 is an empty slot */
}

/* ---------------------------------------------------------------- */
/* Verification of the body (pmnscomp --check). */

/* Every section's checksum; the bytes outside the header and the sections
 * (alignment padding) must be zero. */
int pmns_image_verify_body(const pmns_image *img, pmns_image_error *err)
{
    const uint8_t *b = img->base;
    uint32_t hlen = rd32(b + HDR_LENGTH), nsect = rd32(b + HDR_NSECTIONS);
    uint64_t covered = hlen;

    for (uint32_t i = 0; i < nsect; i++) {
        const uint8_t *e = b + HDR_SIZE + (size_t)i * SECT_SIZE;
        uint32_t o = rd32(e + 4), l = rd32(e + 8);
        if (o < covered)
            return FAIL(PMNS_IMG_ECORRUPT, HDR_SIZE + (uint64_t)i * SECT_SIZE,
                        "sections overlap or out of order");
        for (uint64_t k = covered; k < o; k++)
            if (b[k] != 0)
                return FAIL(PMNS_IMG_ECORRUPT, k, "padding not zero");
        if (pmns_image_crc32c(0, b + o, l) != rd32(e + 12))
            return FAIL(PMNS_IMG_ECHECKSUM, o, "section checksum");
        covered = (uint64_t)o + l;
    }
    if (covered != img->size)
        return FAIL(PMNS_IMG_ECORRUPT, covered, "bytes after the last section");
    return 0;
}

/* ---------------------------------------------------------------- */
/* Dump as ASCII PMNS. */

/* A node with a group of its own: a non-leaf from the source. */
static int has_group(const pmns_image_node *nd)
{
    return !(nd->flags & (PMNS_IMG_LEAF | PMNS_IMG_DERIVED | PMNS_IMG_HASPMID));
}

static void put_pmid(FILE *fp, uint32_t pmid, uint32_t flags)
{
    if (flags & PMNS_IMG_DYNAMIC)
        fprintf(fp, "\t%u:*:*", pmid >> 10 & 0xfff);
    else
        fprintf(fp, "\t%u:%u:%u", pmid >> 22 & 0x1ff, pmid >> 10 & 0xfff, pmid & 0x3ff);
}

/* "path {", a line per child from the source, "}". */
static int dump_group(const pmns_image *img, const pmns_image_node *nd, int first, FILE *fp)
{
    pmns_image_iter it;
    pmns_image_node c;
    int sts;

    if (!first)
        fputc('\n', fp);
    if (nd->off == 0)
        fputs("root", fp);
    else
        fwrite(nd->path, 1, nd->pathlen, fp);
    fputs(" {\n", fp);
    pmns_image_children(nd, &it);
    while ((sts = pmns_image_next(img, &it, &c)) > 0) {
        if (c.flags & PMNS_IMG_DERIVED)
            continue;
        fputc('\t', fp);
        fwrite(c.name, 1, c.namelen, fp);
        if (c.flags & (PMNS_IMG_LEAF | PMNS_IMG_HASPMID))
            put_pmid(fp, c.pmid, c.flags);
        fputc('\n', fp);
    }
    fputs("}\n", fp);
    return sts;
}

/* Groups in depth-first order: a group, then its children's groups. */
int pmns_image_dump(const pmns_image *img, FILE *fp)
{
    pmns_image_iter *stack = NULL;
    size_t sp = 0, cap = 0;
    pmns_image_node nd;
    int sts;

    if ((sts = pmns_image_node_at(img, 0, &nd)) < 0 || (sts = dump_group(img, &nd, 1, fp)) < 0)
        return sts;
    for (;;) {
        if (sp == cap) {
            pmns_image_iter *s = realloc(stack, (cap = cap ? 2 * cap : 64) * sizeof(*s));
            if (s == NULL) {
                free(stack);
                return PMNS_IMG_ENOMEM;
            }
            stack = s;
        }
        pmns_image_children(&nd, &stack[sp++]);
        for (;;) { /* the next child with a group, going up when a level ends */
            while (sp > 0 && (sts = pmns_image_next(img, &stack[sp - 1], &nd)) == 0)
                sp--;
            if (sts < 0 || sp == 0 || has_group(&nd))
                break;
        }
        if (sts < 0 || sp == 0 || (sts = dump_group(img, &nd, 0, fp)) < 0)
            break;
    }
    free(stack);
    if (sts == 0 && (fflush(fp) != 0 || ferror(fp)))
        return PMNS_IMG_ESYS;
    return sts;
}
