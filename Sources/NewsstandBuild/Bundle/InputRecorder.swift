import Foundation
import NewsstandFormat

/// Records an input file (size, modification time, SHA-256) while it is being read for
/// another purpose, so that recording costs no extra read.
enum InputRecorder {
    /// Runs `read`, giving it an observer that hashes the bytes it reads, and returns the
    /// file's record.
    static func record(
        _ url: URL, relative: String, read: (@escaping (UnsafeRawBufferPointer) -> Void) throws -> Void
    ) throws -> InputRecord {
        let hasher = SHA256()
        var size: Int64 = 0
        try read { chunk in
            hasher.update(chunk)
            size += Int64(chunk.count)
        }
        let modified = (try? FileStatus.of(url))?.modified ?? 0
        return InputRecord(path: relative, size: size, modified: modified, sha256: hasher.finalizeHex())
    }
}

/// Size and modification time of a file, from one `stat`.
struct FileStatus: Equatable {
    var size: Int64
    var modified: Double

    static func of(_ url: URL) throws -> FileStatus {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return FileStatus(size: Int64(info.st_size), modified: modified)
    }
}
