import CArchive
import Foundation

/// Where libarchive's zip output goes: a file, rewritten on the way so that every entry carries
/// its CRC-32 and sizes in its local header, without a data descriptor, and its time in UTC.
///
/// Why: libarchive 3.6 writes every regular file with general-purpose flag bit 3 ("we may know
/// the size, but never the CRC") and a data descriptor after the data, which streaming readers
/// refuse for stored entries (Java's `ZipInputStream`: "only DEFLATED entries can have EXT
/// descriptor"), and it computes DOS times with `localtime`. It has no option against either.
///
/// How: the writer runs unblocked (`bytes_per_block` 0), so each call of the write callback is
/// one piece libarchive wrote, and `ZipWriter` says which call it is in. A local header (fixed
/// part, name, extra fields) arrives during `archive_write_header`: its place in the file is
/// kept free. Data is written as it comes. The data descriptor is the last write of
/// `archive_write_finish_entry`: it is swallowed, and the local header is written into its
/// place with the descriptor's sizes, the CRC-32 `ZipWriter` computed (libarchive's own is off:
/// `zip:fakecrc32`), bit 3 cleared and the UTC time. The central
/// directory and end records, small, are buffered during `archive_write_close`, rewritten to
/// match (see `ZipRecords.rewriteTrailer`) and written.
///
/// The observers see the final bytes in file order, read back from the file a little behind
/// the writing, each on a thread of its own (`OutputFeed`). Memory holds one local header and the
/// central directory, never file data.
final class ZipOutput {
    let path: String
    private var feed: OutputFeed?
    private var fd: Int32 = -1
    /// The first failure: the system's reason for a failed write, or a record that is not what
    /// libarchive was expected to write. Every later call fails with it.
    private(set) var error: String?
    /// Bytes in the file, which is where the next byte goes.
    private(set) var written: Int64 = 0
    /// Bytes libarchive has produced: its own offsets, which count the swallowed descriptors.
    private var produced: Int64 = 0
    private var phase = Phase.idle
    private var entry = PendingEntry()
    private var placements: [ZipRecords.EntryPlacement] = []
    /// Where the last finished entry's bytes are in the file.
    private(set) var lastLayout: ZipEntryLayout?
    private var trailer: [UInt8] = []
    private var trailerOffsets = (produced: Int64(0), file: Int64(0))

    /// Which libarchive call is under way, and so what its writes are.
    private enum Phase {
        case idle, header, data, finishing, trailer, done
    }

    /// The entry being written: its local header as libarchive wrote it and where it goes.
    private struct PendingEntry {
        var header: [UInt8] = []
        var fileOffset: Int64 = 0
        var producedOffset: Int64 = 0
        var time = DOSDateTime.earliest
        var dataLength: Int64 = 0
        var descriptor: [UInt8]?
    }

    /// The descriptor a caller opened (read and write), used instead of opening `path`.
    private var given: Int32?

    /// `observers` each see every final byte, in order, each on a thread of its own (`OutputFeed`).
    init(path: String, observers: [(ZipOutputBlock) -> Void]) {
        self.path = path
        feed = observers.isEmpty ? nil : OutputFeed(observers: observers)
    }

    /// Output to `descriptor`, owned from now on (closed here).
    init(path: String, descriptor: Int32, observers: [(ZipOutputBlock) -> Void]) {
        self.path = path
        given = descriptor
        fd = descriptor
        feed = observers.isEmpty ? nil : OutputFeed(observers: observers)
    }

    deinit {
        // The feed may still be reading the file: it finishes before the descriptor goes.
        _ = feed?.finish()
        if fd >= 0 { Foundation.close(fd) }
    }

    // MARK: libarchive's callbacks

    /// libarchive's open callback: creates (or empties) the file, for reading too (entries
    /// are read back for the observer).
    func open() -> Int32 {
        if given == nil {
            // O_NOFOLLOW: a link at the archive's path is refused, not written through. No
            // O_TRUNC: it is `emptied()` below, only when it holds something.
            fd = Foundation.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                error = String(cString: strerror(errno))
                return ARCHIVE_FATAL
            }
        }
        return emptied() ? ARCHIVE_OK : ARCHIVE_FATAL
    }

    /// Empties the file unless it is empty already (a new file, as the build's always is).
    /// Truncating an empty file is not free: ext4 takes a truncation to 0 for an application
    /// replacing a file's content (`auto_da_alloc`) and starts writing the whole file back on
    /// its last close, which took 45-50 ms of the 118 MB bench bundle's close on this machine,
    /// on the build's critical path.
    private func emptied() -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            error = String(cString: strerror(errno))
            return false
        }
        guard info.st_size != 0 else { return true }
        guard ftruncate(fd, 0) == 0 else {
            error = String(cString: strerror(errno))
            return false
        }
        return true
    }

    /// libarchive's write callback: one piece of output, handled by what is being written.
    func write(_ bytes: UnsafeRawPointer, _ length: Int) -> Int {
        guard error == nil else { return -1 }
        let chunk = UnsafeRawBufferPointer(start: bytes, count: length)
        produced += Int64(length)
        switch phase {
        case .header:
            entry.header.append(contentsOf: chunk)
        case .data:
            writeData(chunk)
        case .finishing:
            // Only the last write of finish_entry is the descriptor: one that merely looks
            // like it and is followed by another is deflate output.
            if let held = entry.descriptor {
                entry.descriptor = nil
                held.withUnsafeBytes { writeData($0) }
            }
            if ZipRecords.mayBeDescriptor(chunk) { entry.descriptor = Array(chunk) } else { writeData(chunk) }
        case .trailer:
            trailer.append(contentsOf: chunk)
        case .idle, .done:
            error = "libarchive wrote \(length) bytes outside an entry"
        }
        return error == nil ? length : -1
    }

    // MARK: The writer's steps

    /// Before `archive_write_header`.
    func beginEntry(time: DOSDateTime) throws(ArchiveError) {
        try expect(.idle, "the previous entry was left unfinished")
        entry = PendingEntry(fileOffset: written, producedOffset: produced, time: time)
        phase = .header
    }

    /// After `archive_write_header`: the header is checked and its place kept free; with
    /// `omittingExtraFields`, without its extra fields (the header's place shrinks with them:
    /// no data has been written yet; the central directory keeps its own).
    func endHeader(omittingExtraFields: Bool = false) throws(ArchiveError) {
        try expect(.header, "the entry's header was not written")
        do throws(RecordError) {
            var header = try ZipRecords.LocalHeader(entry.header)
            if omittingExtraFields {
                try header.removeExtraFields()
                entry.header = header.bytes
            }
        } catch {
            throw fail(error.reason)
        }
        written += Int64(entry.header.count)
        phase = .data
    }

    /// Before `archive_write_finish_entry`.
    func beginFinish() throws(ArchiveError) {
        try expect(.data, "the entry's header was not written")
        phase = .finishing
    }

    /// After `archive_write_finish_entry`: the descriptor is checked against what went by,
    /// and the completed header written in its place, with `crc32`, the CRC-32 of the entry's
    /// uncompressed bytes (libarchive runs with `zip:fakecrc32`: its descriptor says 0, or, if
    /// it computed one after all, must say the same).
    func endEntry(uncompressedSize: Int64, crc32: UInt32) throws(ArchiveError) {
        try expect(.finishing, "the entry was not finished")
        guard let descriptorBytes = entry.descriptor else { throw fail("libarchive wrote no data descriptor") }
        var header: ZipRecords.LocalHeader
        do throws(RecordError) {
            header = try ZipRecords.LocalHeader(entry.header)
            var descriptor = try ZipRecords.descriptor(descriptorBytes, zip64: header.usesZip64)
            guard descriptor.crc32 == 0 || descriptor.crc32 == crc32 else {
                throw RecordError("the data descriptor's CRC-32 is \(descriptor.crc32), the bytes' \(crc32)")
            }
            descriptor.crc32 = crc32
            guard descriptor.compressedSize == UInt64(entry.dataLength),
                descriptor.uncompressedSize == UInt64(uncompressedSize)
            else {
                throw RecordError(
                    "the data descriptor says \(descriptor.compressedSize) bytes from \(descriptor.uncompressedSize), "
                        + "\(entry.dataLength) from \(uncompressedSize) went by")
            }
            try header.complete(with: descriptor, time: entry.time)
        } catch {
            throw fail(error.reason)
        }
        try put(header.bytes, at: entry.fileOffset)
        let layout = ZipEntryLayout(
            headerOffset: entry.fileOffset, dataOffset: entry.fileOffset + Int64(header.bytes.count),
            compressedSize: entry.dataLength, method: header.bytes.le16(8), crc32: header.bytes.le32(14),
            uncompressedSize: uncompressedSize)
        feed?.advance(to: written, in: fd, entry: (placements.count, layout))
        lastLayout = layout
        placements.append(
            .init(producedOffset: entry.producedOffset, fileOffset: entry.fileOffset, time: entry.time, crc32: crc32))
        entry = PendingEntry()
        phase = .idle
    }

    /// Before `archive_write_close`.
    func beginTrailer() throws(ArchiveError) {
        try expect(.idle, "the last entry was left unfinished")
        trailerOffsets = (produced, written)
        phase = .trailer
    }

    /// After `archive_write_close`: the directory and end records, rewritten, are written.
    func endTrailer() throws(ArchiveError) {
        try expect(.trailer, "the central directory was not written")
        do throws(RecordError) {
            try ZipRecords.rewriteTrailer(
                &trailer, entries: placements, producedOffset: trailerOffsets.produced, fileOffset: trailerOffsets.file)
        } catch {
            throw fail(error.reason)
        }
        try put(trailer, at: written)
        written += Int64(trailer.count)
        trailer = []
        feed?.advance(to: written, in: fd, entry: nil)
        if let reason = feed?.finish() { throw fail(reason) }
        phase = .done
    }

    /// Closes the file. No fsync: callers rename a finished archive into place, which
    /// protects against an interrupted process; forcing every archive to disk doubled a
    /// build's time.
    func close() throws(ArchiveError) {
        guard fd >= 0 else { return }
        _ = feed?.finish()
        let status = Foundation.close(fd)
        fd = -1
        guard status == 0 else { throw fail(String(cString: strerror(errno))) }
    }

    /// Refuses every later write: for a writer dropped before it was closed, whose libarchive
    /// handle would otherwise write a central directory on its way out.
    func abandon() {
        if error == nil { error = "the archive was abandoned" }
    }

    // MARK: Writing

    /// Writes entry data where the file ends, and shows the observer as many final bytes; a
    /// failure is kept in `error`.
    private func writeData(_ chunk: UnsafeRawBufferPointer) {
        guard put(chunk, at: written) else { return }
        written += Int64(chunk.count)
        entry.dataLength += Int64(chunk.count)
    }

    /// Writes a completed record at `offset`.
    private func put(_ record: [UInt8], at offset: Int64) throws(ArchiveError) {
        let wrote = record.withUnsafeBytes { put($0, at: offset) }
        if !wrote { throw fail(error ?? "the archive could not be written") }
    }

    /// Writes `bytes` at `offset`; false with the system's reason in `error` when it fails
    /// (a full disk must surface as ENOSPC, not as a generic libarchive failure).
    private func put(_ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let count = pwrite(fd, base + done, bytes.count - done, off_t(offset) + off_t(done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                _ = fail(String(cString: strerror(errno)))
                return false
            }
            done += count
        }
        return true
    }

    private func expect(_ expected: Phase, _ otherwise: String) throws(ArchiveError) {
        if let error { throw ArchiveError(path: path, reason: error) }
        guard phase == expected else { throw fail(otherwise) }
    }

    private func fail(_ reason: String) -> ArchiveError {
        if error == nil { error = reason }
        return ArchiveError(path: path, reason: error ?? reason)
    }
}
