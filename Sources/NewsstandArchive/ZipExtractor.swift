import CArchive
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unpacks a zip archive into a new folder with libarchive, refusing anything that could
/// write outside that folder or exhaust the disk: absolute paths, `..` components, links,
/// device files, too many entries, too many bytes and zip-bomb compression ratios.
/// On any error the destination is removed, so a caller never sees a half-unpacked folder.
public enum ZipExtractor {
    /// Unpacks `archive` into `destination`, which must not exist yet (it is created).
    /// - Returns: what was written.
    /// - Throws: `ZipExtractionError`; the destination is gone when it is thrown.
    @discardableResult
    public static func extract(
        from archive: URL, into destination: URL, limits: ZipExtractionLimits = .default
    ) throws(ZipExtractionError) -> ZipExtractionSummary {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: destination.path) {
            throw .destinationExists(path: destination.path)
        }
        do {
            try fileManager.createDirectory(at: destination, withIntermediateDirectories: false)
        } catch {
            throw .writeFailed(path: destination.path, reason: error.localizedDescription)
        }
        do {
            return try UTF8Locale.run { () throws(ZipExtractionError) -> ZipExtractionSummary in
                var extraction = try Extraction(archive: archive, destination: destination, limits: limits)
                return try extraction.run()
            }
        } catch {
            try? fileManager.removeItem(at: destination)
            throw error
        }
    }
}

/// One extraction in progress: the libarchive reader and the running totals.
private struct Extraction {
    let archivePath: String
    let destination: URL
    let limits: ZipExtractionLimits
    let archiveSize: Int64
    let reader: OpaquePointer
    var summary = ZipExtractionSummary()
    var entryCount = 0
    var declaredTotal: Int64 = 0
    var folders: Set<String> = []
    var files: Set<String> = []

    init(archive: URL, destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError) {
        archivePath = archive.path
        self.destination = destination
        self.limits = limits
        var info = stat()
        guard stat(archive.path, &info) == 0 else {
            throw .cannotOpen(archive: archive.path, reason: String(cString: strerror(errno)))
        }
        archiveSize = Int64(info.st_size)
        guard let reader = archive_read_new() else {
            throw .cannotOpen(archive: archive.path, reason: "libarchive could not allocate a reader")
        }
        archive_read_support_format_zip(reader)
        guard archive_read_open_filename(reader, archive.path, 1 << 16) == ARCHIVE_OK else {
            let reason = Self.message(reader)
            archive_read_free(reader)
            throw .cannotOpen(archive: archive.path, reason: reason)
        }
        self.reader = reader
    }

    static func message(_ reader: OpaquePointer) -> String {
        archive_error_string(reader).map { String(cString: $0) } ?? "unknown libarchive error"
    }

    mutating func run() throws(ZipExtractionError) -> ZipExtractionSummary {
        defer { archive_read_free(reader) }
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw .corrupt(archive: archivePath, reason: Self.message(reader))
            }
            try extract(entry)
        }
        if entryCount == 0 {
            throw .corrupt(archive: archivePath, reason: "the archive has no entries")
        }
        return summary
    }

    private mutating func extract(_ entry: OpaquePointer) throws(ZipExtractionError) {
        entryCount += 1
        if entryCount > limits.maxEntries { throw .tooManyEntries(archive: archivePath, limit: limits.maxEntries) }
        let raw = (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map { String(cString: $0) }
        guard let raw else { throw .corrupt(archive: archivePath, reason: "an entry has no readable name") }
        guard let path = ZipEntryPath(raw) else { throw .unsafePath(archive: archivePath, entry: raw) }
        if archive_entry_hardlink(entry) != nil || archive_entry_symlink(entry) != nil {
            throw .link(archive: archivePath, entry: raw)
        }
        let type = UInt32(archive_entry_filetype(entry)) & 0o170000
        switch type {
        case 0o040000:
            try makeFolders(path.components)
        case 0o100000 where path.isFolder:
            try makeFolders(path.components)
        case 0o100000:
            try writeFile(entry, path: path, raw: raw)
        case 0o120000:
            throw .link(archive: archivePath, entry: raw)
        default:
            throw .unsupportedEntryType(archive: archivePath, entry: raw)
        }
    }

    /// Creates the folders for `components` that do not exist yet.
    private mutating func makeFolders(_ components: [String]) throws(ZipExtractionError) {
        var relative = ""
        for component in components {
            relative = relative.isEmpty ? component : relative + "/" + component
            if folders.contains(relative) { continue }
            if files.contains(relative) { throw .duplicateEntry(archive: archivePath, entry: relative) }
            let full = destination.path + "/" + relative
            guard mkdir(full, 0o755) == 0 else {
                throw .writeFailed(path: full, reason: String(cString: strerror(errno)))
            }
            folders.insert(relative)
            summary.folderCount += 1
        }
    }

    private mutating func writeFile(_ entry: OpaquePointer, path: ZipEntryPath, raw: String) throws(ZipExtractionError) {
        if archive_entry_size_is_set(entry) != 0 {
            declaredTotal += max(0, archive_entry_size(entry))
            try checkSize(declaredTotal)
        }
        try makeFolders(Array(path.components.dropLast()))
        let relative = path.relativePath
        if files.contains(relative) || folders.contains(relative) {
            throw .duplicateEntry(archive: archivePath, entry: raw)
        }
        files.insert(relative)
        let full = destination.path + "/" + relative
        // O_EXCL and O_NOFOLLOW: never write through anything already at that path.
        let fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: full, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        summary.fileCount += 1
        var buffer: UnsafeRawPointer?
        var size = 0
        var offset: Int64 = 0
        while true {
            let status = archive_read_data_block(reader, &buffer, &size, &offset)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
                throw .corrupt(archive: archivePath, reason: Self.message(reader))
            }
            guard size > 0, let buffer else { continue }
            summary.totalSize += Int64(size)
            try checkSize(summary.totalSize)
            var written = 0
            while written < size {
                let n = pwrite(fd, buffer + written, size - written, off_t(offset) + off_t(written))
                guard n > 0 else { throw .writeFailed(path: full, reason: String(cString: strerror(errno))) }
                written += n
            }
        }
    }

    /// Checks a running or declared total against the size and ratio limits.
    private func checkSize(_ total: Int64) throws(ZipExtractionError) {
        if total > limits.maxTotalSize { throw .tooLarge(archive: archivePath, limit: limits.maxTotalSize) }
        if total > limits.ratioGraceSize,
            Double(total) / Double(max(archiveSize, 1)) > limits.maxCompressionRatio
        {
            throw .suspiciousCompressionRatio(archive: archivePath, limit: limits.maxCompressionRatio)
        }
    }
}
