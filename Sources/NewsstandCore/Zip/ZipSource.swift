import Foundation

/// The archive being read: an open regular file, read at offsets (`pread`, no shared position),
/// with the name its errors carry. Every read is of a size the reader bounds itself (a record's
/// fixed part, a name or extra field of at most 64 KiB, a buffer), never one a field chose.
struct ZipSource {
    let file: OpenFile
    /// The archive's name in errors.
    let name: String
    /// The size when it was opened; nothing past it is read.
    var size: Int64 { file.size }

    /// Exactly `count` bytes at `offset`; a read past the end is a truncated archive.
    func bytes(at offset: Int64, count: Int, what: @autoclosure () -> String) throws(ZipExtractionError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
            throw .corrupt(archive: name, reason: "\(what()) at offset \(offset) runs past the end of the archive")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(ZipExtractionError) in try self.read(into: buffer, at: offset) }
        }.get()
        guard read == count else {
            throw .corrupt(archive: name, reason: "\(what()) at offset \(offset) runs past the end of the archive")
        }
        return bytes
    }

    /// Reads into `buffer` at `offset`, as many bytes as are there up to its size.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(ZipExtractionError) -> Int {
        do throws(FileSystemError) {
            return try file.read(into: buffer, at: offset)
        } catch {
            throw .cannotOpen(archive: name, reason: error.reason)
        }
    }
}
