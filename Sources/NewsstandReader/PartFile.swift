import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `.part` file opened for a response: a 206 that continues the bytes on disk appends to
/// them; a 200 (a new file, a server that ignores ranges, or a file that changed) starts again
/// from zero; anything else is refused with the reason.
struct PartFile {
    let handle: FileHandle
    /// Bytes already in the file before this response's body.
    let startSize: Int64
    /// The complete file's size, when the response says.
    let expected: Int64?
    /// Whether bytes from an earlier attempt were thrown away.
    let restarted: Bool

    /// Opens (or creates) the partial file for `response`, or says why the response cannot be used.
    static func open(for response: HTTPURLResponse, url: URL, part: URL, offset: Int64) throws(TransferFailure) -> PartFile {
        do {
            switch response.statusCode {
            case 206 where offset > 0:
                let range = response.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init)
                guard let range, range.start == offset else {
                    PartMetadata.discard(part: part)
                    throw TransferFailure.badResponse("Content-Range does not continue the partial file")
                }
                let handle = try FileHandle(forWritingTo: part)
                try handle.truncate(atOffset: UInt64(offset))
                return PartFile(handle: handle, startSize: offset, expected: range.total, restarted: false)
            case 200:
                guard FileManager.default.createFile(atPath: part.path, contents: nil) else {
                    throw TransferFailure.file(path: part.path, reason: "cannot create the partial file")
                }
                let handle = try FileHandle(forWritingTo: part)
                let expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
                try PartMetadata(url: url, validator: validator(of: response), expectedLength: expected).save(for: part)
                return PartFile(handle: handle, startSize: 0, expected: expected, restarted: offset > 0)
            case 416 where offset > 0:
                PartMetadata.discard(part: part)
                throw TransferFailure.rangeNotSatisfiable
            default:
                throw TransferFailure.httpStatus(response.statusCode)
            }
        } catch let failure as TransferFailure {
            throw failure
        } catch {
            throw .file(path: part.path, reason: "\(error)")
        }
    }

    /// The response's validator for a later `If-Range`: a strong ETag, else `Last-Modified`.
    private static func validator(of response: HTTPURLResponse) -> String? {
        if let etag = response.value(forHTTPHeaderField: "ETag"), !etag.hasPrefix("W/") { return etag }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }
}
