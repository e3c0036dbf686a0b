import Foundation
import NewsstandArchive
import NewsstandCore

/// Makes a bundle's `BundleIndex` from what the zip writer says it wrote (each entry's local
/// header and data offsets, stored length, method and CRC-32, taken from the headers as they
/// went to the file) and each entry's SHA-256, hashed as it was packed.
enum BundleIndexMaker {
    /// The index of `bundle`; `sha256` holds one digest per entry, in the entries' order.
    static func index(of bundle: OutputRecord, entries: [ZipWrittenEntry], sha256: [String]) throws(ArchiveError) -> BundleIndex {
        guard sha256.count == entries.count else {
            throw ArchiveError(path: bundle.file, reason: "\(entries.count) entries were written, \(sha256.count) were hashed")
        }
        var items: [BundleIndex.Entry] = []
        items.reserveCapacity(entries.count)
        for (entry, digest) in zip(entries, sha256) {
            let layout = entry.layout
            let method: BundleIndex.Method
            switch layout.method {
            case 0: method = .stored
            case 8: method = .deflated
            default:
                throw ArchiveError(path: bundle.file, reason: "entry '\(entry.name)' has compression method \(layout.method)")
            }
            items.append(
                BundleIndex.Entry(
                    name: entry.name, size: layout.uncompressedSize, sha256: digest, crc32: layout.crc32, method: method,
                    headerOffset: layout.headerOffset, dataOffset: layout.dataOffset, dataLength: layout.compressedSize))
        }
        return BundleIndex(bundleSize: bundle.size, bundleSHA256: bundle.sha256, entries: items)
    }
}
