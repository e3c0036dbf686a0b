/// Reads the central directory front to back through a window of at most 256 KiB, so that
/// memory follows one header (at most 46 bytes and three fields of 64 KiB), not the directory.
struct ZipDirectoryReader {
    let source: ZipSource
    /// The next byte to read.
    private(set) var offset: Int64
    /// Where the directory ends: nothing at or past it is read.
    let end: Int64
    private var window: [UInt8] = []
    private var windowStart: Int64 = 0

    static let windowSize = 256 << 10

    init(source: ZipSource, record: ZipEndRecord) {
        self.source = source
        offset = record.directoryOffset
        end = record.directoryOffset + record.directorySize
    }

    /// The next `count` bytes of the directory.
    mutating func bytes(_ count: Int, what: @autoclosure () -> String) throws(ZipExtractionError) -> [UInt8] {
        guard Int64(count) <= end - offset else {
            throw .corrupt(archive: source.name, reason: "\(what()) at \(offset) runs past the end of the central directory")
        }
        let windowEnd = windowStart + Int64(window.count)
        if offset < windowStart || offset + Int64(count) > windowEnd {
            let size = Int(max(Int64(count), min(Int64(Self.windowSize), end - offset)))
            window = try source.bytes(at: offset, count: size, what: "the central directory")
            windowStart = offset
        }
        let from = Int(offset - windowStart)
        offset += Int64(count)
        return Array(window[from..<from + count])
    }
}
