// Typed wrappers for libcurl's variadic calls, which Swift cannot call directly.
// One wrapper per argument type curl_easy_setopt/curl_easy_getinfo/curl_multi_setopt take;
// the option constants stay curl's own, so call sites read like the C API.
#ifndef PRICEWATCH_CCURL_SHIM_H
#define PRICEWATCH_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode pricewatch_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pricewatch_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Strings are copied by libcurl (since 7.17), so the caller's buffer may go away afterwards.
static inline CURLcode pricewatch_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Pointers that libcurl keeps (user data, POST bodies with CURLOPT_POSTFIELDS, ...).
static inline CURLcode pricewatch_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Lists that libcurl keeps until the transfer ends (headers, mail recipients).
static inline CURLcode pricewatch_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*pricewatch_curl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*pricewatch_curl_progress_callback)(void *userdata, curl_off_t download_total, curl_off_t download_now,
                                                curl_off_t upload_total, curl_off_t upload_now);

/// CURLOPT_WRITEFUNCTION, CURLOPT_READFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode pricewatch_curl_easy_setopt_data_callback(CURL *handle, CURLoption option,
                                                                 pricewatch_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// CURLOPT_XFERINFOFUNCTION.
static inline CURLcode pricewatch_curl_easy_setopt_progress_callback(CURL *handle,
                                                                     pricewatch_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode pricewatch_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pricewatch_curl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pricewatch_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pricewatch_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pricewatch_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode pricewatch_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

#endif
