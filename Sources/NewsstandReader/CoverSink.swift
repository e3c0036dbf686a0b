import Foundation
import NewsstandCore

/// Streams a cover into a temporary file, hashing it on the way, and cuts it once more than
/// `limit` decoded bytes came: a cover never sits whole in memory, and an endless one never
/// fills the disk. The caller renames the file into place or removes it.
final class CoverSink: ResponseSink, @unchecked Sendable {
    private let file: URL
    private let limit: Int64
    private let hasher = SHA256()
    private var descriptor: Int32 = -1
    private var received: Int64 = 0
    /// The SHA-256 of the body, once it ended well.
    private(set) var sha256: String?

    init(file: URL, limit: Int64) {
        self.file = file
        self.limit = limit
    }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        guard (200..<300).contains(head.status) else { throw .httpStatus(head.status) }
        do {
            descriptor = try AtomicFile.createExclusive(file)
        } catch {
            throw failure(error)
        }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        received += Int64(chunk.count)
        if received > limit { throw .tooLarge(limit: limit) }
        do {
            try AtomicFile.writeAll(descriptor, chunk)
        } catch {
            throw failure(error)
        }
        hasher.update(chunk)
    }

    func finish() throws(TransferFailure) {
        do {
            try AtomicFile.synchronize(descriptor)
        } catch {
            throw failure(error)
        }
        sha256 = hasher.finalizeHex()
    }

    func close() {
        if descriptor >= 0 { AtomicFile.closeFile(descriptor) }
        descriptor = -1
    }

    private func failure(_ error: AtomicFile.Failure) -> TransferFailure {
        error.isNoSpace ? .noSpace(path: file.path, reason: error.description) : .file(path: file.path, reason: error.description)
    }
}
