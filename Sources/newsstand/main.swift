import Foundation
import NewsstandCLI
import NewsstandImaging
import NewsstandImport

// UTF-8 file names in archives need a UTF-8 locale. (Zip entry times are written in UTC by
// the archive code itself: the time zone is left as the user set it.)
setlocale(LC_ALL, "C.UTF-8")
// A file-size limit (ulimit -f) then fails a write with EFBIG, reported like a full disk,
// instead of killing the process.
signal(SIGXFSZ, SIG_IGN)
// Two malloc arenas (see ImagingEngine.limitMallocArenas): process-wide, so the executable's
// choice, not the imaging library's.
ImagingEngine.limitMallocArenas()
// `newsstand import` renders each page in this program started again with a hidden command
// word (see PageRendererChild): not a command of the CLI, so never in its help or completions.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == PageRendererChild.command {
    exit(PageRendererChild.run(Array(CommandLine.arguments.dropFirst(2))))
}
exit(NewsstandCommand.run(Array(CommandLine.arguments.dropFirst())))
