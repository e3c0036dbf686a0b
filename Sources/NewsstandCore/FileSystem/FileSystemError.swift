import Foundation

/// Why a file-system operation failed, with the path it concerns. Every operation of the file
/// layer (`OpenFolder`, `OpenFile`, `WritableFile`, `AtomicFile`, `FileCopy`, `FileLock`)
/// throws it; callers wrap it in their own errors as the cause.
public enum FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing has that name.
    case missing(path: String)
    /// A symbolic link is there (pointing at `target`, when it could be read) where `expected`
    /// was wanted: it is never followed.
    case symbolicLink(path: String, target: String?, expected: EntryKind)
    /// Something other than `expected` is there.
    case wrongKind(path: String, found: EntryKind, expected: EntryKind)
    /// `name` is not one entry of a folder (empty, `.`, `..`, or holding a `/` or NUL): a name
    /// that could leave the folder is refused whatever the caller checked before.
    case invalidName(path: String, name: String)
    /// A system call failed with `code` (an `errno` value).
    case system(path: String, code: Int32)

    /// The failure for the current `errno` at `path`: ENOENT is `.missing`.
    public static func fromErrno(_ path: String, _ code: Int32 = errno) -> FileSystemError {
        code == ENOENT ? .missing(path: path) : .system(path: path, code: code)
    }

    /// The path concerned.
    public var path: String {
        switch self {
        case .missing(let path), .symbolicLink(let path, _, _), .wrongKind(let path, _, _), .invalidName(let path, _),
            .system(let path, _):
            path
        }
    }

    /// The `errno` behind a system failure.
    public var code: Int32? {
        if case .system(_, let code) = self { code } else { nil }
    }

    /// A phrase for messages, without the path: "it is a symbolic link (to '/etc/passwd')",
    /// "No space left on device". Names read from the disk are quoted (`SafeRelativePath.quoted`).
    public var reason: String {
        switch self {
        case .missing: "it does not exist"
        case .symbolicLink(_, let target, _):
            "it is a symbolic link" + (target.map { " (to \(SafeRelativePath.quoted($0)))" } ?? "")
        case .wrongKind(_, let found, _): "it is \(found.description)"
        case .invalidName(_, let name): "\(SafeRelativePath.quoted(name)) is not a name in a folder"
        case .system(_, let code): String(cString: strerror(code))
        }
    }

    /// The path and what went wrong with it, for messages.
    public var description: String { "\(path): \(reason)" }

    /// Whether the file system is out of space for us: full (ENOSPC), over a quota (EDQUOT),
    /// or over the process's file-size limit (EFBIG, `ulimit -f`).
    public var isNoSpace: Bool {
        guard let code else { return false }
        return code == ENOSPC || code == EFBIG || code == EDQUOT
    }
}
