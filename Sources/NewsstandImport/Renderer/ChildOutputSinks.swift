import Foundation
import NewsstandImaging

/// The first `limit` bytes of a pipe; the rest is read and dropped, and noted.
final class BoundedBytes: ChildOutputSink {
    let limit: Int
    private(set) var bytes = Data()
    /// Whether the child wrote more than `limit` bytes.
    private(set) var overflowed = false

    init(limit: Int) { self.limit = limit }

    func receive(_ chunk: UnsafeRawBufferPointer) {
        let room = limit - bytes.count
        if chunk.count > room { overflowed = true }
        if room > 0 { bytes.append(contentsOf: chunk.prefix(room)) }
    }
}

/// A renderer's standard output and error, line by line: the messages its libraries logged
/// (``LibraryMessage``) and any other line a library printed itself. The first few of each kind
/// are kept and the rest counted, and a failure is noted wherever it comes, so that a flood of
/// poppler's complaints costs the parent no memory and hides nothing.
final class LibraryLog: ChildOutputSink {
    /// Lines kept, in order.
    private(set) var kept: [Line] = []
    /// Lines read past the ones kept.
    private(set) var more = 0
    /// The first message that says the render went wrong (see ``LibraryMessage/isFailure``).
    private(set) var failure: LibraryMessage?

    enum Line: Equatable {
        case message(LibraryMessage)
        /// A line a library printed to standard output or error itself.
        case printed(String)
    }

    static let keptLines = 5
    /// Longer lines are cut there.
    static let lineLimit = 1024

    private var partial = Data()

    func receive(_ chunk: UnsafeRawBufferPointer) {
        for byte in chunk {
            if byte == 0x0A {
                finishLine()
            } else if partial.count < Self.lineLimit {
                partial.append(byte)
            }
        }
    }

    /// Takes a last line without its line feed.
    func finish() {
        if !partial.isEmpty { finishLine() }
    }

    private func finishLine() {
        let text = String(decoding: partial, as: UTF8.self)
        partial.removeAll(keepingCapacity: true)
        let line: Line
        if let message = LibraryMessage(line: Substring(text)) {
            if message.isFailure, failure == nil { failure = message }
            line = .message(message)
        } else {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { return }
            line = .printed(trimmed)
        }
        if kept.count < Self.keptLines, !kept.contains(line) {
            kept.append(line)
        } else {
            more += 1
        }
    }
}
