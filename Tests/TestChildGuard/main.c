// test-child-guard [--supervise] <parent-pid> <folder|-> <program> [arguments…]
//
// The exec wrapper every child a test starts goes through (NewsstandTestSupport's TestChild).
// posix_spawn cannot set the parent-death signal, so this sets it (the signal comes when the
// thread that started it ends: TestChild starts every child from one thread that lives as long
// as the test process), checks the parent did not die before that (then the signal would never
// come), changes to `folder` unless it is "-", and closes every inherited descriptor but the
// standard three.
//
// Without --supervise it then becomes `program` with SIGKILL as its parent-death signal (the
// signal survives the exec), so a test process killed with SIGKILL takes the program with it.
// That signal reaches the program alone, not what the program started.
//
// With --supervise (a server that starts processes of its own: nginx's master forks its
// worker) it forks the program and stays as its parent, in the process group TestChild gave
// it, where the program and what it starts are too (unless they leave it: neither nginx nor the
// Python servers do). When the test process ends (its parent-death signal is then one it
// catches) it kills the whole group with SIGKILL, itself included. When the program
// ends it kills whatever the program left (a subreaper, it is the parent of every orphaned
// descendant) and ends as the program did: the same exit status, or the same signal. SIGTERM,
// SIGINT, SIGHUP and SIGQUIT are ignored: sent to the group (TestChild's stop), they reach the
// program too, and the guard waits for it. SIGKILL sent to the guard alone kills the program
// (its parent-death signal), but not what the program started.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The signal a supervising guard gets when the test process ends (caught, unlike SIGKILL).
#define PARENT_DIED SIGUSR1

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

// Sends SIGKILL to every child of this (single-threaded) process; whether there was one.
static int kill_children(void) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    FILE *list = fopen(path, "r");
    if (list == NULL) return 0;
    int found = 0;
    long child;
    while (fscanf(list, "%ld", &child) == 1) {
        if (child > 1) {
            kill((pid_t)child, SIGKILL);
            found = 1;
        }
    }
    fclose(list);
    return found;
}

// Ends as the program did: its exit status, or the signal that ended it (no core file).
static int end_like(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    int signal_number = WTERMSIG(status);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(signal_number, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal_number);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    raise(signal_number);
    return 128 + signal_number;
}

static int supervise(pid_t parent, char **program) {
    // Blocked, and taken one at a time with sigwaitinfo below; the program gets the mask and
    // the (default) actions the guard was started with.
    sigset_t watched, started_with;
    sigemptyset(&watched);
    int signals[] = {SIGCHLD, PARENT_DIED, SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&watched, signals[i]);
    sigprocmask(SIG_BLOCK, &watched, &started_with);
    if (prctl(PR_SET_PDEATHSIG, PARENT_DIED) != 0 || prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        fprintf(stderr, "test-child-guard: prctl: %s\n", strerror(errno));
        return 125;
    }
    if (getppid() != parent) return 125;
    pid_t guard = getpid();
    // kill(0, …) below must reach this group alone.
    if (getpgrp() != guard) {
        fprintf(stderr, "test-child-guard: --supervise needs a process group of its own\n");
        return 125;
    }
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "test-child-guard: fork: %s\n", strerror(errno));
        return 125;
    }
    if (child == 0) {
        // Killed with the guard, should the guard be killed alone.
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != guard) _exit(125);
        sigprocmask(SIG_SETMASK, &started_with, NULL);
        execvp(program[0], program);
        fprintf(stderr, "test-child-guard: cannot run %s: %s\n", program[0], strerror(errno));
        _exit(127);
    }
    int program_status = 0;
    int program_running = 1;
    while (program_running) {
        siginfo_t info;
        int signal_number = sigwaitinfo(&watched, &info);
        if (signal_number == PARENT_DIED && getppid() != parent) {
            kill(0, SIGKILL);
        } else if (signal_number == SIGCHLD) {
            int status;
            pid_t ended;
            while ((ended = waitpid(-1, &status, WNOHANG)) > 0) {
                if (ended == child) {
                    program_status = status;
                    program_running = 0;
                }
            }
        }
        // Anything else (a termination signal sent to the group, EINTR): the program decides.
    }
    // What the program left: killed and reaped, one at a time, until no child is left (a
    // killed child's own children become this process's, and are killed next).
    for (;;) {
        int killed = kill_children();
        pid_t reaped = waitpid(-1, NULL, killed ? 0 : WNOHANG);
        if (reaped < 0 || (reaped == 0 && !killed)) break;
    }
    return end_like(program_status);
}

int main(int argc, char **argv) {
    int supervising = argc > 1 && strcmp(argv[1], "--supervise") == 0;
    if (supervising) {
        argv++;
        argc--;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: test-child-guard [--supervise] <parent-pid> <folder|-> <program> [arguments...]\n");
        return 125;
    }
    char *end = NULL;
    long parent = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || parent <= 1) {
        fprintf(stderr, "test-child-guard: not a parent process id: %s\n", argv[1]);
        return 125;
    }
    if (!supervising) {
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
            fprintf(stderr, "test-child-guard: prctl(PR_SET_PDEATHSIG): %s\n", strerror(errno));
            return 125;
        }
        // Re-parented already: the parent died between the spawn and the prctl.
        if (getppid() != (pid_t)parent) return 125;
    }
    if (strcmp(argv[2], "-") != 0 && chdir(argv[2]) != 0) {
        fprintf(stderr, "test-child-guard: cannot change to %s: %s\n", argv[2], strerror(errno));
        return 125;
    }
    close_inherited();
    if (supervising) return supervise((pid_t)parent, &argv[3]);
    execvp(argv[3], &argv[3]);
    fprintf(stderr, "test-child-guard: cannot run %s: %s\n", argv[3], strerror(errno));
    return 127;
}
