import Foundation
import NewsstandCore

/// Streams a bundle's body into its `.part` file and reports progress. It never takes more
/// than the size the catalog states: a larger `Content-Length` or `Content-Range` total is
/// refused before the first byte, and a body that runs past it is cut at once.
final class PartFileSink: ResponseSink, @unchecked Sendable {
    private let url: URL
    private let part: URL
    private let offset: Int64
    private let limit: Int64?
    private let progress: @Sendable (Int64, Int64?) -> Void
    private var file: PartFile?
    private var fileSize: Int64 = 0
    private var received: Int64 = 0
    private var lastReported: Int64 = 0
    private var restarted = false

    /// - Parameters:
    ///   - offset: bytes already in the `.part` file, asked to be continued with `Range`.
    ///   - limit: the size the catalog states, when it does.
    init(url: URL, part: URL, offset: Int64, limit: Int64?, progress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.url = url
        self.part = part
        self.offset = offset
        self.limit = limit
        self.progress = progress
    }

    /// What the attempt brought, once the transport returned without a failure.
    var outcome: ResumableDownload.Outcome {
        .init(size: fileSize, bytesTransferred: received, restarted: restarted)
    }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        let opened = try PartFile.open(for: head, url: url, part: part, offset: offset)
        file = opened
        fileSize = opened.startSize
        lastReported = fileSize
        restarted = opened.restarted
        if let limit, let total = opened.expected, total > limit { throw .tooLarge(limit: limit) }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        guard let file else { return }
        if let limit, fileSize + Int64(chunk.count) > limit { throw .tooLarge(limit: limit) }
        do {
            try file.file.write(chunk)
        } catch {
            throw .file(error)
        }
        fileSize += Int64(chunk.count)
        received += Int64(chunk.count)
        let step = max(64 << 10, (file.expected ?? 0) / 200)
        if fileSize - lastReported >= step {
            lastReported = fileSize
            progress(fileSize, file.expected)
        }
    }

    func finish() throws(TransferFailure) {
        guard let file else { throw .badResponse("no response") }
        if let expected = file.expected, fileSize != expected {
            throw .network(code: 0, reason: "connection closed after \(fileSize) of \(expected) bytes")
        }
        if fileSize != lastReported { progress(fileSize, file.expected) }
    }

    func close() {
        try? file?.file.close()
        file = nil
    }
}
