import Foundation
import NewsstandArchive
import NewsstandCore

/// The SHA-256 of a bundle and of each of its stored entries, from the archive's bytes as the
/// zip writer's feed reads them back (`ZipOutputBlock`), on the feed's thread: a stored entry's
/// data is its content, so its hash costs no copy and no thread of its own (deflated entries
/// are hashed from their content by `EntryHasher`). Read after the writer's `close()`, which
/// returns after the feed's last block.
final class ArchiveHashes: @unchecked Sendable {  // safe: updated on the feed's serial queue only, read after it finished
    private let archive = SHA256()
    private var entry = SHA256()
    /// The digest of each stored entry, by its place in the archive.
    private(set) var storedEntries: [Int: String] = [:]

    /// One block of the archive.
    func take(_ block: ZipOutputBlock) {
        archive.update(block.bytes)
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
