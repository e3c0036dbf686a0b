import Foundation
import NewsstandCore
import NewsstandFormat

/// Copies an open file in fixed-size chunks, showing each chunk to an observer: from the
/// descriptor that was checked, so a name swapped for a link after the check changes nothing.
enum FileCopier {
    static let chunkSize = 1 << 18

    /// Copies `source` from its current position to the end into `destination` (a descriptor
    /// open for writing); returns the bytes copied.
    @discardableResult
    static func copy(_ source: OpenFile, to destination: Int32, observe: (UnsafeRawBufferPointer) -> Void) throws -> Int64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let count = try source.readChunk(into: buffer)
            if count == 0 { return total }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            observe(chunk)
            var offset = 0
            while offset < count {
                let written = write(destination, chunk.baseAddress! + offset, count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw FileOpenFailure.fromErrno() }
                offset += written
            }
            total += Int64(count)
        }
    }
}
