// The reader library's side of bench/reader: times one operation and prints seconds as JSON.
//   ReaderBench download <library-folder> <catalog-url> <issue>
//   ReaderBench extract <zip> <destination>
//   ReaderBench refresh <library-folder> <catalog-url>
//   ReaderBench list <library-folder>
//   ReaderBench updates <library-folder> <issue>
import Foundation
import NewsstandCore
import NewsstandCurl
import NewsstandReader

#if canImport(Glibc)
    import Glibc
#endif

setlocale(LC_ALL, "C.UTF-8")

/// The moment the transfer ended, as the library logs it (before verification and unpacking).
final class TransferClock: @unchecked Sendable {
    private let lock = NSLock()
    private var ended: Date?
    func log(_ message: String) {
        if message.contains("bytes transferred") { lock.withLock { ended = Date() } }
    }
    var transferEnded: Date? { lock.withLock { ended } }
}

func seconds(since start: Date) -> Double { (Date().timeIntervalSince(start) * 1000).rounded() / 1000 }

/// User plus system CPU seconds of this process so far: what an operation costs apart from
/// waiting (the bench machine may be shared).
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return ((user + system) * 1000).rounded() / 1000
}

func printJSON(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "download" where arguments.count == 4:
    let clock = TransferClock()
    var configuration = LibraryConfiguration.onCurl
    // "bytes transferred" is a debug line.
    configuration.log = .lines(minimumLevel: .debug) { clock.log($0) }
    let library = try IssueLibrary(folder: URL(fileURLWithPath: arguments[1]), scale: .retina, configuration: configuration)
    _ = try await library.refresh(from: URL(string: arguments[2])!)
    let start = Date()
    _ = try await library.download(arguments[3])
    let total = seconds(since: start)
    let transfer = clock.transferEnded.map { ($0.timeIntervalSince(start) * 1000).rounded() / 1000 } ?? total
    printJSON(["transfer": transfer, "total": total])
case "extract" where arguments.count == 3:
    let start = Date()
    _ = try ZipExtractor.extract(from: URL(fileURLWithPath: arguments[1]), into: URL(fileURLWithPath: arguments[2]))
    printJSON(["extract": seconds(since: start)])
case "refresh" where arguments.count == 3:
    let library = try IssueLibrary(folder: URL(fileURLWithPath: arguments[1]))
    var start = Date()
    let cpu = cpuSeconds()
    let fresh = try await library.refresh(from: URL(string: arguments[2])!)
    let freshSeconds = seconds(since: start)
    let freshCPU = ((cpuSeconds() - cpu) * 1000).rounded() / 1000
    start = Date()
    let again = try await library.refresh(from: URL(string: arguments[2])!)
    let unchanged = seconds(since: start)
    let covers = try FileManager.default.contentsOfDirectory(
        atPath: URL(fileURLWithPath: arguments[1]).appendingPathComponent("Covers").path)
    printJSON([
        "fresh": freshSeconds, "issues": fresh.added.count, "unchanged": unchanged, "notModified": again.notModified,
        "covers": covers.count, "freshCPU": freshCPU,
    ])
case "list" where arguments.count == 2:
    // What `newsstand library <folder> list` does: open the library, read the shelf, print a line each.
    let start = Date()
    let cpu = cpuSeconds()
    let library = try IssueLibrary(folder: URL(fileURLWithPath: arguments[1]))
    let issues = await library.issues
    var out = ""
    for issue in issues { out += "\(issue.name)\t\(issue.date.timeIntervalSince1970)\t\(issue.status.label)\n" }
    FileHandle(forWritingAtPath: "/dev/null")?.write(Data(out.utf8))
    printJSON(["list": seconds(since: start), "listCPU": ((cpuSeconds() - cpu) * 1000).rounded() / 1000, "issues": issues.count])
case "updates" where arguments.count == 3:
    // The cost of one saved change (a reading position: one row, one durable commit), averaged
    // over 200, and of a small issue's whole download (its status changes included).
    let library = try IssueLibrary(folder: URL(fileURLWithPath: arguments[1]))
    let name = arguments[2]
    let count = 200
    var start = Date()
    for n in 0..<count { try await library.setReadingPosition(ReadingPosition(article: n, page: 0), of: name) }
    let perUpdate = Date().timeIntervalSince(start) / Double(count) * 1000
    start = Date()
    _ = try await library.download(name)
    let download = seconds(since: start)
    try await library.remove(name)
    printJSON(["perUpdateMs": (perUpdate * 1000).rounded() / 1000, "download": download, "issues": await library.issues.count])
default:
    FileHandle.standardError.write(Data("usage: ReaderBench download|extract|refresh|list|updates …\n".utf8))
    exit(2)
}
