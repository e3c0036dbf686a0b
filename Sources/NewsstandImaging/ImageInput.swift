import Foundation

/// Where an operation reads a file from.
///
/// The engine reads with `pread` at offsets of its own, so one open file can be read by several
/// operations at once (pages of one PDF rendered in parallel), and the descriptor's own offset
/// is neither used nor moved.
public enum ImageInput: Sendable, Equatable {
    /// A path, opened read-only without following a symbolic link in its last component
    /// (`O_NOFOLLOW`); it must be a regular file (a FIFO or device is refused without blocking).
    case path(String)
    /// A regular file the caller has opened (for example without following links, relative to
    /// an open folder); `name` is used in messages. It is not closed, and must stay open until
    /// the call returns.
    case descriptor(Int32, name: String)

    /// The path or name, for messages.
    public var name: String {
        switch self {
        case .path(let path): return path
        case .descriptor(_, let name): return name
        }
    }
}

/// An input opened for one operation; closes what it opened itself.
final class OpenedInput {
    let descriptor: Int32
    let name: String
    let size: Int64
    private let ownsDescriptor: Bool

    init(_ input: ImageInput) throws(ImagingError) {
        switch input {
        case .path(let path):
            // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else {
                let code = errno
                throw .cannotOpen(path: path, reason: code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code)))
            }
            descriptor = fd
            ownsDescriptor = true
        case .descriptor(let fd, _):
            descriptor = fd
            ownsDescriptor = false
        }
        name = input.name
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            if ownsDescriptor { close(descriptor) }
            throw .cannotOpen(path: name, reason: reason)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            if ownsDescriptor { close(descriptor) }
            throw .cannotOpen(path: name, reason: "it is not a regular file")
        }
        size = Int64(info.st_size)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file).
    func read(count: Int, at offset: Int64 = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }
}
