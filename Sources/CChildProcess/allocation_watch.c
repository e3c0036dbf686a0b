// The allocation watch: malloc's entry points replaced by ones that call glibc's own
// allocator (__libc_malloc and the others, which glibc exports for exactly this) and note the
// first time it returns nothing. Defining malloc in the program replaces it for every library
// the program loads, poppler, cairo and pixman among them ("Replacing malloc" in the glibc
// manual); free, malloc_usable_size and the rest stay glibc's, which is safe because the
// memory is glibc's. Nothing here allocates or takes a lock: the note is one atomic flag and
// one write().
#include "child_process.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define NCHILD_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NCHILD_SANITIZED 1
#endif

#if defined(__GLIBC__) && !defined(NCHILD_SANITIZED)
#define NCHILD_WATCH 1
#endif

static int watch_fd = -1;
static int failed = 0;

void nchild_watch_allocations(int fd) { __atomic_store_n(&watch_fd, fd, __ATOMIC_SEQ_CST); }

int nchild_allocation_failed(void) { return __atomic_load_n(&failed, __ATOMIC_SEQ_CST); }

#if defined(NCHILD_WATCH)

int nchild_allocation_watch_available(void) { return 1; }

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static void note_failure(void) {
    int fd = __atomic_load_n(&watch_fd, __ATOMIC_SEQ_CST);
    if (fd < 0) return;
    if (__atomic_exchange_n(&failed, 1, __ATOMIC_SEQ_CST) != 0) return;
    int saved = errno;
    ssize_t written;
    do written = write(fd, "!", 1); while (written < 0 && errno == EINTR);
    errno = saved;
}

void *malloc(size_t size) {
    void *result = __libc_malloc(size);
    if (result == NULL && size != 0) note_failure();
    return result;
}

void *calloc(size_t count, size_t size) {
    void *result = __libc_calloc(count, size);
    if (result == NULL && count != 0 && size != 0) note_failure();
    return result;
}

void *realloc(void *pointer, size_t size) {
    void *result = __libc_realloc(pointer, size);
    if (result == NULL && size != 0) note_failure();
    return result;
}

void *memalign(size_t alignment, size_t size) {
    void *result = __libc_memalign(alignment, size);
    if (result == NULL && size != 0) note_failure();
    return result;
}

void *aligned_alloc(size_t alignment, size_t size) {
    void *result = __libc_memalign(alignment, size);
    if (result == NULL && size != 0) note_failure();
    return result;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    // glibc's own checks: a power of two and a multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    void *result = __libc_memalign(alignment, size);
    if (result == NULL && size != 0) {
        note_failure();
        return ENOMEM;
    }
    *out = result;
    return 0;
}

#else

int nchild_allocation_watch_available(void) { return 0; }

#endif
