import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// The engine-to-library hand-off: what a finished transfer's file becomes.
@Suite("Transfer hand-off")
struct TransferHandOffTests {
    static let id = TransferID(name: "f-1", generation: 3)

    @Test func aWholeBodyIsMovedUnderItsKey() throws {
        let downloads = try Shell.temporaryFolder("handoff")
        let engineFolder = try Shell.temporaryFolder("engine")
        let body = engineFolder.appendingPathComponent("CFNetworkDownload_1.tmp")
        try Data("bundle".utf8).write(to: body)
        let taken = TransferHandOff(downloads: downloads).take(body, of: Self.id, status: 200)
        #expect(taken == .success("f-1#3.received"))
        #expect(try Data(contentsOf: downloads.appendingPathComponent("f-1#3.received")) == Data("bundle".utf8))
        #expect(!FileManager.default.fileExists(atPath: body.path))
        #expect(TransferHandOff.transfer(ofReceived: "f-1#3.received") == Self.id)
    }

    @Test func anErrorPageIsNotABundle() throws {
        let downloads = try Shell.temporaryFolder("handoff")
        let body = downloads.appendingPathComponent("page.tmp")
        try Data("<h1>Not Found</h1>".utf8).write(to: body)
        #expect(TransferHandOff(downloads: downloads).take(body, of: Self.id, status: 404) == .failure(.status(404)))
        #expect(!FileManager.default.fileExists(atPath: downloads.appendingPathComponent("f-1#3.received").path))
    }

    @Test func aFileOnAnotherFileSystemIsCopied() throws {
        // /dev/shm is a tmpfs: a rename from it into the test folder fails with EXDEV.
        try #require(FileManager.default.isWritableFile(atPath: "/dev/shm"), "/dev/shm, a tmpfs on Linux, is not writable")
        let downloads = try Shell.temporaryFolder("handoff")
        let body = URL(fileURLWithPath: "/dev/shm/newsstand-handoff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: body) }
        try Data(repeating: 7, count: 300_000).write(to: body)
        #expect(TransferHandOff(downloads: downloads).take(body, of: Self.id, status: nil) == .success("f-1#3.received"))
        #expect(try Data(contentsOf: downloads.appendingPathComponent("f-1#3.received")) == Data(repeating: 7, count: 300_000))
    }

    @Test(arguments: ["f-1#3", "f-1.received", "../x#1.received", "f-1#0.received", "f-1#x.received", ".f#1.received"])
    func namesThatAreNotKeysAreRefused(name: String) {
        #expect(TransferHandOff.transfer(ofReceived: name) == nil)
    }
}
