import Foundation

/// Writes a file under a temporary hidden name in its destination folder and renames it into
/// place only when complete, so an interrupted build never leaves a truncated file under its
/// real name.
enum AtomicFile {
    /// The temporary name used while `destination` is being written.
    static func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    }

    /// Runs `write` on a temporary file, then renames it to `destination`; on failure the
    /// temporary file is removed and `destination` is left as it was.
    static func write<T>(to destination: URL, _ write: (URL) throws -> T) throws -> T {
        let temporary = temporaryURL(for: destination)
        do {
            let result = try write(temporary)
            guard rename(temporary.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
            return result
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
