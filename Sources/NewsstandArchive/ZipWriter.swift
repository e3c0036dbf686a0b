import CArchive
import CCRC32
import Foundation

/// How an entry's bytes are stored.
public enum ZipCompression: Sendable {
    /// Stored as is: for media that is already compressed (PNG, JPEG, MP4), where deflate
    /// costs time and saves nothing.
    case store
    /// Deflated: for text (plists, HTML, JSON).
    case deflate

    /// The usual choice for a file name: store compressed media, deflate the rest.
    public static func suited(toFileName name: String) -> ZipCompression {
        let compressed: Set<String> = [
            "png", "jpg", "jpeg", "gif", "webp", "heic", "mp4", "m4v", "mov", "m4a", "mp3", "aac", "zip", "gz", "pdf",
        ]
        return compressed.contains((name as NSString).pathExtension.lowercased()) ? .store : .deflate
    }
}

/// Where one entry's bytes are in a written archive, as the file holds them: what a reader
/// needs to fetch the entry alone with a byte range (`BundleIndex`).
public struct ZipEntryLayout: Sendable, Equatable {
    /// Offset of the entry's local file header.
    public var headerOffset: Int64
    /// Offset of its data, right after the local header's name and extra field.
    public var dataOffset: Int64
    /// Length of the data as stored (compressed for deflated entries).
    public var compressedSize: Int64
    /// Compression method as the header records it (APPNOTE 4.4.5: 0 stored, 8 deflated).
    public var method: UInt16
    /// CRC-32 of the uncompressed bytes, as the header records it.
    public var crc32: UInt32
    /// Uncompressed size.
    public var uncompressedSize: Int64
}

/// One finished entry of an archive: its name and layout.
public struct ZipWrittenEntry: Sendable, Equatable {
    /// The entry's path in the archive, as given.
    public var name: String
    public var layout: ZipEntryLayout
}

/// Writes a zip archive with libarchive, streaming each file from disk in fixed-size chunks
/// (memory does not grow with file or archive size).
///
/// Entries get the modification date and permissions the caller gives, never the source's,
/// so the same inputs make byte-identical archives, in any time zone: entry times are written
/// in UTC by the writer itself, whatever the process's `TZ`. Every entry carries its CRC-32
/// and sizes in its local header, with no data descriptor, so streaming readers (Java's
/// `ZipInputStream`) accept stored entries too (see `ZipOutput` for how libarchive's output is
/// completed on the way to the file).
public final class ZipWriter {
    private let path: String
    // One owner per resource, each freed in one place: `output` closes the file descriptor
    // (in `close()` or its own deinit), `deinit` frees the libarchive handle and the buffer.
    // Every property is set before the first step that can fail after they exist, so a
    // failing init runs deinit, which frees them once.
    private let output: ZipOutput
    private let archive: OpaquePointer
    private let buffer: UnsafeMutableRawBufferPointer
    private var isClosed = false
    private var pendingName: String?
    /// The CRC-32 of the current entry's bytes so far. libarchive's own is off
    /// (`zip:fakecrc32`: zlib's was an eighth of a build's CPU time); `ZipOutput` writes this
    /// one into the local header and the central directory.
    private var crc: UInt32 = 0
    /// The entries finished so far, in the order of their local headers.
    public private(set) var entries: [ZipWrittenEntry] = []

    /// Size of the chunks files are read in.
    static let chunkSize = 1 << 18

    /// Creates (or empties) the archive at `url`. `onOutput` sees every byte of the archive
    /// as it will be on disk, in order (to hash it as it is written), read back on a thread of
    /// the writer's own (`OutputFeed`) while the writer goes on; `close()` returns after its
    /// last call, so what it computed may be read then.
    public convenience init(url: URL, onOutput: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(ArchiveError) {
        try self.init(url: url, forcingZip64: false, onOutput: onOutput)
    }

    /// `forcingZip64` writes every entry with Zip64 fields, as libarchive does on its own for
    /// entries of 4 GiB or more: for tests, which cannot afford such entries.
    convenience init(url: URL, forcingZip64: Bool, onOutput: ((UnsafeRawBufferPointer) -> Void)?) throws(ArchiveError) {
        try self.init(output: ZipOutput(path: url.path, observers: Self.bytes(onOutput)), forcingZip64: forcingZip64)
    }

    /// Writes the archive to `descriptor`, a new file opened for reading and writing (entries
    /// are read back for `onOutput`), which the writer now owns: it is closed by `close()` or
    /// when the writer goes away. Writing through a descriptor the caller opened without
    /// following links means nothing is written through a link. `path` is for messages.
    public convenience init(
        descriptor: Int32, path: String, onOutput: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) throws(ArchiveError) {
        try self.init(descriptor: descriptor, path: path, onBlocks: Self.bytes(onOutput))
    }

    /// `init(descriptor:path:onOutput:)`, where the observer is also told which entry each
    /// block belongs to and where its data is (`ZipOutputBlock`): what lets a caller hash a
    /// stored entry's content from the archive's bytes, with no copy of its own.
    public convenience init(descriptor: Int32, path: String, onBlock: ((ZipOutputBlock) -> Void)?) throws(ArchiveError) {
        try self.init(descriptor: descriptor, path: path, onBlocks: onBlock.map { [$0] } ?? [])
    }

    /// `init(descriptor:path:onBlock:)` with several observers: each sees every block, in
    /// order, on a thread of its own, in parallel with the others (two hashes of the same
    /// bytes take two cores), and each block is read back once for all of them.
    public convenience init(descriptor: Int32, path: String, onBlocks: [(ZipOutputBlock) -> Void]) throws(ArchiveError) {
        try self.init(output: ZipOutput(path: path, descriptor: descriptor, observers: onBlocks), forcingZip64: false)
    }

    private static func bytes(_ observer: ((UnsafeRawBufferPointer) -> Void)?) -> [(ZipOutputBlock) -> Void] {
        observer.map { observe in [{ observe($0.bytes) }] } ?? []
    }

    private init(output: ZipOutput, forcingZip64: Bool) throws(ArchiveError) {
        path = output.path
        self.output = output
        guard let archive = archive_write_new() else {
            throw ArchiveError(path: path, reason: "libarchive could not allocate a writer")
        }
        self.archive = archive
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
        // Unblocked: each write callback is one piece libarchive wrote (header, data,
        // descriptor, directory), which `ZipOutput` relies on; it also spares a copy of every
        // byte into libarchive's block buffer.
        guard archive_write_set_format_zip(archive) == ARCHIVE_OK, archive_write_set_bytes_per_block(archive, 0) == ARCHIVE_OK,
            archive_write_set_options(
                archive, forcingZip64 ? "zip:hdrcharset=UTF-8,zip:zip64,zip:fakecrc32" : "zip:hdrcharset=UTF-8,zip:fakecrc32")
                == ARCHIVE_OK
        else { throw failure() }
        let client = Unmanaged.passUnretained(output).toOpaque()
        let status = archive_write_open2(
            archive, client,
            { _, client in Unmanaged<ZipOutput>.fromOpaque(client!).takeUnretainedValue().open() },
            { _, client, bytes, length in
                Unmanaged<ZipOutput>.fromOpaque(client!).takeUnretainedValue().write(bytes!, length)
            }, nil, nil)
        guard status == ARCHIVE_OK else { throw failure() }
    }

    deinit {
        // Freeing an open libarchive writer closes it, which would write a central directory
        // after an entry that failed half-way: the output refuses it.
        output.abandon()
        archive_write_free(archive)
        buffer.deallocate()
    }

    /// Adds the regular file at `source` as `name` (a link there is refused, not followed).
    /// `observe` sees the file's bytes as they are read (to hash the input without reading it twice).
    public func addFile(
        at source: URL, as name: String, modified: Date, compression: ZipCompression,
        observe: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) throws(ArchiveError) {
        let input = open(source.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { throw ArchiveError(path: source.path, reason: String(cString: strerror(errno))) }
        defer { Foundation.close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, (info.st_mode & 0o170000) == 0o100000 else {
            throw ArchiveError(path: source.path, reason: "not a regular file")
        }
        try addFile(
            reading: input, size: Int64(info.st_size), path: source.path, as: name, modified: modified,
            compression: compression, observe: observe)
    }

    /// Adds `size` bytes read from `descriptor` (a regular file the caller opened and checked,
    /// read from its current position) as `name`. Packing from the descriptor, not a path,
    /// means what was checked is what is packed. `path` is for messages.
    public func addFile(
        reading descriptor: Int32, size: Int64, path source: String, as name: String, modified: Date,
        compression: ZipCompression, observe: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) throws(ArchiveError) {
        try writeHeader(name: name, size: size, modified: modified, compression: compression)
        var remaining = size
        while remaining > 0 {
            let count = read(descriptor, buffer.baseAddress, min(buffer.count, Int(remaining)))
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ArchiveError(path: source, reason: String(cString: strerror(errno))) }
            guard count > 0 else { throw ArchiveError(path: source, reason: "the file shrank while it was being packed") }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            observe?(chunk)
            try writeData(chunk)
            remaining -= Int64(count)
        }
        try finishEntry(size: size)
    }

    /// Adds `data` as `name`. `omittingExtraFields` writes its local header with no extra
    /// field (libarchive's timestamps and Unix ids): what EPUB's OCF asks of the `mimetype`
    /// entry, whose content readers find at a fixed offset (38) from the archive's start.
    public func addData(
        _ data: Data, as name: String, modified: Date, compression: ZipCompression, omittingExtraFields: Bool = false
    ) throws(ArchiveError) {
        try writeHeader(
            name: name, size: Int64(data.count), modified: modified, compression: compression,
            omittingExtraFields: omittingExtraFields)
        let problem: ArchiveError? = data.withUnsafeBytes { bytes -> ArchiveError? in
            do {
                try writeData(bytes)
                return nil
            } catch {
                return error as? ArchiveError ?? ArchiveError(path: path, reason: "\(error)")
            }
        }
        if let problem { throw problem }
        try finishEntry(size: Int64(data.count))
    }

    /// Writes the central directory and closes the file; returns the archive's size in bytes.
    @discardableResult
    public func close() throws(ArchiveError) -> Int64 {
        guard !isClosed else { return output.written }
        try output.beginTrailer()
        guard archive_write_close(archive) == ARCHIVE_OK else { throw failure() }
        try output.endTrailer()
        try output.close()
        isClosed = true
        return output.written
    }

    private func writeHeader(
        name: String, size: Int64, modified: Date, compression: ZipCompression, omittingExtraFields: Bool = false
    ) throws(ArchiveError) {
        try output.beginEntry(time: DOSDateTime(utc: modified))
        pendingName = name
        crc = 0
        guard let entry = archive_entry_new() else { throw ArchiveError(path: path, reason: "out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, 0o100000)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, size)
        archive_entry_set_mtime(entry, time_t(ZipTimestamp.seconds(modified)), 0)
        switch compression {
        case .store: archive_write_zip_set_compression_store(archive)
        case .deflate: archive_write_zip_set_compression_deflate(archive)
        }
        guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw failure() }
        try output.endHeader(omittingExtraFields: omittingExtraFields)
    }

    private func finishEntry(size: Int64) throws(ArchiveError) {
        try output.beginFinish()
        guard archive_write_finish_entry(archive) == ARCHIVE_OK else { throw failure() }
        try output.endEntry(uncompressedSize: size, crc32: crc)
        if let name = pendingName, let layout = output.lastLayout {
            entries.append(ZipWrittenEntry(name: name, layout: layout))
        }
        pendingName = nil
    }

    private func writeData(_ bytes: UnsafeRawBufferPointer) throws(ArchiveError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        crc = newsstand_crc32(crc, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        var offset = 0
        while offset < bytes.count {
            let written = archive_write_data(archive, base + offset, bytes.count - offset)
            guard written > 0 else { throw failure() }
            offset += written
        }
    }

    private func failure() -> ArchiveError {
        ArchiveError(path: path, reason: output.error ?? Self.message(archive))
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error \(archive_errno(archive))"
    }
}
