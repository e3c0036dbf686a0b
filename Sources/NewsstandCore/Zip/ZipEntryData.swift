/// One entry's data, streamed to the caller in order through bounded buffers: stored bytes as
/// they are read, DEFLATE through zlib. The data may not inflate past the size the records
/// declare (checked as it is produced, before the caller sees it), must reach that size, and
/// must have the CRC-32 the records state.
struct ZipEntryData {
    /// Stored (0) and DEFLATE (8), the only methods read.
    static let stored: UInt16 = 0
    static let deflated: UInt16 = 8

    let source: ZipSource
    /// The entry's name, for errors.
    let name: String
    let method: UInt16
    let dataOffset: Int64
    let compressedSize: Int64
    let uncompressedSize: Int64
    let crc32: UInt32

    /// Streams the uncompressed bytes to `body`.
    func stream(
        buffers: ZipBuffers, inflater: ZipInflater, _ body: (UnsafeRawBufferPointer) throws(ZipExtractionError) -> Void
    ) throws(ZipExtractionError) {
        var crc = ZipCRC()
        let produced: Int64
        switch method {
        case Self.stored:
            guard compressedSize == uncompressedSize else {
                throw corrupt("is stored with \(compressedSize) bytes but declares \(uncompressedSize)")
            }
            produced = try copyStored(buffers: buffers, crc: &crc, body)
        case Self.deflated:
            produced = try inflate(buffers: buffers, inflater: inflater, crc: &crc, body)
        default:
            throw .unsupportedMethod(archive: source.name, entry: name, method: ZipMethodName.of(method))
        }
        guard produced == uncompressedSize else {
            throw corrupt("has \(produced) bytes, its records declare \(uncompressedSize)")
        }
        guard crc.value == crc32 else {
            throw .checksumMismatch(archive: source.name, entry: name, expected: crc32, actual: crc.value)
        }
    }

    private func corrupt(_ reason: String) -> ZipExtractionError {
        .corrupt(archive: source.name, reason: "\(SafeRelativePath.quoted(name)) \(reason)")
    }

    /// Reads the next compressed chunk (at most what is left of the entry) into the input buffer.
    private func readChunk(_ buffers: ZipBuffers, at offset: Int64, remaining: Int64) throws(ZipExtractionError) -> Int {
        let wanted = Int(min(Int64(buffers.input.count), remaining))
        let chunk = UnsafeMutableRawBufferPointer(rebasing: buffers.input[0..<wanted])
        guard try source.read(into: chunk, at: offset) == wanted else { throw corrupt("is cut short by the end of the archive") }
        return wanted
    }

    private func copyStored(
        buffers: ZipBuffers, crc: inout ZipCRC, _ body: (UnsafeRawBufferPointer) throws(ZipExtractionError) -> Void
    ) throws(ZipExtractionError) -> Int64 {
        var done: Int64 = 0
        while done < compressedSize {
            let count = try readChunk(buffers, at: dataOffset + done, remaining: compressedSize - done)
            let bytes = UnsafeRawBufferPointer(rebasing: buffers.input[0..<count])
            crc.update(bytes)
            try body(bytes)
            done += Int64(count)
        }
        return done
    }

    private func inflate(
        buffers: ZipBuffers, inflater: ZipInflater, crc: inout ZipCRC,
        _ body: (UnsafeRawBufferPointer) throws(ZipExtractionError) -> Void
    ) throws(ZipExtractionError) -> Int64 {
        inflater.reset()
        var read: Int64 = 0
        var pending = 0..<0
        var produced: Int64 = 0
        while true {
            if pending.isEmpty, read < compressedSize {
                let count = try readChunk(buffers, at: dataOffset + read, remaining: compressedSize - read)
                read += Int64(count)
                pending = 0..<count
            }
            let step: ZipInflater.Step
            switch inflater.inflate(UnsafeRawBufferPointer(rebasing: buffers.input[pending]), into: buffers.output) {
            case .success(let value): step = value
            case .failure(let failure): throw corrupt("cannot be inflated: \(failure.message)")
            }
            pending = pending.lowerBound + step.consumed..<pending.upperBound
            guard Int64(step.produced) <= uncompressedSize - produced else {
                throw corrupt("inflates past its declared size of \(uncompressedSize) bytes")
            }
            if step.produced > 0 {
                let bytes = UnsafeRawBufferPointer(rebasing: buffers.output[0..<step.produced])
                crc.update(bytes)
                try body(bytes)
                produced += Int64(step.produced)
            }
            if step.finished { return produced }
            if step.consumed == 0, step.produced == 0, pending.isEmpty, read == compressedSize {
                throw corrupt("ends before its DEFLATE stream does")
            }
        }
    }
}
