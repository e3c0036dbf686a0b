import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The catalog's sizes and checksums are checked whole, whatever the lie: a checksum wrong only
/// in its last digit, a bundle shorter than stated, a cover whose bytes do not match. Each was a
/// rule no test aimed at (`make mutants`).
@Suite("Verification against the catalog", .timeLimit(.minutes(1)))
struct VerificationTests {
    /// The real SHA-256 with its last hex digit changed.
    private static func nearMiss(_ sha256: String) -> String {
        String(sha256.dropLast()) + (sha256.last == "0" ? "1" : "0")
    }

    @Test func aChecksumWrongInItsLastDigitIsRefused() async throws {
        try await ScriptedBed.with { bed in
            var entries = try bed.publish([.init("f-1", day: 1)])
            let real = try #require(entries[0].contentSHA256)
            entries[0].contentSHA256 = Self.nearMiss(real)
            try bed.writeCatalog(entries)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let error = await #expect(throws: LibraryError.self) { try await library.download("f-1") }
            guard case .verificationFailed(let name, _, let reason)? = error else {
                Issue.record("expected a verification failure, got \(String(describing: error))")
                return
            }
            #expect(name == "f-1")
            #expect(reason == "SHA-256 is \(real), the catalog says \(Self.nearMiss(real))")
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
        }
    }

    /// The server sends all it has and ends cleanly, 10 bytes short of what the catalog states;
    /// the checksum is the catalog's own (of the short file), so only the size can tell.
    @Test func aBundleShorterThanTheCatalogStatesIsRefused() async throws {
        try await ScriptedBed.with { bed in
            var entries = try bed.publish([.init("f-1", day: 1)])
            let size = try #require(entries[0].contentSize)
            entries[0].contentSize = size + 10
            try bed.writeCatalog(entries)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let error = await #expect(throws: LibraryError.self) { try await library.download("f-1") }
            guard case .verificationFailed(_, _, let reason)? = error else {
                Issue.record("expected a verification failure, got \(String(describing: error))")
                return
            }
            #expect(reason == "size is \(size) bytes, the catalog says \(size + 10)")
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
        }
    }

    @Test func aCoverWhoseBytesDoNotMatchItsChecksumIsNotKept() async throws {
        try await ScriptedBed.with { bed in
            var entries = try bed.publish([.init("f-1", day: 1), .init("f-2", day: 2)])
            entries[0].coverSHA256 = Self.nearMiss(SHA256.hex(of: try bed.served("f-1/cover.png")))
            entries[1].coverSHA256 = SHA256.hex(of: try bed.served("f-2/cover.png"))
            try bed.writeCatalog(entries)
            let library = try bed.library()
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.problems.count == 1, "\(result.problems)")
            #expect(result.problems.first.map { "\($0)" }?.contains("f-1") == true, "\(result.problems)")
            #expect(await library.issue(named: "f-1")?.coverFileURL == nil, "a cover that fails its checksum is not kept")
            #expect(await library.issue(named: "f-2")?.coverFileURL != nil, "a matching cover is kept")
        }
    }
}
