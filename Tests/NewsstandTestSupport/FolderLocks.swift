import Foundation

/// The kernel's file locks (`/proc/locks`) as the files of one folder they are on.
public enum FolderLocks {
    /// One lock: its kind (`FLOCK`, `POSIX`, `OFDLCK`), its holder and the file's device and inode.
    public struct Lock: Sendable, Equatable {
        public var kind: String
        public var pid: Int32
        public var inode: UInt64
    }

    /// The locks held now (waiters, shown with `->`, left out).
    public static func all() throws -> [Lock] {
        try String(contentsOfFile: "/proc/locks", encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] != "->", let pid = Int32(fields[4]),
                let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) })
            else { return nil }
            return Lock(kind: String(fields[1]), pid: pid, inode: inode)
        }
    }

    /// The paths (relative to `folder`, at any depth) of the files that `pid` holds a lock on.
    public static func held(by pid: Int32, in folder: URL) throws -> Set<String> {
        let inodes = Set(try all().filter { $0.pid == pid }.map(\.inode))
        guard !inodes.isEmpty else { return [] }
        return Set(files(in: folder).filter { inodes.contains($0.inode) }.map(\.path))
    }

    /// Every file and folder below `folder` with its inode.
    public static func files(in folder: URL) -> [(path: String, inode: UInt64)] {
        var found: [(String, UInt64)] = []
        let base = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        while let relative = walker.nextObject() as? String {
            var info = stat()
            if lstat(base + "/" + relative, &info) == 0 { found.append((relative, UInt64(info.st_ino))) }
        }
        return found
    }
}
