import Foundation
import NewsstandCore

/// What a finished download task's file becomes before the sink sees it. The sink is always
/// given a complete body: a task that continued the part file (`Range: bytes=<offset>-` +
/// `If-Range`) finishes either with the rest (206: appended here to the part file, which is
/// then handed over whole, as a 200) or with the whole file (200: it changed since the part was
/// written, so the part is discarded and the new body handed over). A task made from resume
/// data ends with the system's whole file and the 206 of its last request: handed over as a
/// 200 when the file is as long as that 206's `Content-Range` says the whole is. Any other
/// status goes to the sink as it came, with its body (it refuses a 404's error page).
enum BackgroundSessionFinish {
    /// What to tell the sink.
    enum Outcome: Equatable {
        /// `finished` with `file` and `status`.
        case handOver(URL, status: Int?)
        /// `failed`: the file is not handed over.
        case fail(TransferFailure)
    }

    /// Resolves the task's file at `location` with response `head`.
    /// - Parameters:
    ///   - offset: the part bytes the request continued (`BackgroundSessionRequest.offset`), 0 for none.
    ///   - part: the transfer's part file (touched only when `offset` is not 0).
    ///   - limit: the most bytes the whole file may have.
    static func resolve(_ location: URL, head: HTTPHead?, offset: Int64, part: URL, limit: Int64) -> Outcome {
        let status = head?.status
        let range = head?.value("Content-Range").flatMap(ContentRange.init)
        guard offset > 0 else {
            if status == 206 {
                // A task made from resume data: the system joined the bytes it had with the rest,
                // and its response is the last request's. Whole when the file is as long as the
                // range says the whole is; any other 206 is only a part.
                guard let total = range?.total, range?.end == total - 1, FileStatus.size(of: location) == total else {
                    return .fail(.badResponse("a partial response to a request for the whole file"))
                }
                return checked(location, status: 200, limit: limit)
            }
            return checked(location, status: status, limit: limit)
        }
        switch status {
        case 206?:
            return join(location, range: range, offset: offset, part: part, limit: limit)
        case 200?:
            // If-Range did not match: the file changed, and this is all of the new one.
            PartMetadata.discard(part: part)
            return checked(location, status: 200, limit: limit)
        case 416?:
            PartMetadata.discard(part: part)
            return .fail(.rangeNotSatisfiable)
        default:
            // The server refused the bundle (the in-process download drops its part then too).
            PartMetadata.discard(part: part)
            return .handOver(location, status: status)
        }
    }

    /// A whole body within the limit is handed over; an error page goes as it is, to be refused.
    private static func checked(_ location: URL, status: Int?, limit: Int64) -> Outcome {
        if status == 200, let size = FileStatus.size(of: location), size > limit { return .fail(.tooLarge(limit: limit)) }
        return .handOver(location, status: status)
    }

    /// Appends the rest at `location` to the part file, when it is exactly what follows the
    /// part's bytes (`range`: the 206's `Content-Range`), and hands the part over as the whole file.
    private static func join(_ location: URL, range: ContentRange?, offset: Int64, part: URL, limit: Int64) -> Outcome {
        let rest = FileStatus.size(of: location)
        guard let range, let rest, range.start == offset, range.end - range.start + 1 == rest,
            range.total.map({ $0 == range.end + 1 }) ?? true, FileStatus.size(of: part) == offset,
            PartMetadata.load(for: part)?.expectedLength.map({ $0 == offset + rest }) ?? true
        else {
            PartMetadata.discard(part: part)
            return .fail(.badResponse("Content-Range does not continue the partial file"))
        }
        guard offset + rest <= limit else {
            PartMetadata.discard(part: part)
            return .fail(.tooLarge(limit: limit))
        }
        let copied: Int64
        do {
            let target = try OpenFolder.open(part.deletingLastPathComponent()).openForWriting(part.lastPathComponent, at: offset)
            copied = try FileCopy.copy(try OpenFile.open(location), to: target, limit: rest)
            try target.close()
        } catch {
            // A full disk, most likely: the part as it was stays usable for a later attempt.
            cut(part, to: offset)
            return .fail(.file(error))
        }
        guard copied == rest else {
            cut(part, to: offset)
            return .fail(.badResponse("the rest of the file changed while it was appended"))
        }
        return .handOver(part, status: 200)
    }

    /// Cuts the part file back to the bytes it had.
    private static func cut(_ part: URL, to offset: Int64) {
        _ = try? OpenFolder.open(part.deletingLastPathComponent()).openForWriting(part.lastPathComponent, at: offset)
    }
}
