import Foundation
import NewsstandArchive
import NewsstandCore

/// The SHA-256 of a bundle and of each of its stored entries, from the archive's bytes as the
/// zip writer's feed reads them back (`ZipOutputBlock`): a stored entry's data is its content,
/// so its hash costs no copy (deflated entries are hashed from their content by
/// `EntryHasher`). The two are independent streams over the same blocks, so they are two
/// observers, each on a thread of the feed's (`ZipWriter.init(descriptor:path:onBlocks:)`):
/// on a large entry they take a core each instead of one thread hashing every byte twice.
/// Read after the writer's `close()`, which returns after the feed's last block.
///
/// Sendable by hand: each hash is updated on its observer's serial queue only, and read after
/// the feed finished.
final class ArchiveHashes: @unchecked Sendable {
    private let archive = SHA256()
    private var entry = SHA256()
    /// The digest of each stored entry, by its place in the archive.
    private(set) var storedEntries: [Int: String] = [:]

    /// The feed's observers: the archive's hash, and its stored entries'.
    var observers: [(ZipOutputBlock) -> Void] {
        [{ self.archive.update($0.bytes) }, { self.takeEntryData($0) }]
    }

    /// One block of the archive, for the stored entry it belongs to.
    private func takeEntryData(_ block: ZipOutputBlock) {
        guard let (index, layout) = block.entry, layout.method == 0 else { return }
        entry.update(block.entryData)
        if block.endsEntry {
            storedEntries[index] = entry.finalizeHex()
            entry = SHA256()
        }
    }

    /// The archive's digest.
    func archiveDigest() -> String { archive.finalizeHex() }
}
