import Foundation
import NewsstandCLI
import NewsstandImaging

// UTF-8 file names in archives need a UTF-8 locale. (Zip entry times are written in UTC by
// the archive code itself: the time zone is left as the user set it.)
setlocale(LC_ALL, "C.UTF-8")
// A file-size limit (ulimit -f) then fails a write with EFBIG, reported like a full disk,
// instead of killing the process.
signal(SIGXFSZ, SIG_IGN)
// Two malloc arenas (see ImagingEngine.limitMallocArenas): process-wide, so the executable's
// choice, not the imaging library's.
ImagingEngine.limitMallocArenas()
exit(NewsstandCommand.run(Array(CommandLine.arguments.dropFirst())))
