// libcurl opened on first use (CCurl.h says why). This file does not include libcurl's headers:
// they change a few signatures between versions (`const` on curl_url_get's handle in 8.x), and
// these definitions must not conflict with whichever is installed. The ABI they rely on is
// libcurl's stable one (soname 4): every enum is an int, every handle a pointer.

const char *ccurl_open(void);

#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

// Debian's libcurl4 (OpenSSL), the one the package's headers come from.
#define CCURL_LIBRARY "libcurl.so.4"

// Every libcurl function this program calls, CCurl's Swift users' and FoundationNetworking's
// (`nm -u` of its static library: one missing here fails the link, so none is forgotten), as
// (name, return type, parameters, arguments). Enums are int, handles and structs pointers.
// Those returning a value:
#define CCURL_FUNCTIONS(X) \
    X(curl_global_init, int, (long flags), (flags)) \
    X(curl_version, char *, (void), ()) \
    X(curl_version_info, void *, (int version), (version)) \
    X(curl_easy_init, void *, (void), ()) \
    X(curl_easy_perform, int, (void *handle), (handle)) \
    X(curl_easy_pause, int, (void *handle, int mask), (handle, mask)) \
    X(curl_easy_strerror, const char *, (int code), (code)) \
    X(curl_easy_header, int, (void *handle, const char *name, size_t index, unsigned origin, int request, void **header), \
      (handle, name, index, origin, request, header)) \
    X(curl_slist_append, void *, (void *list, const char *text), (list, text)) \
    X(curl_multi_init, void *, (void), ()) \
    X(curl_multi_add_handle, int, (void *multi, void *handle), (multi, handle)) \
    X(curl_multi_remove_handle, int, (void *multi, void *handle), (multi, handle)) \
    X(curl_multi_assign, int, (void *multi, int socket, void *pointer), (multi, socket, pointer)) \
    X(curl_multi_socket_action, int, (void *multi, int socket, int mask, int *running), (multi, socket, mask, running)) \
    X(curl_multi_info_read, void *, (void *multi, int *queued), (multi, queued)) \
    X(curl_multi_cleanup, int, (void *multi), (multi)) \
    X(curl_url, void *, (void), ()) \
    X(curl_url_get, int, (void *url, int part, char **text, unsigned flags), (url, part, text, flags)) \
    X(curl_url_set, int, (void *url, int part, const char *text, unsigned flags), (url, part, text, flags))

// Those returning nothing.
#define CCURL_PROCEDURES(X) \
    X(curl_free, void, (void *pointer), (pointer)) X(curl_easy_reset, void, (void *handle), (handle)) \
    X(curl_easy_cleanup, void, (void *handle), (handle)) X(curl_slist_free_all, void, (void *list), (list))

// The variadic three take one argument after the option: a long, a curl_off_t, a pointer or a
// function pointer, each passed in one 64-bit integer register on the LP64 systems this
// builds for, so it is forwarded as a pointer-sized value.
#define CCURL_VARIADIC(X) X(curl_easy_setopt) X(curl_easy_getinfo) X(curl_multi_setopt)
_Static_assert(sizeof(long) == sizeof(void *) && sizeof(long long) == sizeof(void *), "LP64 only");

#define CCURL_POINTER(name, result, parameters, arguments) static result(*ccurl_p_##name) parameters;
CCURL_FUNCTIONS(CCURL_POINTER)
CCURL_PROCEDURES(CCURL_POINTER)
#define CCURL_VARIADIC_POINTER(name) static int (*ccurl_p_##name)(void *, int, void *);
CCURL_VARIADIC(CCURL_VARIADIC_POINTER)

static pthread_once_t ccurl_once = PTHREAD_ONCE_INIT;
static const char *ccurl_failure = "libcurl was not opened";
static char ccurl_reason[512];

static int ccurl_resolve(void *library, const char *name, void **pointer) {
    *pointer = dlsym(library, name);
    if (*pointer) return 1;
    snprintf(ccurl_reason, sizeof ccurl_reason, "libcurl has no function %s (a libcurl older than 7.84)", name);
    ccurl_failure = ccurl_reason;
    return 0;
}

static void ccurl_load_library(void) {
    // Local: libcurl's symbols do not join the process's global scope (the definitions below
    // are hidden, so libcurl never binds to them either).
    void *library = dlopen(CCURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        // dlerror() names the file and says why ("libcurl.so.4: cannot open shared object file").
        const char *why = dlerror();
        snprintf(ccurl_reason, sizeof ccurl_reason, "%s", why ? why : CCURL_LIBRARY ": could not be opened");
        ccurl_failure = ccurl_reason;
        return;
    }
#define CCURL_RESOLVE(name, ...) \
    if (!ccurl_resolve(library, #name, (void **)&ccurl_p_##name)) return;
    CCURL_FUNCTIONS(CCURL_RESOLVE)
    CCURL_PROCEDURES(CCURL_RESOLVE)
    CCURL_VARIADIC(CCURL_RESOLVE)
    ccurl_failure = NULL;
}

const char *ccurl_open(void) {
    pthread_once(&ccurl_once, ccurl_load_library);
    return ccurl_failure;
}

// A libcurl that cannot be opened ends the process, naming why, as a missing library ended it
// at start before (publish and the reader's transport ask `ccurl_open` first and say it as an error).
static void ccurl_require(void) {
    const char *failure = ccurl_open();
    if (!failure) return;
    fprintf(stderr, "libcurl could not be opened: %s\n", failure);
    abort();
}

// The definitions, hidden: they satisfy this program's references at link time
// (FoundationNetworking's among them) and are not exported by the executable.
#define CCURL_DEFINE(name, result, parameters, arguments) \
    __attribute__((visibility("hidden"))) result name parameters { \
        ccurl_require(); \
        return ccurl_p_##name arguments; \
    }
CCURL_FUNCTIONS(CCURL_DEFINE)
#define CCURL_DEFINE_PROCEDURE(name, result, parameters, arguments) \
    __attribute__((visibility("hidden"))) void name parameters { \
        ccurl_require(); \
        ccurl_p_##name arguments; \
    }
CCURL_PROCEDURES(CCURL_DEFINE_PROCEDURE)

#define CCURL_DEFINE_VARIADIC(name) \
    __attribute__((visibility("hidden"))) int name(void *handle, int option, ...) { \
        va_list arguments; \
        va_start(arguments, option); \
        void *value = va_arg(arguments, void *); \
        va_end(arguments); \
        ccurl_require(); \
        return ccurl_p_##name(handle, option, value); \
    }
CCURL_VARIADIC(CCURL_DEFINE_VARIADIC)

#else

const char *ccurl_open(void) { return NULL; }

#endif
