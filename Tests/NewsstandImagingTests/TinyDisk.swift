import Foundation
import NewsstandTestSupport

/// A small tmpfs, so that a test can fill a real disk. Needs root.
enum TinyDisk {
    static func with(bytes: Int, _ body: (URL) throws -> Void) throws {
        let mountPoint = try Shell.temporaryFolder("tinydisk")
        try Fixtures.run("mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", mountPoint.path])
        defer { _ = try? Shell.run("umount", [mountPoint.path]) }
        try body(mountPoint)
    }
}
