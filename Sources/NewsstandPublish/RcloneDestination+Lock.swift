import Foundation
import NewsstandCore

/// Two publishes to one bucket at once: the first writes a lock object with `If-None-Match: *`
/// (a conditional write: S3 since 2024, and compatibles that follow it), which the store refuses
/// (412) while the object exists, so the second stops before it changes anything.
///
/// The lock expires. It records who took it (host and process, no secrets), when, when it was
/// last renewed, and a token of its own; its holder renews it every `lockRenewalInterval` while
/// it publishes, so a lock not renewed for `PublishTimeouts.lock` seconds (`publish
/// --lock-timeout`, an hour by default) is a dead publish's (one killed part-way). A later
/// publish says so and takes it over with a write conditional on the stale lock's ETag
/// (`If-Match`, which S3 honours since 2024): of two publishes that find the same stale lock,
/// the store takes one write and refuses (412) the other. Renewals are conditional the same
/// way, so a holder whose lock was taken over (it went unrenewed too long: a machine asleep)
/// finds out, and stops before it switches anything in (`PublishLock.confirm`).
extension RcloneDestination {
    /// The lock object's name at the destination's root (hidden: never served).
    static let lockName = ".newsstand-publish.lock"

    /// Seconds between a holder's renewals: a fifth of the limit, at most a minute, so a lock
    /// is renewed five times or more within any limit `--lock-timeout` takes (300 s at least).
    var lockRenewalInterval: Double { min(60, Double(timeouts.lock) / 5) }

    /// When a write is made.
    enum LockCondition {
        /// Only if there is no lock object (`If-None-Match: *`).
        case absent
        /// Only if the lock object is still the one with this ETag (`If-Match`).
        case unchanged(etag: String)
        /// Whatever is there (a renewal on a store whose ETags rclone does not list).
        case none
    }

    /// Flags for one write of the lock: the condition's header on every request of the run
    /// (rclone has no per-object option for it), no HEAD or bucket check first (a HEAD with
    /// `If-None-Match: *` answers 304), no retry of a refusal.
    private static func lockWriteFlags(_ condition: LockCondition) -> [String] {
        let header: [String] =
            switch condition {
            case .absent: ["--header", "If-None-Match: *"]
            case .unchanged(let etag): ["--header", "If-Match: \"\(etag)\""]
            case .none: []
            }
        return ["copyto"] + header + [
            "--no-check-dest", "--s3-no-head", "--s3-no-check-bucket", "--retries", "1", "--low-level-retries", "1",
        ]
    }

    /// Takes the lock: writes the lock object with `If-None-Match: *`, then once more the same
    /// way to see whether the store honours the condition: refused (412) means it does, and the
    /// lock is held; accepted means it ignores conditional writes (SFTP, a folder, an older S3
    /// compatible), and the object is deleted and no lock taken (docs/publishing.md says to
    /// publish one at a time there). Where a lock object is there already, it is taken over if
    /// it is stale (`takeOver`), and the publish is refused otherwise.
    public func lock() async throws(PublishError) -> PublishLock? {
        let now = Date()
        let mine = LockRecord(
            holder: "newsstand publish on \(ProcessInfo.processInfo.hostName), process \(getpid())", taken: now, renewed: now,
            token: UUID().uuidString)
        let first = try await writeLock(mine, .absent)
        if first.status != 0 {
            guard Self.isPreconditionFailure(first.error) else {
                throw PublishError(
                    step: "lock", target: display(Self.lockName), reason: .rclone(status: first.status, message: first.error),
                    note: "Nothing that readers are served was changed.")
            }
            return try await takeOver(mine)
        }
        let probe = try await writeLock(mine, .absent)
        guard probe.status != 0, Self.isPreconditionFailure(probe.error) else {
            try? await delete(Self.lockName)
            return nil
        }
        return await RemoteLock(LockHolder(destination: self, record: mine), notice: nil)
    }

    /// Takes over the lock object there if it is stale (not renewed for `timeouts.lock`
    /// seconds), with a write on the condition that it is still the stale one; refuses the
    /// publish otherwise, naming the holder.
    private func takeOver(_ mine: LockRecord) async throws(PublishError) -> PublishLock {
        let limit = Double(timeouts.lock)
        // The ETag first, then the text: a lock that changes in between fails the condition.
        let found = try await currentLock()
        guard let found, let record = found.record, Date().timeIntervalSince(record.renewed) > limit else {
            throw lockedError(found)
        }
        // rclone lists no ETag for it: no write can be made on the condition that it is unchanged.
        guard let etag = found.etag else { throw staleLockError(record) }
        var taker = mine
        taker.taken = Date()
        taker.renewed = taker.taken
        let write = try await writeLock(taker, .unchanged(etag: etag))
        if write.status != 0 {
            guard Self.isPreconditionFailure(write.error) else {
                throw PublishError(
                    step: "lock", target: display(Self.lockName), reason: .rclone(status: write.status, message: write.error),
                    note: "Nothing that readers are served was changed.")
            }
            let now = try await currentLock()
            // Still the stale lock: the store refuses If-Match with the ETag rclone lists.
            if let now, now.record == record { throw staleLockError(record) }
            // Another publish took it over first.
            throw lockedError(now)
        }
        // The same write on the stale ETag again must be refused: a store that ignores
        // If-Match would let two publishes take one stale lock.
        let probe = try await writeLock(taker, .unchanged(etag: etag))
        guard probe.status != 0, Self.isPreconditionFailure(probe.error) else {
            try? await delete(Self.lockName)
            throw staleLockError(record)
        }
        let notice =
            "lock: took over the stale lock object \(Self.redacted(remote: target(Self.lockName))) (\(PrintableText.escaped(record.summary))): "
            + "not renewed for \(Self.duration(Date().timeIntervalSince(record.renewed))), over the limit of \(timeouts.lock) s (--lock-timeout); the publish that held it is taken for dead"
        return await RemoteLock(LockHolder(destination: self, record: taker), notice: notice)
    }

    /// The lock object there: its ETag as rclone lists it (nil when it lists none), its text
    /// and what that says (nil when it is not a lock's); nil when there is none. The ETag is
    /// read first, so a write conditional on it fails if the text read after it is not current.
    func currentLock() async throws(PublishError) -> (etag: String?, text: String, record: LockRecord?)? {
        let listing = try await run(
            ["lsjson", "--hash", "--hash-type", "MD5", target(Self.lockName)], step: "lock", path: Self.lockName,
            allowFailure: true)
        guard listing.status == 0, let listed = try? JSONDecoder().decode([ListedLock].self, from: listing.output),
            let entry = listed.first
        else { return nil }
        let etag = entry.Hashes?["md5"].flatMap { $0.isEmpty ? nil : $0 }
        let read = try await run(
            ["cat", target(Self.lockName)], step: "lock", path: Self.lockName, allowFailure: true, outputLimit: 4096)
        guard read.status == 0 else { return nil }
        let text = String(decoding: read.output, as: UTF8.self)
        return (etag, text, LockRecord(text))
    }

    /// One entry of `rclone lsjson --hash`.
    private struct ListedLock: Decodable {
        // rclone's field name, spelled as its JSON has it.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var Hashes: [String: String]?
    }

    /// Writes `record` as the lock object if `condition` holds; rclone's status and message.
    func writeLock(_ record: LockRecord, _ condition: LockCondition) async throws(PublishError) -> (
        status: Int32, error: String
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-lock-\(UUID().uuidString)")
        do {
            // A scratch copy to upload from, removed below: best effort.
            try AtomicFile.write(
                Data(record.text.utf8), named: "lock", in: try OpenFolder.open(folder, create: true), .bestEffort)
        } catch {
            throw .fileSystem("lock", error)
        }
        defer { try? OpenFolder.open(folder.deletingLastPathComponent()).removeTree(folder.lastPathComponent) }
        let write =
            Self.lockWriteFlags(condition) + Self.aclFlags(for: Self.lockName) + [
                folder.appendingPathComponent("lock").path, target(Self.lockName),
            ]
        let result = try await run(write, step: "lock", path: Self.lockName, allowFailure: true)
        return (result.status, result.error)
    }

    /// The refusal of a publish while another holds the lock (`found`: the lock as read).
    private func lockedError(_ found: (etag: String?, text: String, record: LockRecord?)?) -> PublishError {
        let holder: String
        var expires: String?
        if let record = found?.record {
            holder = record.summary
            expires = PlistDate.format(record.renewed.addingTimeInterval(Double(timeouts.lock)))
        } else {
            let text = found?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            holder = text.map { String($0.prefix(300)) } ?? "its holder is not known"
        }
        return PublishError(
            step: "lock", target: display(Self.lockName),
            reason: .lockedObject(holder: holder, lock: Self.redacted(remote: target(Self.lockName)), expires: expires),
            note: "Nothing that readers are served was changed.")
    }

    /// The refusal of a stale lock this store cannot take over safely.
    private func staleLockError(_ record: LockRecord) -> PublishError {
        PublishError(
            step: "lock", target: display(Self.lockName),
            reason: .staleLock(holder: record.summary, lock: Self.redacted(remote: target(Self.lockName))),
            note: "Nothing that readers are served was changed.")
    }

    /// `1 h 5 min`, `12 min`, `40 s`.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        if whole < 60 { return "\(whole) s" }
        let minutes = whole / 60
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// Whether rclone's message is a store's refusal of a condition (HTTP 412).
    static func isPreconditionFailure(_ message: String) -> Bool {
        message.contains("PreconditionFailed") || message.contains("status code: 412")
    }

    /// What the lock object says: who took it (host and process), when, when it was last
    /// renewed, and the token that tells its holder's writes from another's. Text, one field a
    /// line, the first as earlier versions wrote the whole lock (which reads as renewed when taken).
    struct LockRecord: Equatable, Sendable {
        var holder: String
        var taken: Date
        var renewed: Date
        var token: String

        init(holder: String, taken: Date, renewed: Date, token: String) {
            self.holder = holder
            self.taken = taken
            self.renewed = renewed
            self.token = token
        }

        /// Parses a lock's text; nil when it is not one.
        init?(_ text: String) {
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = lines.first, first.hasPrefix("written by "), let at = first.range(of: ", at ", options: .backwards),
                let taken = PlistDate.parse(String(first[at.upperBound...]))
            else { return nil }
            holder = String(first[first.index(first.startIndex, offsetBy: "written by ".count)..<at.lowerBound])
            self.taken = taken
            renewed = taken
            token = ""
            for line in lines.dropFirst() {
                if line.hasPrefix("renewed at "), let date = PlistDate.parse(String(line.dropFirst("renewed at ".count))) {
                    renewed = max(renewed, date)
                } else if line.hasPrefix("token ") {
                    token = String(line.dropFirst("token ".count))
                }
            }
        }

        var text: String {
            "written by \(holder), at \(PlistDate.format(taken))\nrenewed at \(PlistDate.format(renewed))\ntoken \(token)\n"
        }

        /// Who holds it and how recently, for messages.
        var summary: String {
            "written by \(holder), at \(PlistDate.format(taken))"
                + (renewed > taken ? ", last renewed at \(PlistDate.format(renewed))" : "")
        }
    }

    /// The lock while this publish holds it: renewed in the background, checked before the
    /// switch, deleted on release if it is still this publish's.
    actor LockHolder {
        let destination: RcloneDestination
        private var record: LockRecord
        /// Whether the lock was found to be another publish's (or gone).
        private(set) var isLost = false
        /// Whether renewals are conditional (false once the store refused an If-Match on its
        /// own lock: its ETag is not what rclone lists).
        private var isConditional = true
        private var renewal: Task<Void, Never>?

        init(destination: RcloneDestination, record: LockRecord) {
            self.destination = destination
            self.record = record
        }

        /// Renews every `interval` seconds until released.
        func start() {
            let interval = destination.lockRenewalInterval
            renewal = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                    guard !Task.isCancelled, let self, await self.renew() else { return }
                }
            }
        }

        /// Writes the time of renewal into the lock if it is still this publish's; false when
        /// it is not (another publish's now). A store that cannot be reached is no loss: the
        /// next renewal tries again. A lock found missing (deleted by hand, or a listing that
        /// failed) is written again on the condition that there is none.
        func renew() async -> Bool {
            guard !isLost else { return false }
            let found: (etag: String?, text: String, record: LockRecord?)?
            do { found = try await destination.currentLock() } catch { return true }
            if let found, found.record?.token != record.token {
                isLost = true
                return false
            }
            var next = record
            next.renewed = Date()
            let condition: LockCondition
            if let found {
                condition = isConditional ? found.etag.map { .unchanged(etag: $0) } ?? .none : .none
            } else {
                condition = .absent
            }
            guard let result = try? await destination.writeLock(next, condition) else { return true }
            if result.status == 0 {
                record = next
                return true
            }
            guard RcloneDestination.isPreconditionFailure(result.error) else { return true }
            // Refused: another wrote the lock since it was read; or it was there after all; or
            // the store's ETag is not the one rclone lists. In the last two it reads as this
            // publish's still.
            let again: (etag: String?, text: String, record: LockRecord?)?
            do { again = try await destination.currentLock() } catch { return true }
            guard let again, again.record?.token == record.token else {
                isLost = true
                return false
            }
            if case .unchanged = condition { isConditional = false }
            return true
        }

        /// Throws unless the lock is still this publish's (renewed now).
        func confirm() async throws(PublishError) {
            guard await renew() else {
                throw PublishError(
                    step: "lock", target: destination.display(RcloneDestination.lockName),
                    reason: .lockLost(
                        lock: RcloneDestination.redacted(remote: destination.target(RcloneDestination.lockName)),
                        limit: destination.timeouts.lock))
            }
        }

        /// Stops the renewals and deletes the lock, unless it is another publish's now.
        func release() async {
            renewal?.cancel()
            await renewal?.value
            renewal = nil
            guard !isLost else { return }
            if let found = try? await destination.currentLock(), found.record?.token != record.token { return }
            try? await destination.delete(RcloneDestination.lockName)
        }
    }

    /// The lock object, renewed while held and deleted on release.
    struct RemoteLock: PublishLock {
        let holder: LockHolder
        let notice: String?

        init(_ holder: LockHolder, notice: String?) async {
            self.holder = holder
            self.notice = notice
            await holder.start()
        }

        func confirm() async throws(PublishError) {
            try await holder.confirm()
        }

        func release() async {
            await holder.release()
        }
    }
}
