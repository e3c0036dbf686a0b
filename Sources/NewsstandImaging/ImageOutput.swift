import Foundation

/// Where an operation writes its result.
public enum ImageOutput: Sendable, Equatable {
    /// A new file: created with `O_CREAT | O_EXCL | O_NOFOLLOW` (an existing file or link there
    /// is an error, never replaced or followed), mode 0644, and removed again when the operation
    /// fails or has nothing to write. Write it under a temporary name and rename it into place.
    case newFile(String)
    /// A regular file the caller opened for reading and writing (`O_RDWR`: operations that
    /// check their output read it back); written from offset 0 and truncated to what was
    /// written. It is not closed. On failure its content is undefined.
    case descriptor(Int32, name: String)

    /// The path or name, for messages.
    public var name: String {
        switch self {
        case .newFile(let path): return path
        case .descriptor(_, let name): return name
        }
    }
}

/// An output opened for one operation.
final class OpenedOutput {
    let descriptor: Int32
    let name: String
    /// The path we created, and its identity, for removing exactly that file on failure.
    private let createdPath: String?
    private let createdIdentity: (dev_t, ino_t)?
    private var isKept = false

    init(_ output: ImageOutput) throws(ImagingError) {
        name = output.name
        switch output {
        case .newFile(let path):
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let code = errno
                let reason = code == EEXIST ? "it already exists" : String(cString: strerror(code))
                throw .cannotWrite(path: path, reason: reason)
            }
            var info = stat()
            fstat(fd, &info)
            descriptor = fd
            createdPath = path
            createdIdentity = (info.st_dev, info.st_ino)
        case .descriptor(let fd, let name):
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw .cannotWrite(path: name, reason: "it is not an open regular file")
            }
            descriptor = fd
            createdPath = nil
            createdIdentity = nil
        }
    }

    /// Makes the file exactly `length` bytes long (a descriptor may have held more) and keeps it.
    func keep(length: Int64) throws(ImagingError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw .cannotWrite(path: name, reason: String(cString: strerror(errno)))
        }
        isKept = true
    }

    /// Empties the file for another attempt.
    func reset() throws(ImagingError) {
        guard ftruncate(descriptor, 0) == 0 else {
            throw .cannotWrite(path: name, reason: String(cString: strerror(errno)))
        }
    }

    deinit {
        guard let createdPath else { return }
        close(descriptor)
        if !isKept, let (device, inode) = createdIdentity {
            // Remove what we created, and only that: not a file someone put there since.
            var info = stat()
            if lstat(createdPath, &info) == 0, info.st_dev == device, info.st_ino == inode {
                unlink(createdPath)
            }
        }
    }
}
