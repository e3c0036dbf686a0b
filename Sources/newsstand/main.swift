import Foundation
import NewsstandCLI

// UTF-8 file names in archives need a UTF-8 locale; zip timestamps are local time, so the
// time zone is fixed to keep archives byte-identical on every machine.
setlocale(LC_ALL, "C.UTF-8")
setenv("TZ", "UTC", 1)
tzset()
// A file-size limit (ulimit -f) then fails a write with EFBIG, reported like a full disk,
// instead of killing the process.
signal(SIGXFSZ, SIG_IGN)
exit(NewsstandCommand.run(Array(CommandLine.arguments.dropFirst())))
