import Foundation
import NewsstandCLI

// UTF-8 file names in archives need a UTF-8 locale. (Zip entry times are written in UTC by
// the archive code itself: the time zone is left as the user set it.)
setlocale(LC_ALL, "C.UTF-8")
// A file-size limit (ulimit -f) then fails a write with EFBIG, reported like a full disk,
// instead of killing the process.
signal(SIGXFSZ, SIG_IGN)
#if canImport(Glibc)
// Two malloc arenas, not glibc's eight per core: libvips' worker threads and poppler's
// allocations fragmented them (rendering PDF pages one at a time peaked at 119 MB after 10
// pages and 179 MB after 100; with two, 100-104 MB whatever the count, at the same speed).
// Process-wide, so set here by the executable, not by the imaging library an app may embed.
mallopt(M_ARENA_MAX, 2)
#endif
exit(NewsstandCommand.run(Array(CommandLine.arguments.dropFirst())))
