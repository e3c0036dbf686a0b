import Foundation

/// A file open for writing, owned here: every write goes through to the end (short writes and
/// EINTR retried), and a failure keeps its `errno`, so a full disk is told apart from the rest.
public final class WritableFile: @unchecked Sendable {  // used by one owner at a time
    /// The open descriptor, -1 once closed.
    public private(set) var descriptor: Int32
    /// The path, for messages.
    public let path: String

    /// Takes ownership of `descriptor`.
    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }

    /// Writes every byte of `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileSystemError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let n = Foundation.write(descriptor, base + written, bytes.count - written)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .fromErrno(path) }
            written += n
        }
    }

    /// Writes every byte of `bytes`.
    public func write(_ bytes: [UInt8]) throws(FileSystemError) { try write(contiguous: bytes) }

    /// Writes every byte of `data`.
    public func write(_ data: Data) throws(FileSystemError) { try write(contiguous: data) }

    /// `withUnsafeBytes` rethrows untyped errors: the error is carried out as a value.
    private func write(contiguous bytes: some ContiguousBytes) throws(FileSystemError) {
        let failure: FileSystemError? = bytes.withUnsafeBytes { bytes in
            do throws(FileSystemError) {
                try write(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Flushes the file's bytes to the disk (`fsync`; `F_FULLFSYNC` on Apple platforms).
    public func synchronize() throws(FileSystemError) {
        guard DurableSync.flush(descriptor) == 0 else { throw .fromErrno(path) }
    }

    /// Closes the file; later calls do nothing. A failed close is reported (NFS and some
    /// quotas report a failed write only there).
    public func close() throws(FileSystemError) {
        guard descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        guard Foundation.close(fd) == 0 else { throw .fromErrno(path) }
    }
}
