import Foundation
import NewsstandCore
import NewsstandFormat

/// Writes a file under a temporary hidden name in its destination folder and renames it into
/// place only when complete, so an interrupted build never leaves a truncated file under its
/// real name. Everything happens relative to the open folder: the temporary file is created
/// new (`O_EXCL | O_NOFOLLOW`, so no link there is written through) and renamed within it.
enum AtomicFile {
    /// The temporary name used while `name` is being written (hidden; unique to this process).
    static func temporaryName(for name: String) -> String {
        ".\(name).\(ProcessInfo.processInfo.processIdentifier).tmp"
    }

    /// Runs `write` on a new temporary file in `folder` (its descriptor and path), then renames
    /// it to `name`; on failure the temporary file is removed and `name` is left as it was.
    /// The descriptor is closed here: a writer that wants to own one should `dup` it.
    static func write<T>(named name: String, in folder: OpenFolder, _ write: (Int32, String) throws -> T) throws -> T {
        let temporary = temporaryName(for: name)
        // Only a file this process's temporary name can be here: one left by an earlier
        // process that had the same id and was killed mid-write.
        try? folder.removeFile(temporary)
        let fd = try folder.createFile(temporary)
        do {
            let result = try write(fd, folder.path(of: temporary))
            let closed = close(fd)
            guard closed == 0 else { throw FileOpenFailure.fromErrno() }
            try folder.rename(temporary, to: name)
            return result
        } catch {
            close(fd)
            try? folder.removeFile(temporary)
            throw error
        }
    }

    /// Writes `data` as `name` in `folder`.
    static func write(_ data: Data, named name: String, in folder: OpenFolder) throws {
        try write(named: name, in: folder) { fd, path in
            try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
                var offset = 0
                while offset < bytes.count {
                    let count = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { throw FileOpenFailure.fromErrno() }
                    offset += count
                }
            }
        }
    }
}
