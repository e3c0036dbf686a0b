// The reader library's side of bench/reader: times one operation and prints seconds as JSON.
//   ReaderBench download <library-folder> <catalog-url> <issue>
//   ReaderBench extract <zip> <destination>
//   ReaderBench refresh <library-folder> <catalog-url>
import Foundation
import NewsstandArchive
import NewsstandReader

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

func printJSON(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "download" where arguments.count == 4:
    let clock = TransferClock()
    var configuration = LibraryConfiguration()
    configuration.log = { clock.log($0) }
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
    let fresh = try await library.refresh(from: URL(string: arguments[2])!)
    let freshSeconds = seconds(since: start)
    start = Date()
    let again = try await library.refresh(from: URL(string: arguments[2])!)
    printJSON(["fresh": freshSeconds, "issues": fresh.added.count, "unchanged": seconds(since: start), "notModified": again.notModified])
default:
    FileHandle.standardError.write(Data("usage: ReaderBench download|extract|refresh …\n".utf8))
    exit(2)
}
