import Foundation
import NewsstandCore

/// The `.part` file opened for a response: a 206 that continues the bytes on disk appends to
/// them; a 200 (a new file, a server that ignores ranges, or a file that changed) starts again
/// from zero; anything else is refused with the reason.
struct PartFile {
    let file: WritableFile
    /// Bytes already in the file before this response's body.
    let startSize: Int64
    /// The complete file's size, when the response says.
    let expected: Int64?
    /// Whether bytes from an earlier attempt were thrown away.
    let restarted: Bool

    /// Opens (or creates) the partial file for `head`, or says why the response cannot be used.
    static func open(for head: HTTPHead, url: URL, part: URL, offset: Int64) throws(TransferFailure) -> PartFile {
        switch head.status {
        case 206 where offset > 0:
            let range = head.value("Content-Range").flatMap(ContentRange.init)
            guard let range, range.start == offset else {
                PartMetadata.discard(part: part)
                throw .badResponse("Content-Range does not continue the partial file")
            }
            return PartFile(file: try writable(part, at: offset), startSize: offset, expected: range.total, restarted: false)
        case 200:
            let file = try writable(part, at: 0)
            let expected = head.contentLength
            do {
                try PartMetadata(url: url, validator: validator(of: head), expectedLength: expected).save(for: part)
            } catch {
                throw .file(error)
            }
            return PartFile(file: file, startSize: 0, expected: expected, restarted: offset > 0)
        case 416 where offset > 0:
            PartMetadata.discard(part: part)
            throw .rangeNotSatisfiable
        default:
            throw .httpStatus(head.status)
        }
    }

    /// The `.part` file cut to `offset` and open for writing there; never through a link.
    private static func writable(_ part: URL, at offset: Int64) throws(TransferFailure) -> WritableFile {
        do {
            return try OpenFolder.open(part.deletingLastPathComponent()).openForWriting(part.lastPathComponent, at: offset)
        } catch {
            throw .file(error)
        }
    }

    /// The response's validator for a later `If-Range`: a strong ETag, else `Last-Modified`
    /// (the streamed download keeps the same).
    static func validator(of head: HTTPHead) -> String? {
        if let etag = head.value("ETag"), !etag.hasPrefix("W/") { return etag }
        return head.value("Last-Modified")
    }
}

/// `Content-Range: bytes <start>-<end>/<total>`.
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ header: String) {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard parts.count == 2, bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]) else {
            return nil
        }
        self.start = start
        self.end = end
        total = Int64(parts[1])
    }
}
