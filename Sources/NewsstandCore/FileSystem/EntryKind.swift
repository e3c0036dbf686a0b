import Foundation

/// What a folder entry is, as `lstat` says (links are not followed).
public enum EntryKind: Equatable, Sendable, CustomStringConvertible {
    /// A regular file.
    case regularFile
    /// A folder (directory).
    case folder
    /// A symbolic link (never followed).
    case symbolicLink
    /// A named pipe.
    case fifo
    /// A Unix domain socket.
    case socket
    /// A character or block device.
    case device
    /// Anything else `lstat` reports.
    case unknown

    /// The kind a `stat` mode gives.
    public init(mode: mode_t) {
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
        case .regularFile: "a regular file"
        case .folder: "a folder"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .device: "a device"
        case .unknown: "not a regular file"
        }
    }
}
