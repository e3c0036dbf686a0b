/// The two buffers one extraction reads and inflates through, allocated once and reused for
/// every entry: memory stays at their size whatever the entries' or the archive's.
final class ZipBuffers {
    /// Compressed (or stored) bytes read from the archive.
    let input: UnsafeMutableRawBufferPointer
    /// Inflated bytes on their way to the caller.
    let output: UnsafeMutableRawBufferPointer

    /// 1 MiB each by default: large reads and writes are what make stored entries (images) fast.
    init(size: Int = 1 << 20) {
        input = .allocate(byteCount: size, alignment: 16)
        output = .allocate(byteCount: size, alignment: 16)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }
}
