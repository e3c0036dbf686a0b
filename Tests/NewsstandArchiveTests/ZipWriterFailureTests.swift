import Foundation
import NewsstandArchive
import NewsstandTestSupport
import Testing

/// A writer that cannot start, fails half-way or is dropped unfinished reports why, refuses
/// to go on, and frees what it holds exactly once (a double free aborts the test process).
@Suite struct ZipWriterFailureTests {
    /// libarchive's open callback fails, so `archive_write_open2` does, after every resource
    /// of the writer exists: its deinit frees them (before the fix, init freed them too).
    @Test func unwritableDestinationFailsWithTheSystemsReason() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let destination = folder.appendingPathComponent("missing/bundle.zip")
        #expect(throws: ArchiveError(path: destination.path, reason: "No such file or directory")) {
            _ = try ZipWriter(url: destination)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullDiskFailsTheEntryAndEveryLaterCall() throws {
        let writer = try ZipWriter(url: URL(fileURLWithPath: "/dev/full"))
        let full = ArchiveError(path: "/dev/full", reason: "No space left on device")
        #expect(throws: full) {
            try writer.addData(Data(count: 1_000), as: "a.png", modified: Date(), compression: .store)
        }
        #expect(throws: full) { try writer.addData(Data(), as: "b.png", modified: Date(), compression: .store) }
        #expect(throws: full) { try writer.close() }
    }

    /// A source that shrinks while it is packed leaves its entry unfinished: later calls are
    /// refused with the reason.
    @Test func anEntryLeftUnfinishedStopsTheArchive() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let archive = folder.appendingPathComponent("out.zip")
        let writer = try ZipWriter(url: archive)
        try addShrinkingFile(to: writer, in: folder)
        let unfinished = ArchiveError(path: archive.path, reason: "the previous entry was left unfinished")
        #expect(throws: unfinished) {
            try writer.addData(Data("x".utf8), as: "next.txt", modified: Date(), compression: .deflate)
        }
        #expect(throws: unfinished) { try writer.close() }
    }

    /// Adds a small entry, then a file that is cut to nothing after its first chunk is read.
    func addShrinkingFile(to writer: ZipWriter, in folder: URL) throws {
        let source = folder.appendingPathComponent("shrinking.png")
        try Data(count: 1 << 20).write(to: source)
        try writer.addData(Data("<plist/>".utf8), as: "issue.plist", modified: Date(), compression: .deflate)
        #expect(throws: ArchiveError(path: source.path, reason: "the file shrank while it was being packed")) {
            try writer.addFile(at: source, as: "shrinking.png", modified: Date(), compression: .store) { _ in
                _ = truncate(source.path, 0)
            }
        }
    }
}
