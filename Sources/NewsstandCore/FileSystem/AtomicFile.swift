import Foundation

/// Whether a file written atomically must survive a power cut once it has its name.
public enum Durability: Sendable, Equatable {
    /// The file is flushed to disk before the rename and the folder after it (`fsync` twice):
    /// after a power cut the name holds the old file or the whole new one, never nothing.
    /// For what cannot be made again: a reader's state, a publish's files.
    case durable
    /// Renamed when complete, not flushed: an interrupted process never leaves a truncated
    /// file under the real name, but a power cut may. For what is made again from its sources
    /// (flushing every archive doubled a build's time).
    case bestEffort
}

/// A file being written under a hidden temporary name in its destination's folder, which
/// takes its real name only when complete (`commit`): an interrupted writer never leaves a
/// truncated file under the real name, and readers see the old file or the new one, whole.
///
/// The temporary name (`.<name>.<pid>.<random>.tmp`) is new (`O_EXCL | O_NOFOLLOW`: no link
/// there is written through) and unique to this process and call, so two processes writing one
/// name never share it. Everything happens relative to the open folder. A file never committed
/// is removed when this object goes away (or by `discard()`).
public final class AtomicFile: @unchecked Sendable {  // used by one owner at a time
    /// The temporary file being written.
    public let file: WritableFile
    /// The folder, the real name and the temporary name.
    public let folder: OpenFolder
    /// The name the file gets when it is committed.
    public let name: String
    /// The hidden name it is written under until then.
    public let temporaryName: String
    private var isDone = false

    private init(file: WritableFile, folder: OpenFolder, name: String, temporaryName: String) {
        self.file = file
        self.folder = folder
        self.name = name
        self.temporaryName = temporaryName
    }

    deinit { if !isDone { discard() } }

    /// A new temporary name for `name`: hidden, with this process's id and random digits.
    public static func temporaryName(for name: String) -> String {
        let random = UInt32.random(in: 0...UInt32.max)
        // At most 200 bytes of the name, whole characters: the temporary name stays a valid name.
        var stem = ""
        for character in name where stem.utf8.count + character.utf8.count <= 200 { stem.append(character) }
        return ".\(stem).\(ProcessInfo.processInfo.processIdentifier).\(String(random, radix: 16)).tmp"
    }

    /// Whether `name` has the form of a temporary name (`.<something>.tmp`).
    public static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp") && name.count > 5
    }

    /// The name a temporary name was made for and the id of the process writing it
    /// (`.<name>.<pid>.<random>.tmp`, as `temporaryName(for:)` makes them); nil for any other name.
    public static func parseTemporaryName(_ temporaryName: String) -> (name: String, writer: Int32)? {
        guard isTemporaryName(temporaryName) else { return nil }
        let parts = temporaryName.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), pid > 0,
            !parts[parts.count - 2].isEmpty, parts[parts.count - 2].utf8.allSatisfy(Self.isLowercaseHexDigit)
        else { return nil }
        let name = parts[..<(parts.count - 3)].joined(separator: ".")
        return name.isEmpty ? nil : (name, pid)
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// Whether `temporaryName` is a temporary file whose writer has exited (killed while
    /// writing): it will never be renamed, so it may be removed. A writer that exists, or that
    /// this process may not signal (another user's, a sandbox's), is taken as still writing.
    /// A pid only means something among processes that see one another: a writer in another
    /// PID namespace (a container sharing the folder) or on another host (a network file
    /// system) looks exited, and its file is removed under it; its commit then fails at the
    /// rename (nothing half-written takes the name), and it writes again.
    public static func isAbandoned(_ temporaryName: String) -> Bool {
        guard let pid = parseTemporaryName(temporaryName)?.writer else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes from `folder` the abandoned temporary files (`isAbandoned`) of the names
    /// `isOurs` accepts: regular files only, reached by name (a link under such a name stays).
    public static func removeAbandonedTemporaries(in folder: OpenFolder, madeFor isOurs: (String) -> Bool) {
        for entry in (try? folder.entries()) ?? [] where entry.kind == .regularFile {
            guard let name = entry.name, let target = parseTemporaryName(name)?.name, isOurs(target), isAbandoned(name) else {
                continue
            }
            try? folder.removeRegularFile(name)
        }
    }

    /// Starts writing `name` in `folder` under `temporaryName` (a new one by default; a caller
    /// that records its files before writing them passes the one it recorded). `permissions`
    /// apply from the creation on (0600 for a file holding a secret: never readable by others,
    /// not even for a moment).
    public static func create(
        named name: String, in folder: OpenFolder, temporaryName: String? = nil, permissions: mode_t = 0o644
    ) throws(FileSystemError) -> AtomicFile {
        try folder.checkName(name)
        let temporary = temporaryName ?? Self.temporaryName(for: name)
        let file = try folder.createFile(temporary, permissions: permissions)
        return AtomicFile(file: file, folder: folder, name: name, temporaryName: temporary)
    }

    /// The temporary file's path, for messages.
    public var temporaryPath: String { folder.path(of: temporaryName) }

    /// Gives the file its name, replacing what is there; flushed first when `durability` says.
    /// On a failure the temporary file is removed and the real name is left as it was.
    public func commit(_ durability: Durability) throws(FileSystemError) {
        do {
            if durability == .durable { try file.synchronize() }
            try file.close()
            try folder.rename(temporaryName, to: name)
            isDone = true
        } catch {
            discard()
            throw error
        }
        if durability == .durable { try folder.synchronize() }
    }

    /// Removes the temporary file; the real name is left as it was.
    public func discard() {
        isDone = true
        try? file.close()
        try? folder.removeFile(temporaryName)
    }

    /// Writes `data` as `name` in `folder`, with `permissions` from the creation on.
    public static func write(
        _ data: Data, named name: String, in folder: OpenFolder, _ durability: Durability, permissions: mode_t = 0o644
    ) throws(FileSystemError) {
        let pending = try create(named: name, in: folder, permissions: permissions)
        do {
            try pending.file.write(data)
        } catch {
            pending.discard()
            throw error
        }
        try pending.commit(durability)
    }

    /// Writes `data` to the file at `url` (its folder reached through links: a path of our own).
    public static func write(_ data: Data, to url: URL, _ durability: Durability) throws(FileSystemError) {
        try write(data, named: url.lastPathComponent, in: try OpenFolder.open(url.deletingLastPathComponent()), durability)
    }
}
