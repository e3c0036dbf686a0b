import Foundation
import NewsstandCore

/// Streams a cover into a new file under a temporary name in the covers folder (`AtomicFile`),
/// hashing it on the way, and cuts it once more than `limit` decoded bytes came: a cover never
/// sits whole in memory, and an endless one never fills the disk. The caller gives the file its
/// name once the SHA-256 is checked, or drops it (an uncommitted file is removed).
final class CoverSink: ResponseSink, @unchecked Sendable {
    private let folder: OpenFolder
    private let name: String
    private let limit: Int64
    private let digest: any ContentDigest
    private var received: Int64 = 0
    /// The file being written, once the response was accepted.
    private(set) var file: AtomicFile?
    /// The SHA-256 of the body, once it ended well.
    private(set) var sha256: String?

    init(folder: OpenFolder, name: String, limit: Int64, hasher: any ContentHasher) {
        digest = hasher.start()
        self.folder = folder
        self.name = name
        self.limit = limit
    }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        guard (200..<300).contains(head.status) else { throw .httpStatus(head.status) }
        do {
            file = try AtomicFile.create(named: name, in: folder)
        } catch {
            throw .file(error)
        }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        received += Int64(chunk.count)
        if received > limit { throw .tooLarge(limit: limit) }
        do {
            try file?.file.write(chunk)
        } catch {
            throw .file(error)
        }
        digest.update(chunk)
    }

    func finish() throws(TransferFailure) {
        guard file != nil else { throw .badResponse("no cover in the answer") }
        sha256 = digest.finalizeHex()
    }

    func close() {}

    /// Removes the temporary file now. A transport may keep the sink alive after a failed
    /// transfer (URLSession's delegate does, for a while), so waiting for `deinit` left a
    /// `.tmp` file in `Covers/` after `refresh` had returned.
    func discard() {
        file?.discard()
        file = nil
    }
}
