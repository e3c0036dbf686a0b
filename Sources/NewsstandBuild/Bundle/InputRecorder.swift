import Foundation
import NewsstandCore
import NewsstandFormat

/// Records an input file (size, times, XXH3) while it is read for packing, so that recording
/// costs no extra read. XXH3 runs inline: it is a change detector, many times faster than the
/// disk, where the SHA-256 this used to compute took a core of its own (bench/build).
struct InputRecorder {
    let relative: String
    /// The file's status when it was opened.
    let file: OpenFile
    private let hasher = XXH3()
    private var size: Int64 = 0

    init(relative: String, file: OpenFile) {
        self.relative = relative
        self.file = file
    }

    /// Sees a chunk of the file as it is read.
    mutating func observe(_ chunk: UnsafeRawBufferPointer) {
        hasher.update(chunk)
        size += Int64(chunk.count)
    }

    /// The file's record, once every chunk has been seen.
    func finish() -> InputRecord {
        InputRecord(path: relative, size: size, modified: file.modified, changed: file.changed, xxh3: hasher.finalizeHex())
    }
}
