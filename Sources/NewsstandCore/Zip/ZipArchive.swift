import Foundation

/// An archive's central directory, read and checked: the end records, then every header, with
/// the count the end record claims bounded before anything is allocated for it.
struct ZipArchive {
    let source: ZipSource
    let end: ZipEndRecord
    /// The entries in the directory's order.
    let entries: [ZipCentralEntry]

    /// Opens `url` (a regular file) and reads its directory, refusing more than `maxEntries`.
    static func open(_ url: URL, maxEntries: Int) throws(ZipExtractionError) -> ZipArchive {
        let file: OpenFile
        do throws(FileSystemError) {
            file = try OpenFile.open(url)
        } catch {
            throw .cannotOpen(archive: url.path, reason: error.reason)
        }
        let source = ZipSource(file: file, name: url.path)
        let end = try ZipEndRecord.read(source)
        guard end.entryCount <= Int64(maxEntries) else { throw .tooManyEntries(archive: source.name, limit: maxEntries) }
        guard end.entryCount > 0 else { throw .corrupt(archive: source.name, reason: "the archive has no entries") }
        var reader = ZipDirectoryReader(source: source, record: end)
        var entries: [ZipCentralEntry] = []
        entries.reserveCapacity(Int(end.entryCount))
        for _ in 0..<end.entryCount {
            let entry = try ZipCentralEntry.read(&reader)
            // Records lie before the directory: this also keeps the offsets' sums from overflowing.
            guard entry.localHeaderOffset < end.directoryOffset, entry.compressedSize <= end.directoryOffset else {
                throw .corrupt(
                    archive: source.name,
                    reason: "the record of \(SafeRelativePath.quoted(entry.name)) lies outside the archive's entries")
            }
            entries.append(entry)
        }
        guard reader.offset == reader.end else {
            throw .corrupt(
                archive: source.name,
                reason: "the central directory holds \(reader.end - reader.offset) bytes more than its \(end.entryCount) entries")
        }
        return ZipArchive(source: source, end: end, entries: entries)
    }
}
