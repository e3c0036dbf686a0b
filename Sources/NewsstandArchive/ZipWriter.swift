import CArchive
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

/// Writes a zip archive with libarchive, streaming each file from disk in fixed-size chunks
/// (memory does not grow with file or archive size).
///
/// Entries get the modification date and permissions the caller gives, never the source's,
/// so the same inputs make byte-identical archives. libarchive writes DOS timestamps in local
/// time: the process must run with `TZ=UTC` (the `newsstand` executable sets it) for archives
/// to be identical across machines.
public final class ZipWriter {
    private let archive: OpaquePointer
    private let sink: OutputSink
    private let path: String
    private var buffer: UnsafeMutableRawBufferPointer
    private var isClosed = false

    /// Size of the chunks files are read in.
    static let chunkSize = 1 << 18

    /// Creates (or truncates) the archive at `url` (a link there is refused, not written
    /// through). `onOutput` sees every byte written to it, in order (to hash the archive as it
    /// is written).
    public convenience init(url: URL, onOutput: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(ArchiveError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ArchiveError(path: url.path, reason: String(cString: strerror(errno))) }
        try self.init(descriptor: fd, path: url.path, onOutput: onOutput)
    }

    /// Writes the archive to `descriptor`, a file opened for writing, which the writer now
    /// owns (closed by `close()`, or when the writer goes away). `path` is for messages.
    public init(descriptor fd: Int32, path: String, onOutput: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(ArchiveError) {
        self.path = path
        sink = OutputSink(fd: fd, observer: onOutput)
        guard let archive = archive_write_new() else {
            Foundation.close(fd)
            throw ArchiveError(path: path, reason: "libarchive could not allocate a writer")
        }
        self.archive = archive
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
        archive_write_set_format_zip(archive)
        archive_write_set_bytes_per_block(archive, Int32(Self.chunkSize))
        archive_write_set_bytes_in_last_block(archive, 1)
        archive_write_set_options(archive, "zip:hdrcharset=UTF-8")
        let client = Unmanaged.passUnretained(sink).toOpaque()
        let status = archive_write_open2(
            archive, client, nil,
            { _, client, bytes, length in
                Unmanaged<OutputSink>.fromOpaque(client!).takeUnretainedValue().write(bytes!, length)
            }, nil, nil)
        guard status == ARCHIVE_OK else {
            // Every property is set, so deinit runs and frees the writer, the buffer and the file.
            throw ArchiveError(path: path, reason: Self.message(archive))
        }
    }

    deinit {
        if !isClosed {
            archive_write_free(archive)
            Foundation.close(sink.fd)
        }
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
        guard archive_write_finish_entry(archive) == ARCHIVE_OK else { throw failure() }
    }

    /// Adds `data` as `name`.
    public func addData(_ data: Data, as name: String, modified: Date, compression: ZipCompression) throws(ArchiveError) {
        try writeHeader(name: name, size: Int64(data.count), modified: modified, compression: compression)
        let problem: ArchiveError? = data.withUnsafeBytes { bytes -> ArchiveError? in
            do {
                try writeData(bytes)
                return nil
            } catch {
                return error as? ArchiveError ?? ArchiveError(path: path, reason: "\(error)")
            }
        }
        if let problem { throw problem }
        guard archive_write_finish_entry(archive) == ARCHIVE_OK else { throw failure() }
    }

    /// Writes the central directory and closes the file; returns the archive's size in bytes.
    @discardableResult
    public func close() throws(ArchiveError) -> Int64 {
        guard !isClosed else { return sink.written }
        isClosed = true
        let status = archive_write_close(archive)
        let reason = Self.message(archive)
        archive_write_free(archive)
        // No fsync: callers rename a finished archive into place, which protects against an
        // interrupted process; forcing every archive to disk doubled a build's time.
        let closed = Foundation.close(sink.fd) == 0
        if let error = sink.error { throw ArchiveError(path: path, reason: error) }
        guard status == ARCHIVE_OK else { throw ArchiveError(path: path, reason: reason) }
        guard closed else { throw ArchiveError(path: path, reason: String(cString: strerror(errno))) }
        return sink.written
    }

    private func writeHeader(name: String, size: Int64, modified: Date, compression: ZipCompression) throws(ArchiveError) {
        guard let entry = archive_entry_new() else { throw ArchiveError(path: path, reason: "out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, 0o100000)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, size)
        archive_entry_set_mtime(entry, time_t(modified.timeIntervalSince1970.rounded(.down)), 0)
        switch compression {
        case .store: archive_write_zip_set_compression_store(archive)
        case .deflate: archive_write_zip_set_compression_deflate(archive)
        }
        guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw failure() }
    }

    private func writeData(_ bytes: UnsafeRawBufferPointer) throws(ArchiveError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let written = archive_write_data(archive, base + offset, bytes.count - offset)
            guard written > 0 else { throw failure() }
            offset += written
        }
    }

    private func failure() -> ArchiveError {
        ArchiveError(path: path, reason: sink.error ?? Self.message(archive))
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive error \(archive_errno(archive))"
    }
}

/// The file descriptor libarchive's write callback writes to, with the first write error kept
/// (a full disk must surface as ENOSPC, not as a generic libarchive failure).
private final class OutputSink {
    let fd: Int32
    let observer: ((UnsafeRawBufferPointer) -> Void)?
    var written: Int64 = 0
    var error: String?

    init(fd: Int32, observer: ((UnsafeRawBufferPointer) -> Void)?) {
        self.fd = fd
        self.observer = observer
    }

    func write(_ bytes: UnsafeRawPointer, _ length: Int) -> Int {
        var offset = 0
        while offset < length {
            let count = Foundation.write(fd, bytes + offset, length - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                error = String(cString: strerror(errno))
                return -1
            }
            offset += count
        }
        observer?(UnsafeRawBufferPointer(start: bytes, count: length))
        written += Int64(length)
        return length
    }
}
