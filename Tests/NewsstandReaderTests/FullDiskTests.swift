import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// A library on a file system that is full (issue 35, item 1: a background download once filled
/// the disk, and then no command could open the library to stop it). On a tmpfs of its own, so
/// it needs root to mount one; elsewhere the test says so rather than passing.
@Suite("A full disk", .timeLimit(.minutes(1)), .tags(.needsTools))
struct FullDiskTests {
    /// Fills the file system holding `folder` to the last byte.
    static func fill(_ folder: URL) throws {
        let filler = folder.appendingPathComponent("filler")
        FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        var last = Data(count: 1)
        while (try? handle.write(contentsOf: last)) != nil { last = Data(count: 1) }
    }

    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root, which CI has"))
    func aFullDiskNeverKeepsTheLibraryFromOpening() async throws {
        let mountPoint = try Shell.temporaryFolder("full-disk")
        let mounted = try Shell.run("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint.path])
        try #require(mounted.status == 0, "mount -t tmpfs as root: \(mounted.stderr)")
        defer { _ = try? Shell.run("umount", [mountPoint.path]) }
        let folder = mountPoint.appendingPathComponent("library")
        let first = try IssueLibrary(folder: folder, scale: .normal, configuration: LibraryConfiguration())
        #expect(await first.issues.isEmpty)
        await first.close()
        try Self.fill(mountPoint)
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == 0, "the disk is full")
        // SQLite once failed here with "disk I/O error" sizing a new -shm file.
        let again = try IssueLibrary(folder: folder, scale: .normal, configuration: LibraryConfiguration())
        #expect(await again.issues.isEmpty)
        await again.close()
        #expect(try await LibraryReader(folder: folder).issues().isEmpty, "an app extension reads it too")
    }

    /// The disk filled while an issue downloaded: removing it deletes what it downloaded and is
    /// saved, the room its partial download took being what the commit needs.
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root, which CI has"))
    func aFullDiskNeverKeepsTheUserFromRemovingWhatFilledIt() async throws {
        let mountPoint = try Shell.temporaryFolder("full-disk")
        let mounted = try Shell.run("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint.path])
        try #require(mounted.status == 0, "mount -t tmpfs as root: \(mounted.stderr)")
        defer { _ = try? Shell.run("umount", [mountPoint.path]) }
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1, normal: ScriptedBed.bigBundle, location: "slow/")])
            let folder = mountPoint.appendingPathComponent("library")
            let library = try IssueLibrary(
                folder: folder, configuration: LibraryFolderCheck.configuration(transport: bed.transport))
            try await library.refresh(from: bed.catalogURL)
            let reached = AsyncStream<Void>.makeStream()
            let download = Task {
                try await library.download("a") { if $0.bytesReceived >= 200_000 { reached.continuation.yield() } }
            }
            for await _ in reached.stream { break }
            await library.suspendDownloads()
            _ = await download.result
            let part = folder.appendingPathComponent("Downloads/a.zip.part")
            #expect((FileStatus.size(of: part) ?? 0) >= 200_000, "the partial download is kept")
            try Self.fill(mountPoint)
            #expect(LibraryConfiguration.freeBytes(at: mountPoint) == 0, "the disk is full")

            try await library.remove("a")
            #expect(await library.issue(named: "a")?.status == IssueStatus.none)
            #expect(FileStatus.size(of: part) == nil, "what it downloaded is gone")
            await library.close()
            let again = try IssueLibrary(
                folder: folder, configuration: LibraryFolderCheck.configuration(transport: bed.transport))
            #expect(await again.issue(named: "a")?.status == IssueStatus.none, "the removal was saved")
            #expect(await again.pendingDownloads.isEmpty)
            await again.close()
        }
    }
}
