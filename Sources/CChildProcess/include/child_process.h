#ifndef NEWSSTAND_CHILD_PROCESS_H
#define NEWSSTAND_CHILD_PROCESS_H

#include <spawn.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// What `newsstand import`'s page renderer (a child process of newsstand) needs from C that
// Swift cannot call: functions glibc declares only for _GNU_SOURCE, a variadic one (prctl),
// and the allocation watch, which replaces malloc's entry points (see allocation_watch.c).

/// pipe2(fds, O_CLOEXEC): a pipe no other child inherits (a sibling renderer holding the write
/// end would keep the reader from ever seeing the end of the output).
int nchild_pipe(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor
/// from `lowest` up before it runs, whatever the parent had open without O_CLOEXEC.
int nchild_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// In the child: SIGKILL when the thread that started it ends (prctl PR_SET_PDEATHSIG), so a
/// killed newsstand leaves no renderer running. Returns -1 when `parent` is no longer the
/// parent (it died before the call: the signal would never come), 0 otherwise.
int nchild_die_with_parent(pid_t parent);

/// Whether the allocation watch is built in (not under AddressSanitizer or ThreadSanitizer,
/// which replace malloc themselves and reserve more address space than any data limit).
int nchild_allocation_watch_available(void);

/// Arms the allocation watch: from now on, the first malloc, calloc, realloc, memalign,
/// posix_memalign or aligned_alloc that returns nothing writes one byte to `fd`. cairo and
/// poppler give up on a drawing silently when an allocation fails (a page comes out blank):
/// this is how the renderer and its parent learn that a page needed more memory than it had.
void nchild_watch_allocations(int fd);

/// Whether an allocation failed since the watch was armed.
int nchild_allocation_failed(void);

#ifdef __cplusplus
}
#endif

#endif
