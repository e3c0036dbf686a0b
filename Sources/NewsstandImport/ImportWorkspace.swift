import Foundation
import NewsstandCore

/// The hidden folder in `issues/` an import writes the new issue into, renamed to the issue's
/// name when complete: until then the magazine has no issue of that name, and a failed import
/// removes the folder, so a broken input, a render failure or a full disk leaves nothing.
///
/// A killed import cannot remove it. `validate` and `build` pass over hidden entries of
/// `issues/`, and the next import removes the leftovers: each workspace has a lock file beside
/// it (`<workspace>.lock`, taken before the folder is made and held until the folder is renamed
/// or removed); the kernel drops the lock when its process dies, so a workspace whose lock can
/// be taken belongs to no running import.
final class ImportWorkspace {
    /// Every workspace's name starts so.
    static let prefix = ".newsstand-import-"
    static let lockSuffix = ".lock"

    let issues: OpenFolder
    /// The workspace's name in `issues/`.
    let name: String
    let folder: OpenFolder
    let assets: OpenFolder
    private let lock: FileLock
    private var isFinished = false

    private init(issues: OpenFolder, name: String, folder: OpenFolder, assets: OpenFolder, lock: FileLock) {
        self.issues = issues
        self.name = name
        self.folder = folder
        self.assets = assets
        self.lock = lock
    }

    /// Makes a new workspace for `issueName` in `issues`.
    static func create(in issues: OpenFolder, for issueName: String) throws(FileSystemError) -> ImportWorkspace {
        let name = prefix + issueName + "-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        // A random name nobody else uses: the lock is ours at once.
        guard let lock = try FileLock.acquire(name + lockSuffix, in: issues, timeout: 0) else {
            throw .system(path: issues.path(of: name + lockSuffix), code: EWOULDBLOCK)
        }
        do throws(FileSystemError) {
            guard mkdirat(issues.descriptor, name, 0o755) == 0 else { throw FileSystemError.fromErrno(issues.path(of: name)) }
            let folder = try issues.folder(name)
            let assets = try folder.makeFolder("assets")
            return ImportWorkspace(issues: issues, name: name, folder: folder, assets: assets, lock: lock)
        } catch {
            try? issues.removeTree(name)
            try? issues.removeFile(name + lockSuffix)
            throw error
        }
    }

    /// Gives the workspace the issue's name. Never replaces an issue: `rename` does not replace
    /// a folder that has anything in it, and the name is checked first, so another import of
    /// the same name that finished in the meantime makes this one fail with `.issueExists`.
    func commit(as issueName: String) throws(ImportError) {
        do {
            try assets.synchronize()
            try folder.synchronize()
        } catch {
            throw .fileSystem(error)
        }
        guard issues.kind(of: issueName) == nil else { throw .issueExists(name: issueName, path: issues.path(of: issueName)) }
        do {
            try issues.rename(name, to: issueName)
        } catch .system(_, let code) where code == ENOTEMPTY || code == EEXIST || code == ENOTDIR || code == EISDIR {
            throw .issueExists(name: issueName, path: issues.path(of: issueName))
        } catch {
            throw .fileSystem(error)
        }
        isFinished = true
        try? issues.synchronize()
        try? issues.removeFile(name + Self.lockSuffix)
        lock.release()
    }

    /// Removes the workspace and its lock file (after a failure).
    func discard() {
        guard !isFinished else { return }
        isFinished = true
        try? issues.removeTree(name)
        try? issues.removeFile(name + Self.lockSuffix)
        lock.release()
    }

    deinit { discard() }

    /// Removes what killed imports left in `issues`: workspaces whose lock nobody holds, and
    /// lock files without their workspace. Returns the names removed.
    static func removeLeftovers(in issues: OpenFolder) -> [String] {
        guard let entries = try? issues.entries() else { return [] }
        var removed: [String] = []
        let names = Set(entries.compactMap(\.name))
        for entry in entries {
            guard let name = entry.name, name.hasPrefix(prefix) else { continue }
            let workspace = name.hasSuffix(lockSuffix) ? String(name.dropLast(lockSuffix.count)) : name
            // A workspace is visited once, through its folder or, when that is gone, its lock.
            if name.hasSuffix(lockSuffix), names.contains(workspace) { continue }
            if !name.hasSuffix(lockSuffix), entry.kind != .folder { continue }
            guard let held = try? FileLock.acquire(workspace + lockSuffix, in: issues, timeout: 0) else { continue }
            defer { held.release() }
            if (try? issues.removeTree(workspace)) != nil, (try? issues.removeFile(workspace + lockSuffix)) != nil {
                removed.append(workspace)
            }
        }
        return removed.sorted()
    }
}
