import Foundation

/// Copies a file in fixed-size chunks, showing each chunk to an observer.
enum FileCopier {
    static func copy(_ source: URL, to destination: URL, observe: (UnsafeRawBufferPointer) -> Void) throws {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        while let chunk = try input.read(upToCount: 1 << 18), !chunk.isEmpty {
            chunk.withUnsafeBytes { observe($0) }
            try output.write(contentsOf: chunk)
        }
    }
}
