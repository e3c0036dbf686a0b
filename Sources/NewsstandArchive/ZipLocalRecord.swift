import CArchive
import Foundation

/// Reads one zip entry from its local record alone (local header, name, extra field, data), as
/// fetched with an HTTP `Range` request: libarchive's streaming zip reader inflates it (stored or
/// DEFLATE) and checks its CRC-32, without the central directory. The record must carry its
/// sizes in the local header (no data descriptor), as `newsstand build`'s bundles do.
public enum ZipLocalRecord {
    /// Streams the uncompressed bytes of the entry whose local record starts at `offset` in the
    /// open file `descriptor` (not moved: a duplicate descriptor is read) to `body`, in order.
    /// Refuses a record whose entry is not `expectedName`, that is not a regular file, or whose
    /// bytes pass `maximumBytes`. Blocking; memory stays at libarchive's buffer (64 KiB).
    public static func read(
        descriptor: Int32, offset: Int64, expectedName: String, maximumBytes: Int64,
        _ body: (UnsafeRawBufferPointer) throws(ArchiveError) -> Void
    ) throws(ArchiveError) {
        let path = "local record at \(offset)"
        let fd = dup(descriptor)
        guard fd >= 0 else { throw ArchiveError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw ArchiveError(path: path, reason: String(cString: strerror(errno)))
        }
        guard let reader = archive_read_new() else { throw ArchiveError(path: path, reason: "libarchive could not allocate a reader") }
        defer { archive_read_free(reader) }
        // The streaming reader reads local headers in order and never seeks to the central
        // directory, which a fetched range does not have.
        archive_read_support_format_zip_streamable(reader)
        func failure() -> ArchiveError {
            ArchiveError(path: path, reason: archive_error_string(reader).map { String(cString: $0) } ?? "unknown libarchive error")
        }
        guard archive_read_open_fd(reader, fd, 1 << 16) == ARCHIVE_OK else { throw failure() }
        var entry: OpaquePointer?
        let status = archive_read_next_header(reader, &entry)
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else { throw failure() }
        let name = (archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)).map { String(cString: $0) }
        guard name == expectedName else {
            throw ArchiveError(path: path, reason: "the record is of '\(name ?? "?")', not '\(expectedName)'")
        }
        guard UInt32(archive_entry_filetype(entry)) & 0o170000 == 0o100000 else {
            throw ArchiveError(path: path, reason: "'\(expectedName)' is not a regular file")
        }
        var total: Int64 = 0
        var buffer: UnsafeRawPointer?
        var size = 0
        var at: Int64 = 0
        while true {
            let read = archive_read_data_block(reader, &buffer, &size, &at)
            if read == ARCHIVE_EOF { break }
            guard read == ARCHIVE_OK || read == ARCHIVE_WARN else { throw failure() }
            guard size > 0, let buffer else { continue }
            // A sparse block (a hole) would arrive with a jump in `at`: a zip entry has none.
            guard at == total else { throw ArchiveError(path: path, reason: "the data of '\(expectedName)' is not contiguous") }
            total += Int64(size)
            guard total <= maximumBytes else {
                throw ArchiveError(path: path, reason: "'\(expectedName)' inflates past \(maximumBytes) bytes")
            }
            try body(UnsafeRawBufferPointer(start: buffer, count: size))
        }
    }
}
