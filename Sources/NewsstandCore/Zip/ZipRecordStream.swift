/// Where a `ZipRecordStream` puts each entry's bytes: told when an entry begins, given its
/// uncompressed bytes in order, and told when every check of it passed. An entry that fails a
/// check is never ended: the stream throws instead, and the output discards what it began.
public protocol ZipRecordStreamOutput: AnyObject {
    /// Entry `position` of the index (`entry`) begins.
    func begin(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError)
    /// The next uncompressed bytes of the entry begun last.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ZipExtractionError)
    /// The entry begun last is complete and checked: its local header is the index's (name,
    /// method, CRC-32, sizes, no data descriptor), its bytes have the index's size and SHA-256
    /// and the header's CRC-32.
    func end(_ entry: BundleIndex.Entry, position: Int) throws(ZipExtractionError)
}

/// Reads a bundle's local records as its bytes arrive, in order, each one the record its
/// `BundleIndex` predicts: a push parser for a download that unpacks as it goes (nothing is read
/// back from a file, nothing is held but one local header and two bounded buffers).
///
/// The index must lay the records out back to back from the bundle's first byte (what
/// `newsstand build` writes: the first header at 0, each next header where the last record
/// ends); `init` refuses any other index, so every byte up to the last record's end belongs to
/// a record that is checked. The bytes after it (the central directory and the end records) are
/// counted up to the index's bundle size and must start with a central directory (or end of
/// central directory) signature; nothing past the bundle's size is taken.
///
/// Each record: its local header is gathered whole (its length is the index's
/// `data - header`, at most 30 + 2 × 65,535 bytes) and must be the index's entry (name, no
/// encryption, no data descriptor, method, CRC-32, sizes, and a header of exactly that length);
/// its data (exactly the index's length) is passed through (stored) or inflated by zlib
/// (DEFLATE), never past the entry's size; at its end the bytes must have the entry's size,
/// CRC-32 and SHA-256. Anything else throws `ZipExtractionError` naming the entry and the offset.
public final class ZipRecordStream {
    /// The index the bytes are checked against.
    public let index: BundleIndex
    /// The archive's name in errors.
    private let name: String
    /// The offset in the bundle of the next byte `feed` expects.
    public private(set) var position: Int64
    /// Entries read and checked (the first `checked` of the index).
    public private(set) var checked: Int

    private enum Phase {
        /// Gathering the local header of entry `checked`.
        case header
        /// Streaming the entry's data: `consumed` bytes of its stored data taken so far.
        case data(consumed: Int64)
        /// Every record is read: the central directory and end records follow.
        case tail
    }

    private var phase: Phase
    private var header: [UInt8] = []
    private var crc = ZipCRC()
    /// Each entry's SHA-256, on a thread of its own beside the parsing, CRC-32 and writes.
    private let digest: HashPipe
    private var produced: Int64 = 0
    private var finished = false
    private var tailStart: [UInt8] = []
    private let inflater: ZipInflater
    private let output: UnsafeMutableRawBufferPointer

    /// Size of the inflater's output buffer.
    static let outputSize = 256 << 10

    /// A stream over `index`'s bundle from the end of its first `checked` records (0: from the
    /// bundle's first byte).
    /// - Throws: `ZipExtractionError.corrupt` when the index's records are not back to back from
    ///   the first byte (this stream cannot check such a bundle), or `checked` is out of range.
    public init(index: BundleIndex, checked: Int = 0, name: String) throws(ZipExtractionError) {
        guard let inflater = ZipInflater() else { throw .cannotOpen(archive: name, reason: "zlib could not allocate its state") }
        var end: Int64 = 0
        for entry in index.entries {
            guard entry.headerOffset == end else {
                throw .corrupt(
                    archive: name,
                    reason:
                        "the index's record of \(SafeRelativePath.quoted(entry.name)) starts at \(entry.headerOffset), not where the last one ends (\(end))"
                )
            }
            end = entry.recordRange.upperBound
        }
        // The end of central directory record alone is 22 bytes.
        guard checked >= 0, checked <= index.entries.count, index.bundleSize - end >= 22 else {
            throw .corrupt(archive: name, reason: "the index leaves no room for a central directory after its records")
        }
        self.index = index
        self.name = name
        self.inflater = inflater
        self.checked = checked
        position = checked == 0 ? 0 : index.entries[checked - 1].recordRange.upperBound
        phase = checked == index.entries.count ? .tail : .header
        output = .allocate(byteCount: Self.outputSize, alignment: 16)
        digest = HashPipe { SHA256() }
    }

    deinit {
        digest.close()
        output.deallocate()
    }

    /// Whether every record is read and checked and every byte of the bundle was taken.
    public var isComplete: Bool {
        if case .tail = phase { return position == index.bundleSize }
        return false
    }

    /// Takes the next bytes of the bundle (those at `position`), giving each entry's bytes to
    /// `output` as they come.
    public func feed(_ bytes: UnsafeRawBufferPointer, to output: some ZipRecordStreamOutput) throws(ZipExtractionError) {
        var rest = bytes
        while !rest.isEmpty {
            let taken: Int
            switch phase {
            case .header: taken = try gatherHeader(rest, output)
            case .data(let consumed): taken = try streamData(rest, consumed: consumed, output)
            case .tail: taken = try takeTail(rest)
            }
            position += Int64(taken)
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
    }

    /// Throws unless the bundle is complete (`isComplete`).
    public func finish() throws(ZipExtractionError) {
        guard isComplete else {
            throw .corrupt(archive: name, reason: "the bundle ends at \(position) of \(index.bundleSize) bytes")
        }
    }

    private var entry: BundleIndex.Entry { index.entries[checked] }

    private func refuse(_ reason: String) -> ZipExtractionError {
        .corrupt(archive: name, reason: "\(SafeRelativePath.quoted(entry.name)) (the record at \(entry.headerOffset)): \(reason)")
    }

    private func gatherHeader(_ bytes: UnsafeRawBufferPointer, _ output: some ZipRecordStreamOutput) throws(ZipExtractionError)
        -> Int
    {
        let length = Int(entry.dataOffset - entry.headerOffset)
        let taken = min(bytes.count, length - header.count)
        header.append(contentsOf: bytes[0..<taken])
        if header.count == length {
            try checkHeader()
            header = []
            crc = ZipCRC()
            produced = 0
            finished = false
            inflater.reset()
            try output.begin(entry, position: checked)
            phase = .data(consumed: 0)
            if entry.dataLength == 0 { try endEntry(output) }
        }
        return taken
    }

    /// The gathered header must be the index's entry, and exactly as long as the index says.
    private func checkHeader() throws(ZipExtractionError) {
        func malformed(_ problem: ZipLocalHeader.Malformed) -> ZipExtractionError {
            switch problem {
            case .noSignature: refuse("no local header signature")
            case .cutShort: refuse("the local header is cut short")
            case .extraPastEnd: refuse("the extra field runs past its end")
            }
        }
        let fixed: ZipLocalHeader.Fixed
        do throws(ZipLocalHeader.Malformed) {
            fixed = try ZipLocalHeader.Fixed(Array(header.prefix(ZipLocalHeader.fixedSize)))
        } catch {
            throw malformed(error)
        }
        guard ZipLocalHeader.fixedSize + fixed.variableLength == header.count else {
            throw refuse("the local header's length is not the index's")
        }
        let local: ZipLocalHeader
        do throws(ZipLocalHeader.Malformed) {
            local = try ZipLocalHeader(
                fixed, variable: Array(header.dropFirst(ZipLocalHeader.fixedSize)), at: entry.headerOffset)
        } catch {
            throw malformed(error)
        }
        let decoded = ZipEntryName.decode(local.rawName, flags: local.flags, extra: local.extra)
        guard decoded == entry.name else { throw refuse("the record is of \(SafeRelativePath.quoted(decoded))") }
        if local.flags & 1 != 0 { throw .encrypted(archive: name, entry: entry.name) }
        guard !local.hasDataDescriptor else { throw refuse("the record keeps its sizes in a data descriptor") }
        let expected = entry.method == .stored ? ZipEntryData.stored : ZipEntryData.deflated
        guard local.method == expected else {
            throw local.method == ZipEntryData.stored || local.method == ZipEntryData.deflated
                ? refuse("the record's method is not the index's (\(entry.method.rawValue))")
                : .unsupportedMethod(archive: name, entry: entry.name, method: ZipMethodName.of(local.method))
        }
        guard local.crc32 == entry.crc32 else {
            throw refuse("the record's CRC-32 \(ZipCRC.hex(local.crc32)) is not the index's \(ZipCRC.hex(entry.crc32))")
        }
        guard local.uncompressedSize == entry.size, local.compressedSize == entry.dataLength else {
            throw refuse("the record's sizes are not the index's")
        }
    }

    private func streamData(
        _ bytes: UnsafeRawBufferPointer, consumed: Int64, _ output: some ZipRecordStreamOutput
    ) throws(ZipExtractionError) -> Int {
        let taken = Int(min(Int64(bytes.count), entry.dataLength - consumed))
        let input = UnsafeRawBufferPointer(rebasing: bytes[0..<taken])
        switch entry.method {
        case .stored:
            try emit(input, output)
        case .deflated:
            try inflate(input, output)
        }
        let now = consumed + Int64(taken)
        phase = .data(consumed: now)
        if now == entry.dataLength { try endEntry(output) }
        return taken
    }

    private func inflate(_ input: UnsafeRawBufferPointer, _ output: some ZipRecordStreamOutput) throws(ZipExtractionError) {
        var pending = input
        while !pending.isEmpty {
            if finished { throw refuse("its DEFLATE stream ends before its data does") }
            let step: ZipInflater.Step
            switch inflater.inflate(pending, into: self.output) {
            case .success(let value): step = value
            case .failure(let failure): throw refuse("it cannot be inflated: \(failure.message)")
            }
            pending = UnsafeRawBufferPointer(rebasing: pending[step.consumed...])
            if step.produced > 0 {
                try emit(UnsafeRawBufferPointer(rebasing: self.output[0..<step.produced]), output)
            }
            if step.finished { finished = true }
            if step.consumed == 0, step.produced == 0, !step.finished { throw refuse("zlib made no progress") }
        }
    }

    private func emit(_ bytes: UnsafeRawBufferPointer, _ output: some ZipRecordStreamOutput) throws(ZipExtractionError) {
        guard Int64(bytes.count) <= entry.size - produced else {
            throw refuse("it inflates past its size of \(entry.size) bytes")
        }
        produced += Int64(bytes.count)
        crc.update(bytes)
        digest.update(bytes)
        try output.write(bytes)
    }

    private func endEntry(_ output: some ZipRecordStreamOutput) throws(ZipExtractionError) {
        if entry.method == .deflated {
            // All input given: what zlib still holds comes out with no more input.
            while !finished {
                let step: ZipInflater.Step
                switch inflater.inflate(UnsafeRawBufferPointer(start: nil, count: 0), into: self.output) {
                case .success(let value): step = value
                case .failure(let failure): throw refuse("it cannot be inflated: \(failure.message)")
                }
                if step.produced > 0 { try emit(UnsafeRawBufferPointer(rebasing: self.output[0..<step.produced]), output) }
                if step.finished {
                    finished = true
                } else if step.produced == 0 {
                    throw refuse("its DEFLATE stream is cut short")
                }
            }
        }
        guard produced == entry.size else { throw refuse("it has \(produced) bytes, the index says \(entry.size)") }
        guard crc.value == entry.crc32 else {
            throw .checksumMismatch(archive: name, entry: entry.name, expected: entry.crc32, actual: crc.value)
        }
        let sha256 = digest.digest()
        guard sha256 == entry.sha256 else { throw refuse("its SHA-256 is \(sha256), the index says \(entry.sha256)") }
        try output.end(entry, position: checked)
        checked += 1
        phase = checked == index.entries.count ? .tail : .header
    }

    private func takeTail(_ bytes: UnsafeRawBufferPointer) throws(ZipExtractionError) -> Int {
        guard Int64(bytes.count) <= index.bundleSize - position else {
            throw .corrupt(archive: name, reason: "bytes run on past the bundle's size of \(index.bundleSize)")
        }
        if tailStart.count < 4 {
            tailStart.append(contentsOf: bytes.prefix(4 - tailStart.count))
            if tailStart.count == 4 {
                var fields = ZipFields(tailStart)
                let signature = try? fields.u32()
                guard signature == ZipSignature.centralHeader || signature == ZipSignature.endOfCentralDirectory else {
                    throw .corrupt(
                        archive: name, reason: "the bytes after the last record (at \(position)) are not a central directory")
                }
            }
        }
        return bytes.count
    }
}
