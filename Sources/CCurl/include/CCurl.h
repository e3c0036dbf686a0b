#ifndef NEWSSTAND_CCURL_H
#define NEWSSTAND_CCURL_H

// libcurl for publish (WebDAV) and the reader's Linux transport. On Linux it is not linked:
// CCurl.c defines the libcurl functions this program calls (ours and FoundationNetworking's),
// each opening libcurl with dlopen on first use (`ccurl_open`), so that a command that makes no
// request (validate, a no-change build in CI, a build that opens no libvips: libvips' own
// dependencies bring libcurl) does not bind libcurl and the thirty libraries it brings
// (GnuTLS, Kerberos, LDAP, nghttp2...): about 3 ms of every start.
// On Apple platforms libcurl is linked as usual and CCurl.c compiles to nothing.

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/// Opens libcurl and finds every function CCurl forwards, once per process (later calls return
/// the first call's answer): NULL when it is loaded (always on Apple platforms), else the
/// reason, a string that lives as long as the process. A libcurl function called when it could
/// not be opened ends the process with that reason, as a missing library ended it at start.
const char *ccurl_open(void);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: typed wrappers.
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_write(CURL *handle, size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode ccurl_setopt_header(CURL *handle, size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
static inline CURLcode ccurl_setopt_progress(CURL *handle, int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline long ccurl_info_long(CURL *handle, CURLINFO info) {
    long value = 0;
    curl_easy_getinfo(handle, info, &value);
    return value;
}
static inline long ccurl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

// For uploads streamed from a file (publish's WebDAV PUT) and for telling timeouts apart.
static inline CURLcode ccurl_setopt_read(CURL *handle, size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline curl_off_t ccurl_info_off(CURL *handle, CURLINFO info) {
    curl_off_t value = 0;
    curl_easy_getinfo(handle, info, &value);
    return value;
}

#endif
