import Foundation
import NewsstandCore
import NewsstandPublish
import NewsstandReader
import Testing

@testable import NewsstandCLI

/// Text that comes from outside into a command's messages (issue 35, item 4): a catalog's issue
/// names and URLs in `library refresh`'s problems, the reason of a background download that
/// failed, what rclone printed. Each goes through one quoting function (`PrintableText`), so
/// escape sequences, bells, carriage returns and bidirectional overrides never reach the
/// terminal raw.
@Suite("Text from outside in messages")
struct HostileTextTests {
    static let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}x\rFAKE LINE\u{202E}gnp.exe\u{9B}31m"

    /// Whether `text` holds a scalar that could rewrite or hide in the line that shows it.
    static func isRaw(_ text: String) -> Bool { text.unicodeScalars.contains(where: SafeRelativePath.isUnprintable) }

    @Test func refreshProblemsQuoteTheCatalogsText() {
        let problems: [RefreshProblem] = [
            .unsafeName(Self.hostile), .badEntry(name: Self.hostile, reason: "Title " + Self.hostile),
            .badURL(name: Self.hostile, url: "http://x/" + Self.hostile),
            .coverUnavailable(name: "a-1", url: "http://x/c.png", reason: Self.hostile),
            .coverTooLarge(name: Self.hostile, url: "http://x/" + Self.hostile, limit: 10),
        ]
        for problem in problems {
            let line = LibraryFormatting.describe(problem)
            #expect(!Self.isRaw(line), "\(line.debugDescription)")
            #expect(line.contains("\\u{1b}[2J"), "\(line.debugDescription)")
        }
    }

    @Test func rclonesWordsAreEscaped() {
        let reason = PublishError.Reason.rclone(status: 1, message: "Failed to copy: " + Self.hostile)
        #expect(!Self.isRaw(reason.description), "\(reason.description.debugDescription)")
        #expect(reason.description.hasPrefix("Failed to copy: \\u{1b}[2J"))
        let network = PublishError.Reason.network(Self.hostile)
        #expect(!Self.isRaw(network.description), "\(network.description.debugDescription)")
    }
}
