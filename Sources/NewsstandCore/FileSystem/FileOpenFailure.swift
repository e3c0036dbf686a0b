import Foundation

/// Why a file or folder could not be opened the safe way (without following a link, and only
/// when it is of the kind asked for).
public enum FileOpenFailure: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Nothing has that name.
    case missing
    /// It is a symbolic link (to `target`, when it could be read).
    case symbolicLink(target: String?)
    /// It is there, but not of the kind asked for (`kind` is what it is).
    case wrongKind(EntryKind)
    /// The system refused (strerror's text).
    case system(String)

    public var description: String { reason }
    public var errorDescription: String? { reason }

    /// A phrase for messages: "it is a symbolic link (to '/etc/passwd')".
    public var reason: String {
        switch self {
        case .missing: return "it does not exist"
        case .symbolicLink(let target): return "it is a symbolic link" + (target.map { " (to '\($0)')" } ?? "")
        case .wrongKind(let kind): return "it is \(kind.description)"
        case .system(let message): return message
        }
    }

    /// The failure for a system call's `errno`.
    public static func fromErrno(_ code: Int32 = errno) -> FileOpenFailure {
        code == ENOENT ? .missing : .system(String(cString: strerror(code)))
    }
}

/// What a folder entry is, as `lstat` says (links are not followed).
public enum EntryKind: Equatable, Sendable, CustomStringConvertible {
    case regularFile
    case folder
    case symbolicLink
    case fifo
    case socket
    case device
    case unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .folder
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR, S_IFBLK: self = .device
        default: self = .unknown
        }
    }

    /// "a folder", "a FIFO", … for messages.
    public var description: String {
        switch self {
        case .regularFile: return "a regular file"
        case .folder: return "a folder"
        case .symbolicLink: return "a symbolic link"
        case .fifo: return "a FIFO"
        case .socket: return "a socket"
        case .device: return "a device"
        case .unknown: return "not a regular file"
        }
    }
}
