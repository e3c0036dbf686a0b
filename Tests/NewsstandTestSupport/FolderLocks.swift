import Foundation
import NewsstandCore

/// The kernel's file locks (`/proc/locks`) as the files of one folder they are on.
public enum FolderLocks {
    /// One lock: its kind (`FLOCK`, `POSIX`, `OFDLCK`), its holder and its file's device and inode.
    public struct Lock: Sendable, Equatable {
        public var kind: String
        public var pid: Int32
        public var file: FileKey
    }

    /// A file as `/proc/locks` names it: the device's major and minor numbers and the inode.
    public struct FileKey: Hashable, Sendable {
        public var major: UInt32
        public var minor: UInt32
        public var inode: UInt64

        /// The key of a `stat` result.
        init(_ info: stat) {
            let device = UInt64(truncatingIfNeeded: info.st_dev)
            major = UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff))
            minor = UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~0xff))
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }

        /// `maj:min:inode`, the two numbers in hexadecimal.
        init?(_ text: Substring) {
            let parts = text.split(separator: ":")
            guard parts.count == 3, let major = UInt32(parts[0], radix: 16), let minor = UInt32(parts[1], radix: 16),
                let inode = UInt64(parts[2])
            else { return nil }
            self.major = major
            self.minor = minor
            self.inode = inode
        }
    }

    /// The locks held now (waiters, shown with `->`, left out).
    public static func all() throws -> [Lock] {
        try String(contentsOfFile: "/proc/locks", encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] != "->", let pid = Int32(fields[4]), let file = FileKey(fields[5]) else {
                return nil
            }
            return Lock(kind: String(fields[1]), pid: pid, file: file)
        }
    }

    /// The paths (relative to `folder`, at any depth) of the files that `pid` holds a lock on.
    public static func held(by pid: Int32, in folder: URL) throws -> Set<String> {
        let locked = Set(try all().filter { $0.pid == pid }.map(\.file))
        guard !locked.isEmpty else { return [] }
        return Set(files(in: folder).filter { locked.contains($0.key) }.map(\.path))
    }

    /// Every file and folder below `folder` (and the folder itself, as "."), with its key.
    public static func files(in folder: URL) -> [(path: String, key: FileKey)] {
        let base = folder.standardizedFileURL.path
        var found: [(String, FileKey)] = []
        var info = stat()
        if lstat(base, &info) == 0 { found.append((".", FileKey(info))) }
        guard let walker = FileManager.default.enumerator(atPath: base) else { return found }
        while let relative = walker.nextObject() as? String {
            if lstat(base + "/" + relative, &info) == 0 { found.append((relative, FileKey(info))) }
        }
        return found
    }
}

/// Samples the locks one process holds on a folder's files, every `interval`, on a thread of its
/// own until `stop()`.
public final class LockSampler: Sendable {
    private let samples = Locked<[Set<String>]>([])
    private let running = Locked(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts sampling `pid`'s locks in `folder`.
    public init(pid: Int32, folder: URL, interval: TimeInterval = 0.02) {
        let thread = Thread { [samples, running, finished] in
            while running.current {
                if let held = try? FolderLocks.held(by: pid, in: folder) { samples.withLock { $0.append(held) } }
                Thread.sleep(forTimeInterval: interval)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops and returns the samples, one set of locked paths each.
    public func stop() -> [Set<String>] {
        running.withLock { $0 = false }
        finished.wait()
        return samples.current
    }
}
