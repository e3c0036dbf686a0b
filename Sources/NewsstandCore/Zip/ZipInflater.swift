import CZlib

/// One zlib stream inflating raw DEFLATE (zip's method 8), reset for each entry. zlib keeps
/// pointers into its `z_stream`, so the stream lives at a fixed address of its own.
final class ZipInflater {
    private let stream: UnsafeMutablePointer<z_stream>

    /// What one call did.
    struct Step {
        var consumed: Int
        var produced: Int
        /// The DEFLATE stream's last block was inflated.
        var finished: Bool
    }

    /// Nil when zlib cannot allocate its state.
    init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init_raw(stream) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Starts a new entry.
    func reset() { inflateReset(stream) }

    /// Inflates what it can of `input` into `output`; a failure is zlib's message.
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Result<Step, ZlibFailure> {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        let step = Step(
            consumed: input.count - Int(stream.pointee.avail_in), produced: output.count - Int(stream.pointee.avail_out),
            finished: status == Z_STREAM_END)
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        switch status {
        case Z_OK, Z_STREAM_END, Z_BUF_ERROR: return .success(step)
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            return .failure(ZlibFailure(message: message))
        }
    }

    /// zlib's reason for refusing a stream ("invalid distance too far back").
    struct ZlibFailure: Error {
        var message: String
    }
}
