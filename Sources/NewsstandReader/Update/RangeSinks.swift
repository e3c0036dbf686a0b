import Foundation
import NewsstandCore

/// What a range sink learned about the server beyond success or failure: a 200 means the server
/// ignores `Range` (the update falls back to the whole bundle); a refused multipart body means
/// one range per request.
enum RangeAnswer: Sendable, Equatable {
    case usable
    case ignoresRanges
    case refused(String)
}

/// `Content-Range: bytes <first>-<last>/<total>` for `range` of a file of `total` bytes: the
/// only value a 206 for that range may carry.
func contentRange(_ range: Range<Int64>, total: Int64) -> String {
    "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(total)"
}

/// Passes a 206; a 200 means the server ignores `Range` (`answer`), any other status fails.
func checkPartial(_ head: HTTPHead, answer: inout RangeAnswer) throws(TransferFailure) {
    if head.status == 200 {
        answer = .ignoresRanges
        throw .rejected
    }
    guard head.status == 206 else { throw .httpStatus(head.status) }
}

/// Takes a 206 for one range of the new bundle and appends its bytes to the spool file. The
/// answer must be exactly the range asked of a file of exactly the index's size; a body longer
/// than the range is cut at once, a shorter one fails the request.
final class SingleRangeSink: ResponseSink, @unchecked Sendable {  // one transfer, one thread at a time
    private let range: Range<Int64>
    private let total: Int64
    private let file: WritableFile
    private let received: @Sendable (Int64) -> Void
    private var written: Int64 = 0
    private(set) var answer = RangeAnswer.usable

    init(range: Range<Int64>, total: Int64, file: WritableFile, received: @escaping @Sendable (Int64) -> Void) {
        self.range = range
        self.total = total
        self.file = file
        self.received = received
    }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        try checkPartial(head, answer: &answer)
        let expected = contentRange(range, total: total)
        guard let value = head.value("Content-Range")?.trimmingCharacters(in: .whitespaces), value == expected else {
            let reason = "asked \(expected), the 206 says \(head.value("Content-Range").map { "'\($0)'" } ?? "nothing")"
            answer = .refused(reason)
            throw .badResponse(reason)
        }
        if let length = head.contentLength, length != Int64(range.count) {
            answer = .refused("Content-Length \(length) for a range of \(range.count) bytes")
            throw .tooLarge(limit: Int64(range.count))
        }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        guard written + Int64(chunk.count) <= Int64(range.count) else { throw .tooLarge(limit: Int64(range.count)) }
        do { try file.write(chunk) } catch { throw .file(error) }
        written += Int64(chunk.count)
        received(Int64(chunk.count))
    }

    func finish() throws(TransferFailure) {
        guard written == Int64(range.count) else {
            throw .network(code: 0, reason: "connection closed after \(written) of \(range.count) bytes of the range")
        }
    }

    func close() {}
}

/// Takes a `multipart/byteranges` 206 for several ranges of the new bundle, parsed strictly as
/// it streams: each part opens with the boundary, carries the `Content-Range` of the next range
/// asked (in order, of a file of the index's size) and exactly its bytes, and the body closes
/// with the closing boundary after the last. Anything else refuses the body (the fetcher then
/// asks one range per request). Part heads are capped (4 KiB); the body as a whole may not pass
/// the ranges' bytes plus 1 KiB of framing per part.
final class MultipartRangeSink: ResponseSink, @unchecked Sendable {  // one transfer, one thread at a time
    private enum State {
        case head
        case data(remaining: Int64)
        case closed
    }

    private let ranges: [Range<Int64>]
    private let total: Int64
    private let file: WritableFile
    private let received: @Sendable (Int64) -> Void
    private let cap: Int64
    private var delimiter: [UInt8] = []
    private var state = State.head
    private var head: [UInt8] = []
    private var part = 0
    private var bodyBytes: Int64 = 0
    private(set) var answer = RangeAnswer.usable
    static let maxHeadBytes = 4096

    init(ranges: [Range<Int64>], total: Int64, file: WritableFile, received: @escaping @Sendable (Int64) -> Void) {
        self.ranges = ranges
        self.total = total
        self.file = file
        self.received = received
        cap = ranges.reduce(0) { $0 + Int64($1.count) } + Int64(ranges.count + 1) * 1024
    }

    private func refuse(_ reason: String) -> TransferFailure {
        answer = .refused(reason)
        return .badResponse("multipart answer refused: \(reason)")
    }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        try checkPartial(head, answer: &answer)
        guard let type = head.value("Content-Type"), let boundary = Self.boundary(in: type) else {
            throw refuse("asked \(ranges.count) ranges, the 206 is not multipart/byteranges with a boundary")
        }
        delimiter = Array("--\(boundary)".utf8)
        if let length = head.contentLength, length > cap { throw refuse("Content-Length \(length) is more than \(cap)") }
    }

    /// The `boundary` parameter of a `multipart/byteranges` type (RFC 2046: 1 to 70 characters).
    static func boundary(in type: String) -> String? {
        let parts = type.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, first.lowercased() == "multipart/byteranges" else { return nil }
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "="),
                parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "boundary"
            else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
            return value
        }
        return nil
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        bodyBytes += Int64(chunk.count)
        guard bodyBytes <= cap else { throw refuse("the body is longer than its ranges and their framing (\(cap) bytes)") }
        var index = 0
        while index < chunk.count {
            switch state {
            case .data(let remaining):
                let count = Int(min(remaining, Int64(chunk.count - index)))
                do {
                    try file.write(UnsafeRawBufferPointer(rebasing: chunk[index..<(index + count)]))
                } catch {
                    throw .file(error)
                }
                received(Int64(count))
                index += count
                if remaining == Int64(count) {
                    part += 1
                    state = .head
                } else {
                    state = .data(remaining: remaining - Int64(count))
                }
            case .head:
                head.append(chunk[index])
                index += 1
                guard head.count <= Self.maxHeadBytes else {
                    throw refuse("a part's head is longer than \(Self.maxHeadBytes) bytes")
                }
                try advanceHead()
            case .closed:
                // Only the line end after the closing boundary may follow.
                head.append(chunk[index])
                index += 1
                guard head.count <= 2, head == Array([13, 10].prefix(head.count)) else {
                    throw refuse("bytes follow the closing boundary")
                }
            }
        }
    }

    /// Reads the head collected so far: the delimiter (after a line end, which the first part
    /// may omit), then `--` (the end) or a line end, header lines and an empty line.
    private func advanceHead() throws(TransferFailure) {
        let crlf: [UInt8] = [13, 10]
        if part == 0, head.count < 2 { return }
        let start = (part == 0 && head.starts(with: [45, 45])) ? delimiter : crlf + delimiter
        if head.count <= start.count {
            guard start.starts(with: head) else { throw refuse("part \(part + 1) does not open with the boundary") }
            return
        }
        guard head.starts(with: start) else { throw refuse("part \(part + 1) does not open with the boundary") }
        guard head.count >= start.count + 2 else { return }
        let after = Array(head[start.count..<(start.count + 2)])
        if after == [45, 45] {
            guard part == ranges.count else { throw refuse("the body closes after \(part) of \(ranges.count) parts") }
            state = .closed
            head = []
            return
        }
        guard after == crlf else { throw refuse("part \(part + 1)'s boundary line has more after it") }
        guard head.count >= start.count + 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) else { return }
        guard part < ranges.count else { throw refuse("more parts than the \(ranges.count) ranges asked") }
        let text = String(decoding: head[(start.count + 2)...], as: UTF8.self)
        var range: String?
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw refuse("part \(part + 1) has a malformed header line") }
            if line[..<colon].lowercased() == "content-range" {
                guard range == nil else { throw refuse("part \(part + 1) has two Content-Range headers") }
                range = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        let expected = contentRange(ranges[part], total: total)
        guard range == expected else {
            throw refuse("part \(part + 1) should be \(expected), it says \(range.map { "'\($0)'" } ?? "nothing")")
        }
        head = []
        state = .data(remaining: Int64(ranges[part].count))
    }

    func finish() throws(TransferFailure) {
        guard case .closed = state else {
            throw .network(code: 0, reason: "the multipart body ended after \(part) of \(ranges.count) parts")
        }
    }

    func close() {}
}
