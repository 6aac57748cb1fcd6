/*
 * fuzz_metricspec.c - libFuzzer target for pmParseMetricSpec
 * (libpcp/cmdline/metricspec.c).
 *
 * The input, cut at its first NUL, is parsed with and without an errmsg.
 * Checked: the status is 0 or PM_ERR_GENERIC, the same both times; a
 * success gives a result whose strings all lie inside its one block (or
 * are the caller's default source), a metric that is not empty unless it
 * came from escapes, and a sane isarch and ninst; a failure gives a
 * message that starts with the input, then a newline, a caret line as long
 * as the input at most, and "^ -- ".
 */
#include <pcp/pmapi.h>

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char default_source[] = "default-host";

/* Is P inside the block at R (its usable size) or the default source? */
static int owned(const pmMetricSpec *r, const char *p)
{
    size_t block = malloc_usable_size((void *)r);

    return p == default_source || (uintptr_t)p - (uintptr_t)r < block;
}

static void check_result(const pmMetricSpec *r, size_t size)
{
    if (r->isarch < 0 || r->isarch > 2 || r->ninst < 0 || (size_t)r->ninst > size)
        abort();
    if (!owned(r, r->source) || !owned(r, r->metric) || strlen(r->metric) > size)
        abort();
    for (int i = 0; i < r->ninst; i++) {
        if (!owned(r, r->inst[i]) || strlen(r->inst[i]) > size)
            abort();
    }
}

static void check_message(const char *msg, const char *str, size_t len)
{
    const char *caret;

    if (msg == NULL || strncmp(msg, str, len) != 0 || msg[len] != '\n')
        abort();
    if ((caret = strstr(msg + len + 1, "^ -- ")) == NULL || (size_t)(caret - msg) > 2 * len + 1)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *str = malloc(size + 1), *msg = NULL;
    pmMetricSpec *r1 = NULL, *r2 = NULL;
    int s1, s2;

    if (str == NULL)
        return 0;
    memcpy(str, data, size);
    str[size] = '\0';
    size = strlen(str);
    s1 = pmParseMetricSpec(str, 0, default_source, &r1, &msg);
    s2 = pmParseMetricSpec(str, 1, default_source, &r2, NULL);
    if ((s1 != 0 && s1 != PM_ERR_GENERIC) || (s1 == 0) != (s2 == 0))
        abort();
    if (s1 == 0) {
        check_result(r1, size);
        check_result(r2, size);
        if (strcmp(r1->metric, r2->metric) != 0 || r1->ninst != r2->ninst)
            abort();
        pmFreeMetricSpec(r1);
        pmFreeMetricSpec(r2);
    } else {
        check_message(msg, str, size);
        free(msg);
    }
    free(str);
    return 0;
}
