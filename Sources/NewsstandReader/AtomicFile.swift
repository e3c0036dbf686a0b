import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small file helpers that flush before a rename, so that a renamed file is never empty
/// after a power loss. Plain POSIX calls, so that a failure keeps its `errno`: a full disk
/// must be told apart from other failures.
enum AtomicFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The `errno` behind the failure, 0 when there is none.
        var code: Int32 = 0

        init(description: String, code: Int32 = 0) {
            self.description = description
            self.code = code
        }

        /// A failure from the current `errno`.
        static func posix() -> Failure {
            let code = errno
            return Failure(description: String(cString: strerror(code)), code: code)
        }

        /// Whether the file system is out of space for us: full (ENOSPC), over a quota (EDQUOT),
        /// or over the process's file-size limit (EFBIG, `ulimit -f`).
        var isNoSpace: Bool { Self.isNoSpace(code) }

        static func isNoSpace(_ code: Int32) -> Bool { code == ENOSPC || code == EFBIG || code == EDQUOT }
    }

    /// Writes `data` to a new file at `url` (replacing one there) and flushes it to disk; on
    /// failure nothing is left at `url`.
    static func write(_ data: Data, to url: URL) throws(Failure) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .posix() }
        do throws(Failure) {
            // `withUnsafeBytes` rethrows untyped errors: carry the typed one out by hand.
            let failure: Failure? = data.withUnsafeBytes { bytes in
                do throws(Failure) {
                    try writeAll(fd, bytes)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            guard fsync(fd) == 0 else { throw Failure.posix() }
        } catch {
            close(fd)
            unlink(url.path)
            throw error
        }
        close(fd)
    }

    /// Creates a new file for writing, never over an existing one nor through a symbolic link;
    /// returns its descriptor (close it with `closeFile`).
    static func createExclusive(_ url: URL) throws(Failure) -> Int32 {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .posix() }
        return fd
    }

    /// Flushes a file to disk.
    static func synchronize(_ fd: Int32) throws(Failure) {
        guard fsync(fd) == 0 else { throw .posix() }
    }

    static func closeFile(_ fd: Int32) { close(fd) }

    /// Writes every byte of `bytes` to `fd`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let n = posixWrite(fd, base + written, bytes.count - written)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .posix() }
            written += n
        }
    }

    /// Renames `source` to `destination`, replacing a file there.
    static func move(_ source: URL, to destination: URL) throws(Failure) {
        guard rename(source.path, destination.path) == 0 else { throw .posix() }
    }

    /// The size of a file, or nil when it does not exist.
    static func size(of url: URL) -> Int64? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}

/// `write(2)`, out of reach of the `write` methods of the types that call it.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
