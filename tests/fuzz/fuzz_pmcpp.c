/*
 * fuzz_pmcpp.c - libFuzzer target for the preprocessor (libpcp/front).
 *
 * The first byte picks the options (-s, -r, -P); the rest is the input,
 * preprocessed in memory with #include and #shell refused.  Anything the
 * sanitizers or the fuzzer notice (crash, leak, hang, overflow) is a bug.
 * Built with clang -fsanitize=fuzzer when PMKIT_FUZZ is on, and always as a
 * plain program (standalone.c) that replays the corpus under ctest.
 */
#include "cpp.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(void *ctx, const char *text, size_t len)
{
    (void)text;
    *(size_t *)ctx += len;
    return 0;
}

static void quiet(void *ctx, const diag_msg *d)
{
    (void)d;
    ++*(unsigned *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cpp_define defs[] = {
        {"FUZZ=1", 0, 1},
        {"Q=\"a b\"", 0, 2},
        {"GONE", 1, 3},
    };
    cpp_options opt = {0};
    size_t produced = 0;
    unsigned diags = 0;
    cpp_sink sink = {count, &produced};

    if (size == 0)
        return 0;
    opt.shell_style = data[0] & 1;
    opt.restricted = (data[0] >> 1) & 1;
    opt.no_markers = (data[0] >> 2) & 1;
    opt.defines = defs;
    opt.n_defines = (data[0] >> 3) & 1 ? 3 : 0;
    opt.form = (data[0] >> 4) & 1 ? DIAG_FORM_PCP : DIAG_FORM_RICH; /* stop at the first error? */
    opt.trace = (data[0] >> 5) & 1 && size < 512;                   /* -d: stderr, so short ones */
    opt.no_external = 1;
    opt.diag = quiet;
    opt.diag_ctx = &diags;
    cpp_run_buffer(&opt, "<fuzz>", (const char *)data + 1, size - 1, &sink, NULL);
    return 0;
}
