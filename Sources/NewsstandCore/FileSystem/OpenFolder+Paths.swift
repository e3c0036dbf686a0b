import Foundation

/// Relative paths below an open folder (`a-1/a-1.zip`), walked one component at a time with
/// links not followed: a symbolic link inside (`a-1 -> /etc`) is never read, written or deleted
/// through, whatever swapped it in and when. A component that is empty, `.` or `..` is refused,
/// whatever the caller checked before.
extension OpenFolder {
    /// The path of `relative` below this folder, for messages.
    public func path(at relative: String) -> String { path(of: relative) }

    /// The folder holding `relative`'s last component, and that component; nil when a folder on
    /// the way is missing and `create` is not set (missing ones are made when it is).
    public func parent(of relative: String, create: Bool) throws(FileSystemError) -> (folder: OpenFolder, name: String)? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, parts.allSatisfy(Self.isSingleName) else {
            throw .invalidName(path: path, name: relative)
        }
        var current = self
        for part in parts.dropLast() {
            do {
                current = try create ? current.makeFolder(part) : current.folder(part)
            } catch .missing where !create {
                return nil
            }
        }
        return (current, last)
    }

    /// The status of what is at `relative` (a link's own); nil when nothing is there.
    public func status(at relative: String) throws(FileSystemError) -> FileStatus? {
        try parent(of: relative, create: false).flatMap { $0.folder.status(of: $0.name) }
    }

    /// Opens the regular file at `relative`; nil when there is none. A link, folder or other
    /// kind of entry there is an error.
    public func file(at relative: String) throws(FileSystemError) -> OpenFile? {
        guard let (folder, name) = try parent(of: relative, create: false) else { return nil }
        do {
            return try folder.file(name)
        } catch .missing {
            return nil
        }
    }

    /// Renames `relative` to `target` (both below this folder), making folders on the way to
    /// `target` and replacing a file there atomically.
    public func rename(at relative: String, to target: String) throws(FileSystemError) {
        guard let (source, name) = try parent(of: relative, create: false) else { throw .missing(path: path(at: relative)) }
        guard let (destination, newName) = try parent(of: target, create: true) else { throw .missing(path: path(at: target)) }
        try source.rename(name, to: newName, in: destination)
    }

    /// Makes `target` a second name of the regular file at `relative` (a hard link), or a copy
    /// where the file system has no hard links; false when there is nothing at `relative`.
    public func duplicate(at relative: String, to target: String) throws(FileSystemError) -> Bool {
        guard let (source, name) = try parent(of: relative, create: false), let kind = source.kind(of: name) else {
            return false
        }
        guard kind == .regularFile else {
            throw kind == .symbolicLink
                ? .symbolicLink(path: source.path(of: name), target: source.linkTarget(of: name), expected: .regularFile)
                : .wrongKind(path: source.path(of: name), found: kind, expected: .regularFile)
        }
        guard let (destination, newName) = try parent(of: target, create: true) else { return false }
        // linkat does not replace: an old leftover under the name goes first.
        try destination.removeRegularFile(newName)
        do {
            try source.hardLink(name, to: newName, in: destination)
            return true
        } catch .system(_, let code) where [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP].contains(code) {
            let input = try source.file(name)
            // A copy of a file the destination keeps: on disk before it has its name.
            let copy = try AtomicFile.create(named: newName, in: destination)
            try FileCopy.copy(input, to: copy.file)
            try copy.commit(.durable)
            return true
        }
    }

    /// Removes the regular file at `relative`; nothing when it is gone. A link or folder there
    /// is left alone and reported.
    public func removeRegularFile(at relative: String) throws(FileSystemError) {
        guard let (folder, name) = try parent(of: relative, create: false) else { return }
        try folder.removeRegularFile(name)
    }
}
