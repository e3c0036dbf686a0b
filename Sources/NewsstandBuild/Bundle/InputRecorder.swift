import Foundation
import NewsstandCore
import NewsstandFormat

/// Records an input file (size, modification time, SHA-256) while it is read for packing, so
/// that recording costs no extra read. The hash runs on its own thread and is collected with
/// `finish()` once the whole bundle is written, so packing never waits for it.
struct InputRecorder {
    let relative: String
    /// The file's modification time when it was opened.
    let modified: Double
    private let hasher = BackgroundHasher()
    private var size: Int64 = 0

    init(relative: String, modified: Double) {
        self.relative = relative
        self.modified = modified
    }

    /// Sees a chunk of the file as it is read.
    mutating func observe(_ chunk: UnsafeRawBufferPointer) {
        hasher.update(chunk)
        size += Int64(chunk.count)
    }

    /// The file's record, once every chunk has been hashed.
    func finish() -> InputRecord {
        InputRecord(path: relative, size: size, modified: modified, sha256: hasher.finalizeHex())
    }
}
