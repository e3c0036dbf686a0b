import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The library's log as an app ships it: levels, and never a URL's query, fragment or user
/// information (signed CDN URLs carry their secret in the query). On a scripted transport (the
/// fast tier): what is logged is the library's doing, whatever transport carries the requests.
@Suite("Logging", .timeLimit(.minutes(1)))
struct LoggingTests {
    final class Lines: @unchecked Sendable {  // `lines` is Locked
        let lines = Locked<[(level: LibraryLog.Level, text: String)]>([])
    }

    @Test func aSignedURLsSecretNeverReachesALogLineOrAnError() async throws {
        try await ScriptedBed.with { bed in
            let secret = "Signature=c2VjcmV0LXNpZ25hdHVyZQ"
            var entries = try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let base = bed.baseURL.absoluteString
            entries[0].content += "?Expires=1900000000&\(secret)"
            entries[0].cover = base.replacingOccurrences(of: "https://", with: "https://reader:\(secret)@") + "a/cover.png"
            entries[1].content = base + "missing/b.zip?\(secret)#part"
            entries[1].contentSize = nil
            entries[1].contentSHA256 = nil
            try bed.writeCatalog(entries)
            let lines = Lines()
            let library = try bed.library {
                $0.log = LibraryLog(minimumLevel: .debug) { level, text in lines.lines.withLock { $0.append((level, text)) } }
            }
            try await library.refresh(from: URL(string: bed.catalogURL.absoluteString + "?token=\(secret)")!)
            try await library.download("a")
            let failure = await #expect(throws: LibraryError.self) { try await library.download("b") }
            let all = lines.lines.current
            #expect(!all.isEmpty)
            #expect(all.allSatisfy { !$0.text.contains(secret) }, "\(all.map(\.text).filter { $0.contains(secret) })")
            #expect(!(failure?.description.contains(secret) ?? true), "\(String(describing: failure))")
            // What is left says where, not how to get in.
            #expect(
                all.contains { $0.level == .debug && $0.text.contains("GET \(base)a/a.zip?… attempt 1") }, "\(all.map(\.text))")
            #expect(all.contains { $0.level == .error && $0.text.contains("download of b ended") })
            #expect(failure?.description.contains("\(base)missing/b.zip?…") == true, "\(String(describing: failure))")
        }
    }

    @Test func linesBelowTheMinimumLevelAreNotMade() {
        let lines = Lines()
        let made = Locked(0)
        let log = LibraryLog(minimumLevel: .notice) { level, text in lines.lines.withLock { $0.append((level, text)) } }
        func message(_ text: String) -> String {
            made.withLock { $0 += 1 }
            return text
        }
        log(.debug, message("a request"))
        log(.info, message("available"))
        log(.notice, message("retrying https://cdn.example.com/a.zip?sig=1"))
        log(.error, message("failed"))
        #expect(made.current == 2, "a message below the level is never even formatted")
        #expect(lines.lines.current.map(\.text) == ["retrying https://cdn.example.com/a.zip?…", "failed"])
        let printed = Locked<[String]>([])
        LibraryLog.lines { line in printed.withLock { $0.append(line) } }(.info, "x https://u:p@h/p?q#f y")
        #expect(printed.current == ["newsstand-reader: x https://***@h/p?… y"])
    }
}
