import Foundation
import NewsstandCore
import NewsstandReader

/// Where the running daemon listens and how to talk to it (`daemon.json`, mode 0600 in the
/// engine's folder), so that a relaunched process reconnects to it. Input from outside like any
/// file: one that is not what the engine writes (a link, another owner, readable by others, too
/// large, not this JSON) is no record at all, and even a good one is only believed once `pid`
/// is seen to be this folder's aria2c and to hold the listening socket on `port`
/// (`Aria2Daemon`), so the secret goes to no other program.
struct Aria2DaemonRecord: Equatable, Sendable {
    var port: Int
    var secret: Aria2Secret
    var pid: Int32

    static let fileName = "daemon.json"
    static let maxBytes = 4 << 10

    private struct Stored: Codable {
        var port: Int
        var secret: String
        var pid: Int32
    }

    /// The record in `folder`, or nil.
    static func read(in folder: OpenFolder) -> Aria2DaemonRecord? {
        guard let file = try? folder.file(fileName), Self.isPrivate(file),
            let data = try? file.readAll(limit: maxBytes), let stored = try? JSONDecoder().decode(Stored.self, from: data),
            (1024...65535).contains(stored.port), stored.pid > 1, let secret = Aria2Secret(hex: stored.secret)
        else { return nil }
        return Aria2DaemonRecord(port: stored.port, secret: secret, pid: stored.pid)
    }

    /// Writes the record into `folder` (mode 0600 from the start).
    func write(in folder: OpenFolder) throws(FileSystemError) {
        // Three plain values always encode.
        guard let data = try? JSONEncoder().encode(Stored(port: port, secret: secret.hex, pid: pid)) else { return }
        // Best effort: after a power cut the daemon is gone too, and a new one gets a new record.
        try AtomicFile.write(data, named: Self.fileName, in: folder, .bestEffort, permissions: 0o600)
    }

    /// Whether the open file is ours and nobody else's to read: owned by this user, mode 0600
    /// or stricter. A secret others could read is spent.
    static func isPrivate(_ file: OpenFile) -> Bool {
        var info = stat()
        return fstat(file.descriptor, &info) == 0 && info.st_uid == geteuid() && info.st_mode & 0o077 == 0
    }
}
