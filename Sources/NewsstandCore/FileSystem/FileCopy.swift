import Foundation

/// Copies an open file in fixed-size chunks, showing each chunk to an observer (to hash it on
/// the way, so recording or checking a file costs no second read): from the descriptor that was
/// checked, so a name swapped for a link after the check changes nothing. Memory does not grow
/// with the file.
public enum FileCopy {
    /// The size of the chunks read.
    public static let chunkSize = 1 << 18

    /// Copies `source` from its current position to its end into `destination` (nothing is
    /// written when it is nil: the observer alone sees the bytes); returns the bytes read.
    /// With a `limit`, stops once more than `limit` bytes were read: a file that grew past what
    /// was promised is told by the count, without reading it all.
    @discardableResult
    public static func copy(
        _ source: OpenFile, to destination: WritableFile?, limit: Int64? = nil,
        observe: (UnsafeRawBufferPointer) -> Void = { _ in }
    ) throws(FileSystemError) -> Int64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while limit.map({ total <= $0 }) ?? true {
            let room = limit.map { min(Int64(chunkSize), $0 + 1 - total) } ?? Int64(chunkSize)
            let count = try source.readChunk(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(room)]))
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            observe(chunk)
            try destination?.write(chunk)
            total += Int64(count)
        }
        return total
    }
}
