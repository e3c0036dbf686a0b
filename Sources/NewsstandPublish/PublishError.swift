import NewsstandBuild
import NewsstandCore
import NewsstandProcess

/// A failure while publishing: the step, the file or URL it concerns (URLs never carry
/// credentials), why, and what the publish did about it.
public struct PublishError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done (`plan`, `read`, `upload`, `stage`, `swap`, `move`, `delete`, `state`, …).
    public var step: String
    /// The file, remote path or URL concerned.
    public var target: String
    /// What went wrong.
    public var reason: Reason
    /// What the publish did afterwards (restored the served files, or could not).
    public var note: String?

    public init(step: String, target: String, reason: Reason, note: String? = nil) {
        self.step = step
        self.target = target
        self.reason = reason
        self.note = note
    }

    /// Why a step failed.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// A name read from a manifest or state file leaves the folder (`entry` says where it was).
        case unsafeName(entry: String, name: String, problem: SafeRelativePath.Problem)
        /// A manifest or state file that does not decode, or whose values cannot be true.
        case invalid(String)
        /// The built folder holds no catalog: it was not built.
        case notBuilt
        /// The catalog was built with the `BaseURL` `newsstand init` writes (`Magazine.placeholderBaseURL`):
        /// readers would be sent to a host that is not the magazine's.
        case placeholderBaseURL
        /// The built catalog, or an entry of it, does not parse.
        case catalog(CatalogError)
        /// A file of the built folder changed while it was read.
        case changedWhileRead
        /// The `--to` text is not a destination (why).
        case invalidDestination(reason: String)
        /// The `--to` URL carries credentials (`user:password@`): refused, never repeated.
        case credentialsInURL
        /// A file read into memory (a state file, a manifest, a catalog) is larger than its limit.
        case tooLarge(limit: Int64)
        /// A file operation in the built folder or a local destination failed: a link or
        /// something else than expected at a path (never followed or replaced), or a system call.
        case fileSystem(FileSystemError)
        /// A file of the built folder is not what its build manifest recorded.
        case changedSinceBuild(String)
        /// The bytes sent are not the bytes the manifest promised.
        case contentMismatch(expectedSize: Int64, size: Int64, expectedSHA256: String, sha256: String)
        /// Before the switch, the files uploaded to `destination` are not served at `baseURL`
        /// (what the new catalog would send readers to): the first `problems`, and how many there are.
        case notServedAtBaseURL(baseURL: String, destination: String, problems: [String], count: Int)
        /// The same for a web edition: its files are not served at `PreviewURL`.
        case notServedAtPreviewURL(previewURL: String, destination: String, problems: [String], count: Int)
        /// The destination holds what another kind of publish put there (a magazine where a web
        /// edition goes, or the reverse): publishing would take the other's files for stale.
        case otherPublishThere(found: String, publishing: String)
        /// The destination (a local folder) cannot be written by this user: the system's reason.
        case cannotWrite(destination: String, reason: String)
        /// The server does not take WebDAV requests (`method`, answered 405 or 501, or a PUT 404).
        case notWebDAV(method: String, status: Int)
        /// The server answered with an unexpected HTTP status.
        case http(status: Int)
        /// The server wants (other) credentials.
        case credentialsRefused(status: Int, hint: String)
        /// The server answered with a redirect, which publish does not follow.
        case redirect(status: Int)
        /// A request took too long.
        case timedOut(Timeout, seconds: Double)
        /// The connection failed (libcurl's message, shown escaped: `PrintableText`).
        case network(String)
        /// `rclone` could not be started (the system's reason).
        case cannotRun(program: String, reason: String)
        /// `rclone` failed: its exit status and what it said (secrets cut out, shown escaped:
        /// `PrintableText`, as it may repeat a remote's names).
        case rclone(status: Int32, message: String)
        /// A catalog moved into place, where moves are not atomic, reads back different.
        case readBackMismatch
        /// Another publish holds the destination.
        case locked
        /// Another publish holds the lock object of a remote (written with `If-None-Match: *`):
        /// what it says of its holder, the lock's name for `rclone deletefile`, and when it
        /// expires unless renewed (nil when it says no time).
        case lockedObject(holder: String, lock: String, expires: String?)
        /// The lock object of a remote is stale (its holder is taken for dead), but the store
        /// takes no write conditional on its ETag, so it is not taken over.
        case staleLock(holder: String, lock: String)
        /// This publish's lock object was taken over by another publish, or deleted: it went
        /// unrenewed for longer than `limit` seconds.
        case lockLost(lock: String, limit: Int)
        /// The task running the publish was cancelled, and the program it ran stopped (on
        /// SIGINT or SIGTERM newsstand stops it too, then ends by the signal: `ChildProcess`).
        case cancelled

        /// Which limit a request ran into.
        public enum Timeout: String, Sendable, Equatable {
            case connect, stall, request
        }

        public var description: String {
            switch self {
            case .unsafeName(let entry, let name, let problem):
                "\(entry) \(SafeRelativePath.quoted(name)) \(problem): not a safe relative path"
            case .invalid(let detail): detail
            case .notBuilt:
                "missing or not a regular file: run 'newsstand build' first (or 'newsstand preview', to publish the web edition)"
            case .placeholderBaseURL:
                "its URLs start with BaseURL \(Magazine.placeholderBaseURL), the placeholder 'newsstand init' wrote, where no reader would find them: set BaseURL in magazine.plist to the URL the destination is served at, then build and publish again"
            case .catalog(let error): error.description
            case .changedWhileRead: "changed while it was read"
            case .invalidDestination(let reason): reason
            case .credentialsInURL: Destinations.credentialsInURLMessage
            case .tooLarge(let limit): "larger than the limit of \(Self.bytes(limit))"
            case .fileSystem(let error): Self.describe(error)
            case .changedSinceBuild(let detail): "\(detail); \(Self.rebuild)"
            case .contentMismatch(let expectedSize, let size, let expectedSHA256, let sha256):
                size != expectedSize
                    ? "\(size) bytes were read, the build manifest says \(expectedSize); \(Self.rebuild)"
                    : "its SHA-256 is \(sha256), the build manifest says \(expectedSHA256); \(Self.rebuild)"
            case .notServedAtBaseURL(let baseURL, let destination, let problems, let count):
                "BaseURL \(baseURL) does not serve what was uploaded to \(destination): check BaseURL in magazine.plist (then build again) or --to; "
                    + problems.joined(separator: "; ") + (count > problems.count ? " (and \(count - problems.count) more)" : "")
            case .notServedAtPreviewURL(let previewURL, let destination, let problems, let count):
                "PreviewURL \(previewURL) does not serve what was uploaded to \(destination): check PreviewURL in magazine.plist (then run 'newsstand preview' again) or --to; "
                    + problems.joined(separator: "; ") + (count > problems.count ? " (and \(count - problems.count) more)" : "")
            case .otherPublishThere(let found, let publishing):
                "it holds \(found), and this is \(publishing): publish each to a folder of its own (the web edition where PreviewURL is served, the magazine where BaseURL is)"
            case .cannotWrite(let destination, let reason):
                "\(reason): this user cannot write to \(destination); run publish as a user who may (or change the folder's owner or mode), or give another --to"
            case .notWebDAV(let method, let status):
                "HTTP \(status) to \(method): the server does not accept WebDAV there; give the URL of a WebDAV folder with --to (nginx: dav_methods PUT DELETE MOVE COPY, docs/publishing.md), or publish to a folder or an rclone remote"
            case .http(let status): "HTTP \(status)"
            case .credentialsRefused(let status, let hint): "HTTP \(status): \(hint)"
            case .redirect(let status): "HTTP \(status) redirect (not followed: give the final URL with --to)"
            case .timedOut(.connect, let seconds): "no connection within \(Self.seconds(seconds)) (--connect-timeout)"
            case .timedOut(.stall, let seconds):
                "the transfer stalled: under \(Self.bytes(PublishTimeouts.lowSpeedBytesPerSecond))/s for \(Self.seconds(seconds)) (--stall-timeout)"
            case .timedOut(.request, let seconds): "no complete answer within \(Self.seconds(seconds)) (--timeout)"
            case .network(let detail): PrintableText.escaped(detail)
            case .cannotRun(let program, let reason): "cannot run \(program): \(reason)"
            case .rclone(let status, let message):
                status == 127
                    ? "rclone is not installed"
                    : message.contains("didn't find section in config file")
                        ? PrintableText.escaped(message)
                            + "; no rclone remote of that name is configured: add it with 'rclone config' (or give its configuration in RCLONE_CONFIG), or check the name in --to rclone:<remote>:<path> ('rclone listremotes' lists them)"
                        : PrintableText.escaped(message)
            case .lockedObject(let holder, let lock, let expires?):
                "another publish to this destination is running: it holds the lock object \(lock) (\(PrintableText.escaped(holder))); wait for it to finish, or, if none runs (one was killed part-way), publish again after \(expires), when the lock expires unrenewed (--lock-timeout), or delete it with 'rclone deletefile \(lock)' and publish again"
            case .lockedObject(let holder, let lock, nil):
                "another publish to this destination is running: it holds the lock object \(lock) (\(PrintableText.escaped(holder))); wait for it to finish, or, if none runs (one was killed part-way), delete the lock with 'rclone deletefile \(lock)' and publish again"
            case .staleLock(let holder, let lock):
                "the lock object \(lock) is stale (\(PrintableText.escaped(holder)); not renewed within --lock-timeout), but this store takes no write conditional on its ETag (If-Match), so it is not taken over: if no publish runs, delete it with 'rclone deletefile \(lock)' and publish again"
            case .lockLost(let lock, let limit):
                "this publish's lock object \(lock) was taken over by another publish, or deleted: a lock not renewed for \(limit) s (--lock-timeout) is taken for a dead publish's (was this machine asleep, or the store out of reach, that long?)"
            case .readBackMismatch: "the catalog does not read back identical"
            case .locked: "another publish to this destination is running (it holds .newsstand-publish.lock)"
            case .cancelled: "cancelled; nothing was left under a final name half-written"
            }
        }

        /// How to make a built file what its manifest says again. `--force`, because a plain
        /// build trusts its records: an output edited in place with its size kept looks built
        /// (hashing every output on every build would cost a no-change build its speed).
        static let rebuild =
            "build the issue again with --force (newsstand build <magazine> --output <built-folder> --issue <name> --force): a plain build trusts its records and keeps a file whose size they still match"

        /// A file-system failure as publish tells it: what is where something else was expected.
        static func describe(_ error: FileSystemError) -> String {
            switch error {
            case .symbolicLink(_, _, let expected): "is a symbolic link, not \(expected); publish does not follow or replace it"
            case .wrongKind(_, let found, let expected): "is \(found), not \(expected); publish does not follow or replace it"
            case .invalidName: "not a relative path inside the folder"
            case .missing: "does not exist"
            case .system: error.reason
            }
        }

        static func seconds(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
        }

        static func bytes(_ value: Int64) -> String {
            if value >= 1 << 20, value % (1 << 20) == 0 { return "\(value >> 20) MiB" }
            if value >= 1 << 10, value % (1 << 10) == 0 { return "\(value >> 10) KiB" }
            return "\(value) bytes"
        }
    }

    public var description: String {
        "\(step) \(target): \(reason)" + (note.map { "\n\($0)" } ?? "")
    }

    /// A failed file operation at `step`; the target is the path concerned.
    static func fileSystem(_ step: String, _ error: FileSystemError) -> PublishError {
        PublishError(step: step, target: error.path, reason: .fileSystem(error))
    }

    /// Whether the publish was cancelled: no cleanup is tried, since it would need the
    /// programs that were just stopped.
    var isStop: Bool { reason == .cancelled }

    /// Whether the server refused our credentials: cleaning up after it would be refused too.
    var isCredentialsRefusal: Bool {
        if case .credentialsRefused = reason { return true }
        return false
    }

    /// The same error with a note on what the publish left served (an earlier note is kept).
    func noting(_ text: String) -> PublishError {
        var copy = self
        if copy.note == nil { copy.note = text }
        return copy
    }
}
