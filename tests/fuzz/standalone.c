/*
 * standalone.c - replay fuzz inputs without libFuzzer: every file named on
 * the command line, and every regular file in every directory named, is
 * passed once to LLVMFuzzerTestOneInput.  ctest runs it over the corpus so
 * each fuzz target doubles as a regression test (lz4/zstd do the same).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (fp == NULL) {
        perror(path);
        return -1;
    }
    do {
        if (len == cap) {
            uint8_t *b = realloc(buf, cap = cap ? cap * 2 : 4096);
            if (b == NULL) {
                free(buf);
                fclose(fp);
                return -1;
            }
            buf = b;
        }
        n = fread(buf + len, 1, cap - len, fp);
        len += n;
    } while (n > 0);
    fclose(fp);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int run_path(const char *path, unsigned *count)
{
    struct stat sb;
    DIR *dir;
    struct dirent *e;
    int sts = 0;

    if (stat(path, &sb) < 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        ++*count;
        return run_file(path);
    }
    if ((dir = opendir(path)) == NULL)
        return -1;
    while ((e = readdir(dir)) != NULL) {
        char sub[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        if (run_path(sub, count) < 0)
            sts = -1;
    }
    closedir(dir);
    return sts;
}

int main(int argc, char **argv)
{
    unsigned count = 0;
    int sts = 0;

    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], &count) < 0)
            sts = 1;
    printf("replayed %u inputs\n", count);
    return sts != 0 || count == 0;
}
