import Foundation

/// Every entry under a folder, as tests compare them before and after a command: its relative
/// path with its kind and content (regular files by size and bytes, links by target), read
/// without following links, so a test sees exactly what a command changed.
public struct FolderSnapshot: Equatable, CustomStringConvertible {
    /// Relative path → "file <size> <hash of bytes>", "folder", "link -> <target>" or "other".
    public private(set) var entries: [String: String] = [:]

    /// Takes a snapshot of `folder` (empty when it does not exist).
    public init(_ folder: URL) {
        walk(folder.path, relative: "")
    }

    private mutating func walk(_ path: String, relative: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names {
            let full = path + "/" + name
            let key = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                entries[key] = "folder"
                walk(full, relative: key)
            case S_IFLNK:
                entries[key] = "link -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")
            case S_IFREG:
                let data = (try? Data(contentsOf: URL(fileURLWithPath: full))) ?? Data()
                entries[key] = "file \(data.count) \(Self.fnv1a(data))"
            default:
                entries[key] = "other"
            }
        }
    }

    /// FNV-1a, 64 bits: stable across processes, enough to tell contents apart in a test.
    private static func fnv1a(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The relative paths, sorted.
    public var paths: [String] { entries.keys.sorted() }

    /// What differs from `other`, one line per path, for a readable test failure.
    public func differences(from other: FolderSnapshot) -> [String] {
        Set(entries.keys).union(other.entries.keys).sorted().compactMap { path in
            entries[path] == other.entries[path]
                ? nil : "\(path): \(other.entries[path] ?? "absent") → \(entries[path] ?? "absent")"
        }
    }

    public var description: String { paths.map { "\($0): \(entries[$0]!)" }.joined(separator: "\n") }
}
