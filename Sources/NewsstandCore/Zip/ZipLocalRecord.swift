/// Reads one zip entry from its local record alone (local header, name, extra field, data), as
/// fetched with an HTTP `Range` request, without the central directory: the record must be the
/// one its `BundleIndex.Entry` describes (name, method, CRC-32 and sizes in the local header, no
/// data descriptor, data where the index says), and its bytes must inflate to exactly the
/// entry's size with the entry's CRC-32.
public enum ZipLocalRecord {
    /// Streams the uncompressed bytes of `entry`, whose local record starts at `offset` in
    /// `file`, to `body`, in order. Blocking; memory stays at two buffers of at most 1 MiB.
    /// - Throws: `ZipExtractionError` naming `file` and the offset; whatever `body` throws.
    public static func read(
        _ entry: BundleIndex.Entry, at offset: Int64, in file: OpenFile,
        _ body: (UnsafeRawBufferPointer) throws(ZipExtractionError) -> Void
    ) throws(ZipExtractionError) {
        let source = ZipSource(file: file, name: "\(file.path) (the record at \(offset))")
        func refuse(_ reason: String) -> ZipExtractionError {
            .corrupt(archive: source.name, reason: "'\(entry.name)': \(reason)")
        }
        let header = try ZipLocalHeader.read(source, at: offset)
        let name = ZipEntryName.decode(header.rawName, flags: header.flags, extra: header.extra)
        guard name == entry.name else { throw refuse("the record is of \(SafeRelativePath.quoted(name))") }
        if header.flags & 1 != 0 { throw .encrypted(archive: source.name, entry: entry.name) }
        let method = entry.method == .stored ? ZipEntryData.stored : ZipEntryData.deflated
        guard header.method == method else {
            throw header.method == ZipEntryData.stored || header.method == ZipEntryData.deflated
                ? refuse("the record's method is not the index's (\(entry.method.rawValue))")
                : .unsupportedMethod(archive: source.name, entry: entry.name, method: ZipMethodName.of(header.method))
        }
        guard !header.hasDataDescriptor else { throw refuse("the record keeps its sizes in a data descriptor") }
        guard header.crc32 == entry.crc32 else {
            throw refuse("the record's CRC-32 \(ZipCRC.hex(header.crc32)) is not the index's \(ZipCRC.hex(entry.crc32))")
        }
        guard header.compressedSize == entry.dataLength, header.uncompressedSize == entry.size else {
            throw refuse("the record's sizes are not the index's")
        }
        guard header.dataOffset - offset == entry.dataOffset - entry.headerOffset else {
            throw refuse("the record's data does not start where the index says")
        }
        guard let inflater = ZipInflater() else {
            throw .cannotOpen(archive: source.name, reason: "zlib could not allocate its state")
        }
        let data = ZipEntryData(
            source: source, name: entry.name, method: method, dataOffset: header.dataOffset, compressedSize: entry.dataLength,
            uncompressedSize: entry.size, crc32: entry.crc32)
        // One record: buffers no larger than it needs (a plist's record is a few KiB).
        let size = Int(min(1 << 20, max(4096, max(entry.size, entry.dataLength))))
        try data.stream(buffers: ZipBuffers(size: size), inflater: inflater, body)
    }
}
