import Foundation

/// Removal inside a folder: only what is asked, never through a link.
extension OpenFolder {
    /// Removes the file (or link) `name`; never follows a link, never removes a folder.
    public func removeFile(_ name: String) throws(FileSystemError) {
        try checkName(name)
        guard unlinkat(descriptor, name, 0) == 0 else { throw .fromErrno(path(of: name)) }
    }

    /// Removes `name` if it is a regular file; nothing when it is gone already. Anything else
    /// there (a link, a folder) is what someone else put under a name we recorded: it is left
    /// alone and reported.
    public func removeRegularFile(_ name: String) throws(FileSystemError) {
        try checkName(name)
        guard let kind = kind(of: name) else { return }
        guard kind == .regularFile else {
            throw kind == .symbolicLink
                ? .symbolicLink(path: path(of: name), target: linkTarget(of: name), expected: .regularFile)
                : .wrongKind(path: path(of: name), found: kind, expected: .regularFile)
        }
        guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else { throw .fromErrno(path(of: name)) }
    }

    /// Removes the folder `name` if it is empty; returns whether it was removed.
    @discardableResult
    public func removeFolderIfEmpty(_ name: String) -> Bool {
        Self.isSingleName(name) && unlinkat(descriptor, name, AT_REMOVEDIR) == 0
    }

    /// Removes `name` and, when it is a folder, everything in it; nothing when it is gone.
    /// Links inside are removed themselves, never followed, so nothing outside is touched.
    /// Blocking (a large tree takes a while): call it off any actor and the cooperative pool.
    ///
    /// One folder is open at a time (the walk goes back up through `..`), so a tree of any
    /// depth is removed within the process's descriptor limit.
    public func removeTree(_ name: String) throws(FileSystemError) {
        try checkName(name)
        guard let kind = kind(of: name) else { return }
        guard kind == .folder else {
            guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else { throw .fromErrno(path(of: name)) }
            return
        }
        var trail: [[UInt8]] = [Array(name.utf8)]
        var current = try folder(name)
        while true {
            var subfolder: [UInt8]?
            for entry in try current.entries() {
                if entry.kind == .folder {
                    subfolder = subfolder ?? entry.rawName
                } else {
                    try current.unlink(entry.rawName, folder: false)
                }
            }
            if let subfolder {
                let fd = openat(current.descriptor, Self.cName(subfolder), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                let childPath = current.path(of: FolderEntry(rawName: subfolder, kind: .folder).displayName)
                guard fd >= 0 else {
                    // Swapped for a link or a file since it was listed: remove that entry itself.
                    guard errno == ELOOP || errno == ENOTDIR else { throw .fromErrno(childPath) }
                    try current.unlink(subfolder, folder: false)
                    continue
                }
                current = OpenFolder(descriptor: fd, path: childPath)
                trail.append(subfolder)
                continue
            }
            let leaf = trail.removeLast()
            let parent: OpenFolder
            if trail.isEmpty {
                parent = self
            } else {
                let fd = openat(current.descriptor, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard fd >= 0 else { throw .fromErrno(current.path) }
                parent = OpenFolder(descriptor: fd, path: (current.path as NSString).deletingLastPathComponent)
            }
            try parent.unlink(leaf, folder: true)
            if trail.isEmpty { return }
            current = parent
        }
    }

    /// `unlinkat` by raw name; a name already gone is fine.
    private func unlink(_ rawName: [UInt8], folder: Bool) throws(FileSystemError) {
        guard unlinkat(descriptor, Self.cName(rawName), folder ? AT_REMOVEDIR : 0) == 0 || errno == ENOENT else {
            throw .fromErrno(path(of: FolderEntry(rawName: rawName, kind: .unknown).displayName))
        }
    }
}
