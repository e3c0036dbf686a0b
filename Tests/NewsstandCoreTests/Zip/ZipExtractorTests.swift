import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@Suite("Safe unpacking", .timeLimit(.minutes(1)), .tags(.needsTools))
struct ZipExtractorTests {
    /// Runs `body` with a temporary folder that is removed afterwards.
    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = try Shell.temporaryFolder("zip")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func unpacksFilesAndFolders() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("good.zip")
            try ZipFixture.make(
                at: archive,
                entries: [
                    .text("issue.plist", "<plist/>"), .folder("assets"), .random("assets/1-0.png", count: 70_000, seed: 7),
                    .text("html/deep/page.html", "<p>hi</p>"),
                ])
            let destination = folder.appendingPathComponent("out")
            let summary = try ZipExtractor.extract(from: archive, into: destination)
            #expect(summary.fileCount == 3)
            #expect(summary.totalSize == 70_000 + 8 + 9)
            #expect(try String(contentsOf: destination.appendingPathComponent("issue.plist"), encoding: .utf8) == "<plist/>")
            #expect(
                try Data(contentsOf: destination.appendingPathComponent("assets/1-0.png"))
                    == ZipFixture.randomBytes(count: 70_000, seed: 7))
            #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("html/deep/page.html").path))
        }
    }

    enum Hostile: String, CaseIterable {
        case zipSlip, absolutePath, symlink, zipBomb, truncated, notAZip, backslashSlip, driveLetter
    }

    @Test(arguments: Hostile.allCases)
    func refusesHostileArchive(_ kind: Hostile) throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("issue/bundle.zip")
            let outside = folder.appendingPathComponent("x")
            switch kind {
            case .zipSlip: try ZipFixture.make(at: archive, entries: [.text("ok.txt", "ok"), .text("../../x", "escaped")])
            case .backslashSlip: try ZipFixture.make(at: archive, entries: [.text("..\\..\\x", "escaped")])
            case .absolutePath: try ZipFixture.make(at: archive, entries: [.text(outside.path, "escaped")])
            // Harmless as a folder named `C:` here, absolute for a reader on Windows.
            case .driveLetter: try ZipFixture.make(at: archive, entries: [.text("ok.txt", "ok"), .text("C:/x", "escaped")])
            case .symlink: try ZipFixture.make(at: archive, entries: [.symlink("link", target: folder.path), .text("a", "a")])
            case .zipBomb: try ZipFixture.make(at: archive, entries: [.zeros("bomb.bin", count: 50_000_000)])
            case .truncated:
                try ZipFixture.make(
                    at: archive, entries: [.random("a.png", count: 300_000, seed: 1), .random("b.png", count: 300_000, seed: 2)])
                try ZipFixture.truncate(archive, to: 0.6)
            case .notAZip:
                try FileManager.default.createDirectory(
                    at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("<html>404</html>".utf8).write(to: archive)
            }
            let destination = folder.appendingPathComponent("issue/content")
            let error = #expect(throws: ZipExtractionError.self) {
                try ZipExtractor.extract(from: archive, into: destination)
            }
            switch (kind, error) {
            case (.zipSlip, .unsafePath(_, let entry)?): #expect(entry == "../../x")
            case (.backslashSlip, .unsafePath?): break
            case (.absolutePath, .unsafePath(_, let entry)?): #expect(entry == outside.path)
            case (.driveLetter, .unsafePath(_, let entry)?): #expect(entry == "C:/x")
            case (.symlink, .link(_, let entry)?): #expect(entry == "link")
            case (.zipBomb, .suspiciousCompressionRatio?): break
            case (.truncated, .corrupt?), (.notAZip, .cannotOpen?), (.notAZip, .corrupt?): break
            default: Issue.record("\(kind): unexpected error \(String(describing: error))")
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path), "nothing is left behind")
            #expect(!FileManager.default.fileExists(atPath: outside.path), "nothing is written outside")
        }
    }

    @Test func enforcesEntryAndSizeLimits() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("many.zip")
            try ZipFixture.make(at: archive, entries: (0..<6).map { .random("f\($0)", count: 1000, seed: $0) })
            #expect(throws: ZipExtractionError.tooManyEntries(archive: archive.path, limit: 5)) {
                try ZipExtractor.extract(from: archive, into: folder.appendingPathComponent("a"), limits: .init(maxEntries: 5))
            }
            #expect(throws: ZipExtractionError.tooLarge(archive: archive.path, limit: 5000)) {
                try ZipExtractor.extract(
                    from: archive, into: folder.appendingPathComponent("b"), limits: .init(maxTotalSize: 5000))
            }
            let summary = try ZipExtractor.extract(
                from: archive, into: folder.appendingPathComponent("c"), limits: .init(maxEntries: 6, maxTotalSize: 6000))
            #expect(summary.fileCount == 6)
        }
    }

    @Test func refusesExistingDestinationAndDuplicateEntries() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("dup.zip")
            try ZipFixture.make(at: archive, entries: [.text("a", "1"), .text("./a", "2")])
            #expect(throws: ZipExtractionError.duplicateEntry(archive: archive.path, entry: "./a")) {
                try ZipExtractor.extract(from: archive, into: folder.appendingPathComponent("out"))
            }
            #expect(throws: ZipExtractionError.destinationExists(path: folder.path)) {
                try ZipExtractor.extract(from: archive, into: folder)
            }
        }
    }

    @Test func compressibleTextBelowTheGraceSizeIsAccepted() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("text.zip")
            try ZipFixture.make(at: archive, entries: [.zeros("pages.plist", count: 500_000)])
            let summary = try ZipExtractor.extract(from: archive, into: folder.appendingPathComponent("out"))
            #expect(summary.totalSize == 500_000)
        }
    }
}
