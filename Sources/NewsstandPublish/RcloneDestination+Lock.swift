import Foundation
import NewsstandCore

/// Two publishes to one bucket at once: the first writes a lock object with `If-None-Match: *`
/// (a conditional write: S3 since 2024, and compatibles that follow it), which the store refuses
/// (412) while the object exists, so the second stops before it changes anything.
extension RcloneDestination {
    /// The lock object's name at the destination's root (hidden: never served).
    static let lockName = ".newsstand-publish.lock"

    /// Flags for one conditional write: the header on every request of the run (rclone has no
    /// per-object option for it), no HEAD or bucket check first (a HEAD with `If-None-Match: *`
    /// answers 304), no retry of a refusal.
    private static let conditionalFlags = [
        "copyto", "--header", "If-None-Match: *", "--no-check-dest", "--s3-no-head", "--s3-no-check-bucket", "--retries", "1",
        "--low-level-retries", "1",
    ]

    /// Writes the lock object, then writes it once more the same way to see whether the store
    /// honours the condition: refused (412) means it does, and the lock is held; accepted means
    /// it ignores conditional writes (SFTP, a folder, an older S3 compatible), and the object is
    /// deleted and no lock taken (docs/publishing.md says to publish one at a time there).
    public func lock() async throws(PublishError) -> PublishLock? {
        let holder =
            "written by newsstand publish on \(ProcessInfo.processInfo.hostName), process \(getpid()), at \(PlistDate.format(Date()))"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-lock-\(UUID().uuidString)")
        let data = Data((holder + "\n").utf8)
        do {
            // A scratch copy to upload from, removed below: best effort.
            try AtomicFile.write(data, named: "lock", in: try OpenFolder.open(folder, create: true), .bestEffort)
        } catch {
            throw .fileSystem("lock", error)
        }
        defer { try? OpenFolder.open(folder.deletingLastPathComponent()).removeTree(folder.lastPathComponent) }
        let write =
            Self.conditionalFlags + Self.aclFlags(for: Self.lockName) + [
                folder.appendingPathComponent("lock").path, target(Self.lockName),
            ]
        let first = try await run(write, step: "lock", path: Self.lockName, allowFailure: true)
        if first.status != 0 {
            guard Self.isPreconditionFailure(first.error) else {
                throw PublishError(
                    step: "lock", target: display(Self.lockName), reason: .rclone(status: first.status, message: first.error),
                    note: "Nothing that readers are served was changed.")
            }
            let held = try? await read(Self.lockName, limit: 4096)
            let text = held.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            throw PublishError(
                step: "lock", target: display(Self.lockName),
                reason: .lockedObject(
                    holder: text.map { String($0.prefix(300)) } ?? "its holder is not known",
                    lock: Self.redacted(remote: target(Self.lockName))),
                note: "Nothing that readers are served was changed.")
        }
        let probe = try await run(write, step: "lock", path: Self.lockName, allowFailure: true)
        guard probe.status != 0, Self.isPreconditionFailure(probe.error) else {
            try? await delete(Self.lockName)
            return nil
        }
        return RemoteLock(destination: self)
    }

    /// Whether rclone's message is a store's refusal of a condition (HTTP 412).
    static func isPreconditionFailure(_ message: String) -> Bool {
        message.contains("PreconditionFailed") || message.contains("status code: 412")
    }

    /// The lock object, deleted on release.
    struct RemoteLock: PublishLock {
        let destination: RcloneDestination

        func release() async {
            try? await destination.delete(RcloneDestination.lockName)
        }
    }
}
