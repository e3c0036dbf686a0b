/// A block of a written archive as `ZipWriter`'s observer is shown it: final bytes, in file
/// order, read back from the file (`OutputFeed`), with the entry they belong to. Valid only
/// during the call that shows it.
public struct ZipOutputBlock {
    /// The bytes.
    public let bytes: UnsafeRawBufferPointer
    /// Where `bytes` start in the file.
    public let offset: Int64
    /// The entry whose local header and data these bytes are part of, by its place among the
    /// archive's entries (`ZipWriter.entries`); nil for the central directory and end records.
    public let entry: (index: Int, layout: ZipEntryLayout)?
    /// Whether this is the entry's last block (its data ends with it).
    public let endsEntry: Bool

    /// The part of `bytes` that is the entry's data as stored (for a stored entry, its content);
    /// empty for header bytes and the central directory.
    public var entryData: UnsafeRawBufferPointer {
        guard let layout = entry?.layout else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = max(offset, layout.dataOffset)
        let end = min(offset + Int64(bytes.count), layout.dataOffset + layout.compressedSize)
        guard start < end else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: bytes[Int(start - offset)..<Int(end - offset)])
    }
}
