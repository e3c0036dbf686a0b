import Foundation
import NewsstandCore

/// The partial state of a streamed download, beside its `.part` file's name in `Downloads/`:
/// `<name>.zip.part.stream/` holds `stream.json` (the catalog's bundle URL, the SHA-256 of the
/// index the bytes are checked against, the server's validator for `If-Range`), `content/` (the
/// entries checked so far, at their paths) and `entry` (the entry being written, renamed into
/// `content/` once it checked). Nothing in it looks like installed content: it is not in
/// `Issues/`, and open's recovery keeps it only while the issue is in the state
/// (`IssueLibrary.recover`, as it keeps the `.part` file).
///
/// A later run trusts none of it blindly (`prepare`): the record must name the same URL and the
/// same index (a new index means new content: everything goes), and the checked entries are
/// counted again from the files themselves, in the index's order, each a regular file with the
/// index's size and SHA-256 (read again: a power cut may have lost what the state said was
/// written); the first that is not ends the count and every later file is removed.
///
/// Used by one transfer at a time (the issue's claim), from the transport's thread.
final class StreamStaging: ZipRecordStreamOutput, @unchecked Sendable {  // safe: one transfer, one thread at a time
    /// What `stream.json` records.
    struct Record: Codable, Equatable {
        /// The catalog's bundle URL (never a signed link).
        var url: URL
        /// The SHA-256 of the index the entries were checked against.
        var indexSHA256: String
        /// The strong `ETag` (or `Last-Modified`) of the first response, for `If-Range`.
        var validator: String?
    }

    static let recordName = "stream.json"
    static let contentName = "content"
    static let entryName = "entry"

    /// The staging folder's name in `Downloads/` for the `.part` file named `part`.
    static func folderName(ofPart part: String) -> String { part + ".stream" }

    let folder: OpenFolder
    private(set) var content: OpenFolder
    private(set) var record: Record
    private var current: WritableFile?
    /// The last file error, kept whole (a full disk must stay a full disk).
    private(set) var fileFailure: FileSystemError?

    private init(folder: OpenFolder, content: OpenFolder, record: Record) {
        self.folder = folder
        self.content = content
        self.record = record
    }

    /// Opens the staging of `part` in `downloads` for `index` (whose file has SHA-256
    /// `indexSHA256`), keeping what an earlier run checked when it still stands. Returns it and
    /// how many of the index's entries are already checked. Blocking (it reads the kept files).
    static func prepare(
        in downloads: OpenFolder, part: String, url: URL, index: BundleIndex, indexSHA256: String
    ) throws(FileSystemError) -> (staging: StreamStaging, checked: Int) {
        let name = folderName(ofPart: part)
        let wanted = Record(url: url, indexSHA256: indexSHA256.lowercased(), validator: nil)
        if downloads.kind(of: name) == .folder, let folder = try? downloads.folder(name),
            let data = try? folder.file(recordName).readAll(limit: 64 << 10),
            let kept = try? JSONDecoder().decode(Record.self, from: data),
            kept.url == wanted.url, kept.indexSHA256 == wanted.indexSHA256,
            let content = try? folder.folder(contentName)
        {
            try? folder.removeRegularFile(entryName)
            let staging = StreamStaging(folder: folder, content: content, record: kept)
            return (staging, staging.countChecked(of: index))
        }
        if downloads.kind(of: name) != nil { try downloads.removeTree(name) }
        let folder = try downloads.makeFolder(name)
        let content = try folder.makeFolder(contentName)
        let staging = StreamStaging(folder: folder, content: content, record: wanted)
        try staging.save()
        return (staging, 0)
    }

    /// Removes the staging of `part` (after an install, or when what it holds is of no use).
    /// Blocking.
    static func discard(in downloads: OpenFolder, part: String) {
        try? downloads.removeTree(folderName(ofPart: part))
    }

    /// Removes the staging beside the `.part` file at `part`, if any. Blocking.
    static func discard(beside part: URL) {
        guard let downloads = try? OpenFolder.open(part.deletingLastPathComponent()) else { return }
        discard(in: downloads, part: part.lastPathComponent)
    }

    /// For a caller that must not block (the library's actor): renames the staging beside
    /// `part` aside at once (one rename: a download started next finds none) and deletes it on a
    /// thread of its own; what a crash leaves of it, open's recovery deletes (not a staging's name).
    static func discardSoon(beside part: URL) {
        guard let downloads = try? OpenFolder.open(part.deletingLastPathComponent()) else { return }
        let name = folderName(ofPart: part.lastPathComponent)
        guard downloads.kind(of: name) != nil else { return }
        let doomed = "\(name).gone-\(UUID().uuidString)"
        guard (try? downloads.rename(name, to: doomed)) != nil else { return }
        BlockingWork.start { try? downloads.removeTree(doomed) }
    }

    /// The entries whose files are checked, from the first; removes the files after them.
    private func countChecked(of index: BundleIndex) -> Int {
        var checked = 0
        for entry in index.entries {
            guard let status = try? content.status(at: entry.name), status.kind == .regularFile, status.size == entry.size,
                let file = try? content.file(at: entry.name), (try? file.sha256()) == entry.sha256
            else { break }
            checked += 1
        }
        for entry in index.entries.dropFirst(checked) { try? content.removeRegularFile(at: entry.name) }
        return checked
    }

    /// Records the server's validator for later `If-Range`s.
    func remember(validator: String?) throws(FileSystemError) {
        guard validator != record.validator else { return }
        record.validator = validator
        try save()
    }

    /// Throws away every checked entry (a 200 answered a resume: the bytes start from zero).
    func restart() throws(FileSystemError) {
        close()
        try? folder.removeRegularFile(Self.entryName)
        try folder.removeTree(Self.contentName)
        content = try folder.makeFolder(Self.contentName)
    }

    /// Best effort: a lost record only makes the next run start from zero (it checks the files
    /// again anyway), so it is not synced.
    private func save() throws(FileSystemError) {
        guard let data = try? JSONEncoder().encode(record) else { return }
        try AtomicFile.write(data, named: Self.recordName, in: folder, .bestEffort)
    }

    /// Writes the index into the complete content, moves it into `issues` as `temporary`, and
    /// removes the rest of the staging. Blocking.
    func moveContent(with index: BundleIndex, to issues: OpenFolder, as temporary: String) throws(FileSystemError) {
        try InstalledIndex.write(index, into: content)
        try folder.rename(Self.contentName, to: temporary, in: issues)
    }

    /// Stops writing (the transfer ended); the entry being written stays for the next run to remove.
    func close() {
        try? current?.close()
        current = nil
    }

    // MARK: ZipRecordStreamOutput

    func begin(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError) {
        close()
        do throws(FileSystemError) {
            if folder.kind(of: Self.entryName) != nil { try folder.removeRegularFile(Self.entryName) }
            current = try folder.createFile(Self.entryName)
        } catch {
            throw failed(error)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(ZipExtractionError) {
        do throws(FileSystemError) {
            try current?.write(bytes)
        } catch {
            throw failed(error)
        }
    }

    func end(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError) {
        do throws(FileSystemError) {
            try current?.close()
            current = nil
            // The index's names are `SafeRelativePath`s (`BundleIndex.decode`); the folders on
            // the way are opened one component at a time and never through a link.
            guard let (parent, file) = try content.parent(of: entry.name, create: true) else {
                throw FileSystemError.invalidName(path: content.path, name: entry.name)
            }
            try folder.rename(Self.entryName, to: file, in: parent)
        } catch {
            throw failed(error)
        }
    }

    private func failed(_ error: FileSystemError) -> ZipExtractionError {
        fileFailure = error
        return .writeFailed(path: error.path, reason: error.reason)
    }
}
