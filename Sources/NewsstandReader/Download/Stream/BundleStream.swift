import Foundation
import NewsstandCore

/// One streamed download of a bundle that has an index: the bytes go through a
/// `ZipRecordStream` (each local record checked against the index and unpacked into the
/// staging as it arrives) and, when the run started from the bundle's first byte, through the
/// whole bundle's digest too. It outlives each request: a request cut mid-way is continued by
/// the next one at the very byte where it stopped (`position`), the parser, the entry being
/// written and the digest all where they were, so nothing is fetched twice and the digest still
/// covers every byte. A run that continues an earlier run's staging starts at the end of the
/// last checked entry, without the whole bundle's digest (see `wholeDigest`).
final class BundleStream: @unchecked Sendable {  // safe: one transfer, one thread at a time (the issue's claim)
    /// Why the bytes cannot be installed by streaming: the library takes the `.part` path.
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// The bytes are not what the index says (a record, an entry's size, CRC-32 or SHA-256,
        /// the whole bundle's SHA-256).
        case mismatch(String)
        /// The server answered a range with the wrong part (a `Content-Range` that does not
        /// continue the bytes, or refused it: 416).
        case badRange(String)

        var description: String {
            switch self {
            case .mismatch(let reason): "the bundle does not match its index: \(reason)"
            case .badRange(let reason): "the server's answer to a resume cannot be used: \(reason)"
            }
        }
    }

    let index: BundleIndex
    let staging: StreamStaging
    private let hasher: any ContentHasher
    private(set) var parser: ZipRecordStream
    /// The whole bundle's digest, over every byte from the first, on a thread of its own: only
    /// when this run (or a `restart`) began at byte 0. A run that continues checked entries of an earlier one has
    /// none: a digest's state cannot be kept portably across processes (CryptoKit's cannot be
    /// saved), so such a run is verified by the index alone (docs/reader.md says what that is).
    private(set) var wholeDigest: HashPipe?
    /// Set when the stream cannot go on (the sink then throws `.rejected`).
    private(set) var problem: Problem?

    init(index: BundleIndex, staging: StreamStaging, checked: Int, hasher: any ContentHasher) throws(ZipExtractionError) {
        self.index = index
        self.staging = staging
        self.hasher = hasher
        parser = try ZipRecordStream(index: index, checked: checked, name: staging.folder.path)
        wholeDigest = checked == 0 ? Self.pipe(hasher) : nil
    }

    /// The configured hasher's digest on a thread of its own.
    private static func pipe(_ hasher: any ContentHasher) -> HashPipe {
        HashPipe { hasher.start() }
    }

    /// The next byte expected.
    var position: Int64 { parser.position }

    /// Back to byte 0: the checked entries are thrown away (a 200 answered a resume).
    func restart() throws(FileSystemError) {
        try staging.restart()
        do {
            parser = try ZipRecordStream(index: index, checked: 0, name: staging.folder.path)
        } catch {
            // The index was accepted once; it cannot be refused now.
            problem = .mismatch("\(error)")
        }
        wholeDigest?.close()
        wholeDigest = Self.pipe(hasher)
    }

    /// The run is over: the digest's thread ends, the entry being written is closed.
    func close() {
        wholeDigest?.close()
        staging.close()
    }

    /// Takes the next bytes.
    func feed(_ bytes: UnsafeRawBufferPointer) throws(TransferFailure) {
        if let problem { throw reject(problem) }
        guard Int64(bytes.count) <= index.bundleSize - position else { throw .tooLarge(limit: index.bundleSize) }
        wholeDigest?.update(bytes)
        do {
            try parser.feed(bytes, to: staging)
        } catch {
            if let failure = staging.fileFailure { throw .file(failure) }
            throw reject(.mismatch(error.description))
        }
    }

    /// Notes a problem and refuses the body.
    func reject(_ problem: Problem) -> TransferFailure {
        self.problem = problem
        return .rejected
    }

    /// After the last byte: the whole bundle's SHA-256 (when this run has it) must be the
    /// index's, which `IndexFetch` checked is the catalog's. Returns the bundle's SHA-256.
    func verify() -> Result<String, Problem> {
        do {
            try parser.finish()
        } catch {
            return .failure(.mismatch(error.description))
        }
        if let wholeDigest {
            let sha256 = wholeDigest.digest()
            wholeDigest.close()
            self.wholeDigest = nil
            guard sha256 == index.bundleSHA256 else {
                return .failure(.mismatch("the bundle's SHA-256 is \(sha256), the catalog says \(index.bundleSHA256)"))
            }
        }
        return .success(index.bundleSHA256)
    }
}

/// A response of a streamed download: checks the head against what was asked (a 206 must
/// continue at `position` with the index's total; a 200 starts again from the first byte; a
/// `Content-Length` or `Content-Range` past the bundle's size is refused before a byte), then
/// feeds the body to the `BundleStream`.
final class BundleStreamSink: ResponseSink, @unchecked Sendable {  // safe: one transfer, one thread at a time
    private let stream: BundleStream
    private let offset: Int64
    private let progress: @Sendable (Int64, Int64?) -> Void
    private var lastReported: Int64 = 0
    private var opened = false

    /// - Parameter offset: the byte asked for with `Range` (0: none asked).
    init(stream: BundleStream, offset: Int64, progress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.stream = stream
        self.offset = offset
        self.progress = progress
    }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        let size = stream.index.bundleSize
        switch head.status {
        case 206 where offset > 0:
            guard let range = head.value("Content-Range").flatMap(ContentRange.init), range.start == offset,
                range.end == size - 1, range.total == size
            else {
                throw stream.reject(
                    .badRange(
                        "Content-Range \(head.value("Content-Range") ?? "(none)") does not continue at \(offset) of \(size)"))
            }
            if let length = head.contentLength, length != size - offset {
                throw stream.reject(.badRange("Content-Length \(length) is not the \(size - offset) bytes asked"))
            }
        case 200:
            if let length = head.contentLength, length > size { throw .tooLarge(limit: size) }
            if let length = head.contentLength, length < size {
                throw stream.reject(.mismatch("the server sends \(length) bytes, the index's bundle has \(size)"))
            }
            do {
                if offset > 0 || stream.position > 0 { try stream.restart() }
                try stream.staging.remember(validator: PartFile.validator(of: head))
            } catch {
                throw .file(error)
            }
        case 416 where offset > 0:
            throw stream.reject(.badRange("the server refused the range (416)"))
        default:
            throw .httpStatus(head.status)
        }
        opened = true
        lastReported = stream.position
        progress(stream.position, size)
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        guard opened else { return }
        try stream.feed(chunk)
        let position = stream.position
        let step = max(64 << 10, stream.index.bundleSize / 200)
        if position - lastReported >= step {
            lastReported = position
            progress(position, stream.index.bundleSize)
        }
    }

    func finish() throws(TransferFailure) {
        guard opened else { throw .badResponse("no response") }
        let size = stream.index.bundleSize
        guard stream.position == size else {
            throw .network(code: 0, reason: "connection closed after \(stream.position) of \(size) bytes")
        }
        if stream.position != lastReported { progress(stream.position, size) }
    }

    func close() {}
}
