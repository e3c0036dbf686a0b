// test-child-guard <parent-pid> <folder|-> <program> [arguments…]
//
// The exec wrapper every child a test starts goes through (NewsstandTestSupport's TestChild).
// posix_spawn cannot set the parent-death signal, so this sets it (SIGKILL when the thread that
// started it ends: TestChild starts every child from one thread that lives as long as the test
// process), checks the parent did not die before that (then the signal would never come),
// changes to `folder` unless it is "-", closes every inherited descriptor but the standard
// three, and becomes `program`. The signal survives the exec,
// so a test process killed with SIGKILL takes its nginx and Python servers with it.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// Every descriptor above standard error is closed before the exec: posix_spawn on Linux passes
// on whatever the test process had open without O_CLOEXEC (a reader's socket to nginx, held
// open by a server started meanwhile, kept nginx from seeing a cancelled download's cut).
static void close_inherited(void) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
    long highest = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (highest > 0 ? highest : 65536); fd++) close((int)fd);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s <parent-pid> <folder|-> <program> [arguments...]\n", argv[0]);
        return 125;
    }
    char *end = NULL;
    long parent = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || parent <= 1) {
        fprintf(stderr, "%s: not a parent process id: %s\n", argv[0], argv[1]);
        return 125;
    }
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
        fprintf(stderr, "%s: prctl(PR_SET_PDEATHSIG): %s\n", argv[0], strerror(errno));
        return 125;
    }
    // Re-parented already: the parent died between the spawn and the prctl.
    if (getppid() != (pid_t)parent) return 125;
    if (strcmp(argv[2], "-") != 0 && chdir(argv[2]) != 0) {
        fprintf(stderr, "%s: cannot change to %s: %s\n", argv[0], argv[2], strerror(errno));
        return 125;
    }
    close_inherited();
    execvp(argv[3], &argv[3]);
    fprintf(stderr, "%s: cannot run %s: %s\n", argv[0], argv[3], strerror(errno));
    return 127;
}
