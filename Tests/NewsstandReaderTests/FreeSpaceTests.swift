import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// Free space on a tmpfs of its own, compared with `df`'s.
@Suite("Device storage: free space", .timeLimit(.minutes(1)), .tags(.needsTools))
struct FreeSpaceTests {
    /// Free space is what a process may still write (`statvfs`'s available blocks, as `df` says),
    /// on a small file system of its own where nobody else writes (as root, as on CI).
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root, which CI has"))
    func freeSpaceIsWhatDfCallsAvailable() throws {
        let mountPoint = try Shell.temporaryFolder("free-space")
        let mounted = try Shell.run("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint.path])
        try #require(mounted.status == 0, "mount -t tmpfs as root: \(mounted.stderr)")
        defer { _ = try? Shell.run("umount", [mountPoint.path]) }
        func df() throws -> Int64? {
            Int64(try Shell.run("df", ["-B1", "--output=avail", mountPoint.path]).stdout.split(separator: "\n").last ?? "")
        }
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == 4 << 20)
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == (try df()))
        try Data(count: 1 << 20).write(to: mountPoint.appendingPathComponent("used"))
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == 3 << 20)
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == (try df()))
        #expect(LibraryConfiguration.freeBytes(at: mountPoint.appendingPathComponent("missing")) == nil)
    }
}
