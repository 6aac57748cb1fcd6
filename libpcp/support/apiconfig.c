/*
 * apiconfig.c - pmGetAPIConfig: what this libpcp can do, by feature name.
 *
 * The names are PCP 6.0.3's (pmconfig -L lists them), matched without
 * regard to case as PCP matches them; unknown names (and the empty name)
 * answer NULL.  The values describe pmkit, not Debian's build, so a tool
 * that asks before using a feature is told the truth: pmkit serves local
 * contexts and host contexts over TCP (IPv4 or IPv6) and unix sockets (no
 * TLS, SASL, archives or compressed archives), and is safe to call from
 * several threads.  PCP lists openssl_version and
 * sasl_version only when built with them; pmkit has neither, so they are
 * unknown names here.  Values are static strings; the environment is not
 * touched (pmGetConfig's PCP_* variables are a separate namespace).
 * __pmAPIConfig hands every feature to a callback, in PCP's order.
 * A NULL name, on which PCP crashes, answers NULL (docs/compat.md).
 */
#include "support.h"

#include <pcp/libpcp.h>

#include <strings.h>

static const struct {
    const char *name;  /* the feature, as pmconfig -L prints it */
    const char *value; /* pmkit's answer */
} features[] = {
    {"pcp_version", "6.0.3"},
    {"pmapi_version", "3"},
    {"multi_threaded", "true"},
    {"fault_injection", "false"},
    {"secure_sockets", "false"},
    {"ipv6", "true"},
    {"authentication", "false"},
    {"unix_domain_sockets", "true"},
    {"static_probes", "false"},
    {"service_discovery", "false"},
    {"multi_archive_contexts", "true"},
    {"lock_asserts", "false"},
    {"lock_debug", "false"},
    {"lzma_decompress", "true"},
    {"transparent_decompress", "true"},
    {"compress_suffixes", ".xz .lzma .bz2 .bz .gz .Z .z"},
    {"v3_archives", "true"},
    {"archive_features", ""},
};

const char *pmGetAPIConfig(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
        if (strcasecmp(name, features[i].name) == 0)
            return features[i].value;
    }
    return NULL;
}

void __pmAPIConfig(__pmAPIConfigCallback formatter)
{
    for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
        formatter(features[i].name, features[i].value);
}

/* The name pmGetAPIConfig had before it became public. */
PMKIT_ALIAS(__pmGetAPIConfig, pmGetAPIConfig);
