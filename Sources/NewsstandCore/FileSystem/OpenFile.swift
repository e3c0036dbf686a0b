import Foundation

/// A regular file, opened for reading: what was checked (a regular file, not a link) is what
/// is read, even if the name is swapped for something else afterwards.
public final class OpenFile: @unchecked Sendable {  // immutable: a descriptor and what fstat said
    /// The open descriptor; closed when this object goes away.
    public let descriptor: Int32
    /// The path, for messages.
    public let path: String
    /// Size in bytes when opened.
    public let size: Int64
    /// Modification time in seconds since 1970 (with fractions).
    public let modified: Double
    /// Status-change time (`ctime`) in seconds since 1970 when opened.
    public let changed: Double

    /// Takes ownership of `descriptor` if it is a regular file; closes it and throws otherwise.
    package init(descriptor: Int32, path: String) throws(FileSystemError) {
        let status: FileStatus
        do {
            status = try FileStatus.of(descriptor: descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        guard status.kind == .regularFile else {
            close(descriptor)
            throw .wrongKind(path: path, found: status.kind, expected: .regularFile)
        }
        // Opened non-blocking so that a FIFO cannot hang the open; a regular file reads the
        // same either way, but clear it for clarity.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        self.descriptor = descriptor
        self.path = path
        size = status.size
        modified = status.modified
        changed = status.changed
    }

    deinit { close(descriptor) }

    /// Opens the regular file at `url`. Links on the way are followed (this is for paths the
    /// user gives and files of our own); use `OpenFolder.file(_:)` for files inside inputs.
    public static func open(_ url: URL) throws(FileSystemError) -> OpenFile {
        let fd = Foundation.open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .fromErrno(url.path) }
        return try OpenFile(descriptor: fd, path: url.path)
    }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(FileSystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw .fromErrno(path) }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads the next chunk from the current position into `buffer`; 0 at the end.
    public func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws(FileSystemError) -> Int {
        while true {
            let n = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw .fromErrno(path) }
            return n
        }
    }

    /// The whole file, or nil when it holds more than `limit` bytes (it may have grown since
    /// it was opened, so the limit is kept while reading too).
    public func readAll(limit: Int) throws(FileSystemError) -> Data? {
        guard size <= Int64(limit) else { return nil }
        var data = Data()
        var capacity = Int(size) + 1  // one byte more than expected tells whether it grew
        while true {
            var chunk = Data(count: capacity)
            let offset = Int64(data.count)
            var failure: FileSystemError?
            let count = chunk.withUnsafeMutableBytes { bytes -> Int in
                do throws(FileSystemError) { return try read(into: bytes, at: offset) } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            data.append(chunk.prefix(count))
            if data.count > limit { return nil }
            if count < capacity { return data }
            capacity = min(1 << 20, limit + 1 - data.count)
        }
    }

    /// The SHA-256 of the file from the current position to its end, read in chunks.
    public func sha256() throws(FileSystemError) -> String {
        let hasher = SHA256()
        try FileCopy.copy(self, to: nil) { hasher.update($0) }
        return hasher.finalizeHex()
    }

    /// Flushes the file's data to the disk (a file moved into place that must survive a power cut).
    public func synchronize() throws(FileSystemError) {
        guard fsync(descriptor) == 0 else { throw .fromErrno(path) }
    }
}
