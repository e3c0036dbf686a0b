import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small file helpers that flush before a rename, so that a renamed file is never empty
/// after a power loss.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `data` to a new file at `url` and flushes it to disk.
    static func write(_ data: Data, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: data) else {
            throw Failure(description: "cannot create the file")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.synchronize()
    }

    /// Renames `source` to `destination`, replacing a file there.
    static func move(_ source: URL, to destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw Failure(description: String(cString: strerror(errno)))
        }
    }

    /// The size of a file, or nil when it does not exist.
    static func size(of url: URL) -> Int64? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}
