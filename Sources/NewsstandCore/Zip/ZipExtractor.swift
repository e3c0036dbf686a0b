import Foundation

/// Unpacks a zip archive into a new folder, with our own reader over zlib (no libarchive: the
/// reader library is built for iOS, whose SDK has zlib only), refusing anything that could write
/// outside that folder or exhaust the disk: absolute paths, `..` components, links, device files,
/// too many entries, too many bytes and zip-bomb compression ratios, overlapping records,
/// records that disagree with the central directory, and bytes that fail their CRC-32.
/// On any error the destination is removed, so a caller never sees a half-unpacked folder.
public enum ZipExtractor {
    /// Unpacks `archive` into `destination`, which must not exist yet (it is created).
    /// - Parameters:
    ///   - archive: the zip file to read.
    ///   - destination: the folder to create and fill; its parent must exist.
    ///   - limits: the most entries, bytes and compression ratio accepted.
    ///   - reservedPrefixes: names the caller keeps for its own records; an entry with a
    ///     path component that starts with one of them is refused (`.reservedName`).
    /// - Returns: what was written.
    /// - Throws: `ZipExtractionError`; the destination is gone when it is thrown. Blocking.
    @discardableResult
    public static func extract(
        from archive: URL, into destination: URL, limits: ZipExtractionLimits = .default, reservedPrefixes: [String] = []
    ) throws(ZipExtractionError) -> ZipExtractionSummary {
        let parent: OpenFolder
        do {
            parent = try OpenFolder.open(destination.deletingLastPathComponent())
        } catch {
            throw .writeFailed(path: destination.path, reason: error.reason)
        }
        let name = destination.lastPathComponent
        if parent.kind(of: name) != nil { throw .destinationExists(path: destination.path) }
        let folder: OpenFolder
        do throws(FileSystemError) {
            guard mkdirat(parent.descriptor, name, 0o755) == 0 else { throw FileSystemError.fromErrno(destination.path) }
            folder = try parent.folder(name)
        } catch {
            if error.code == EEXIST { throw .destinationExists(path: destination.path) }
            throw .writeFailed(path: destination.path, reason: error.reason)
        }
        do {
            let zip = try ZipArchive.open(archive, maxEntries: limits.maxEntries)
            let plan = try ZipExtractionPlan(zip, limits: limits, reservedPrefixes: reservedPrefixes)
            var writer = try ZipFolderWriter(archive: zip, plan: plan, limits: limits, destination: folder)
            return try writer.run()
        } catch {
            try? parent.removeTree(name)
            throw error
        }
    }
}
