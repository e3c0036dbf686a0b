import Foundation
import NewsstandBuild
import NewsstandCore

/// Where a built magazine is published: a folder, a WebDAV / HTTP PUT endpoint, or an rclone
/// remote. Paths are relative to the destination's root and use `/`; the publisher checks every
/// name it read from outside with `SafeRelativePath` before it gets here, and adds only its own
/// hidden temporary names.
public protocol PublishDestination: Sendable {
    /// How the destination reads in messages (never with credentials).
    var description: String { get }
    /// Whether `move` replaces a file atomically. Where it does not (rclone), catalogs are read
    /// back after they are moved into place.
    var supportsAtomicMove: Bool { get }
    /// The file at `path` (at most `limit` bytes, else an error), or nil when there is none.
    func read(_ path: String, limit: Int64) async throws(PublishError) -> Data?
    /// Uploads `source` to `path`, creating folders as needed, and checks on the way that the
    /// bytes sent have the size and SHA-256 `source` promises. A file that does not is not left
    /// at `path`.
    func upload(_ source: UploadSource, to path: String) async throws(PublishError)
    /// Renames `source` to `destination`, replacing it.
    func move(_ source: String, to destination: String) async throws(PublishError)
    /// Copies `source` to `destination` on the destination's side (no bytes through us);
    /// false when there is no `source`.
    func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool
    /// Deletes `path` (no error when it is already gone).
    func delete(_ path: String) async throws(PublishError)
    /// Keeps other publishes out until the returned lock is released; nil where the
    /// destination has no way to lock.
    func lock() async throws(PublishError) -> PublishLock?
    /// When the file at `path` was last modified, in seconds since 1970, as the destination
    /// keeps it (what a static server makes `Last-Modified` and `ETag` from); nil when there is
    /// no file or the destination does not say.
    func modificationTime(of path: String) async throws(PublishError) -> Double?
    /// Uploads as `upload(_:to:)`, and gives the file the modification time `modified` (whole
    /// seconds since 1970) where a client can set it: how a replaced catalog gets validators
    /// of its own (`Publisher`). A destination that sets its own times ignores `modified`.
    func upload(_ source: UploadSource, to path: String, modified: Int) async throws(PublishError)
}

extension PublishDestination {
    public func lock() async throws(PublishError) -> PublishLock? { nil }
    public func modificationTime(of path: String) async throws(PublishError) -> Double? { nil }
    public func upload(_ source: UploadSource, to path: String, modified: Int) async throws(PublishError) {
        try await upload(source, to: path)
    }
}

/// Held while a publish runs; `release()` (or, for a local lock, deinit) lets the next one in.
public protocol PublishLock: Sendable {
    /// What taking the lock needs saying (a stale lock taken over), or nil.
    var notice: String? { get }
    /// Throws when the lock is no longer this publish's (a lock that expires can be taken over
    /// by another publish): asked before the publish changes what readers are served.
    func confirm() async throws(PublishError)
    /// Lets the next publish in (a remote lock is deleted, so this may wait for the remote).
    func release() async
}

extension PublishLock {
    public var notice: String? { nil }
    /// A lock that never expires is held until released.
    public func confirm() async throws(PublishError) {}
}

/// A local file to publish: a path inside a folder, opened without following symbolic links,
/// with the size and SHA-256 it must have.
public struct UploadSource: Sendable, Equatable {
    /// The folder the file is in (the built folder).
    public var folder: URL
    /// The file's path relative to `folder`.
    public var path: String
    public var size: Int64
    public var sha256: String

    public init(folder: URL, path: String, size: Int64, sha256: String) {
        self.folder = folder
        self.path = path
        self.size = size
        self.sha256 = sha256
    }

    /// The file's full path, for messages.
    public var displayPath: String { folder.appendingPathComponent(path).path }

    /// Opens the file for reading, checked to be a regular file of the expected size reached
    /// without links.
    func open(step: String) throws(PublishError) -> OpenFile {
        let folder = try PublishFiles.open(self.folder, create: false, step: step)
        guard let file = try PublishFiles.file(at: path, in: folder, step: step) else {
            throw PublishError(step: step, target: displayPath, reason: .changedSinceBuild("the file is missing"))
        }
        guard file.size == size else {
            throw PublishError(
                step: step, target: displayPath,
                reason: .changedSinceBuild("it has \(file.size) bytes, the build manifest says \(size)"))
        }
        return file
    }

    /// The error for bytes sent that are not the promised ones, or nil when they are.
    func mismatch(sent: Int64, sha256 sent256: String?, step: String) -> PublishError? {
        guard sent != size || sent256 != sha256 else { return nil }
        return PublishError(
            step: step, target: displayPath,
            reason: .contentMismatch(expectedSize: size, size: sent, expectedSHA256: sha256, sha256: sent256 ?? ""))
    }
}

/// Parses a `--to` argument into a destination.
public enum Destinations {
    /// `rclone:<remote>:<path>`, `http(s)://…` (WebDAV), or a local folder path. A URL with
    /// user information (`http://user:secret@host/`) is refused: see `HTTPCredentials`. rclone
    /// runs with `environment`; `cacheRules` say what objects are stored with.
    public static func parse(
        _ text: String, timeouts: PublishTimeouts = PublishTimeouts(),
        environment: [String: String] = ProcessInfo.processInfo.environment, cacheRules: CacheRules = CacheRules()
    ) throws(PublishError) -> any PublishDestination {
        if text.hasPrefix("rclone:") {
            let remote = String(text.dropFirst("rclone:".count))
            guard remote.contains(":") else {
                throw PublishError(
                    step: "parse", target: RcloneDestination.redacted(remote: remote),
                    reason: .invalidDestination(reason: "expected rclone:<remote>:<path>"))
            }
            return RcloneDestination(remote: remote, timeouts: timeouts, cacheRules: cacheRules, environment: environment)
        }
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard !Redacted.hasUserInformation(text) else {
                throw PublishError(
                    step: "parse", target: "--to", reason: .credentialsInURL)
            }
            guard let url = URL(string: text.hasSuffix("/") ? text : text + "/"), url.host?.isEmpty == false,
                url.query == nil, url.fragment == nil
            else {
                throw PublishError(
                    step: "parse", target: Redacted.message(text),
                    reason: .invalidDestination(reason: "not a valid http(s) URL of a folder (no query or fragment)"))
            }
            return WebDAVDestination(
                root: url, credentials: HTTPCredentials.find(for: url, environment: environment), timeouts: timeouts,
                cacheRules: cacheRules)
        }
        if let host = hostLike(text) {
            throw PublishError(
                step: "parse", target: Redacted.message(text),
                reason: .invalidDestination(
                    reason:
                        "looks like a host (\(host)), not a folder: give a WebDAV destination with its scheme (http://\(text) or https://…), an rclone remote (rclone:<remote>:<path>), or, for a local folder of that name, ./\(text)"
                ))
        }
        return LocalFolderDestination(root: URL(fileURLWithPath: text, isDirectory: true))
    }

    /// The host a folder path seems to name (`localhost:8080/dav/`, `127.0.0.1/dav`,
    /// `dav.example.com:443/`), or nil: a first component with a port, `localhost` or an IPv4
    /// address. A path starting with `/`, `./`, `../` or `~` is always a folder.
    static func hostLike(_ text: String) -> String? {
        guard !text.hasPrefix("/"), !text.hasPrefix("."), !text.hasPrefix("~") else { return nil }
        let first = String(text.prefix { $0 != "/" })
        let name = first.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let hasPort = name.count == 2 && !name[1].isEmpty && name[1].allSatisfy(\.isASCII) && name[1].allSatisfy(\.isNumber)
        let host = String(name[0])
        let isIPv4 =
            host.split(separator: ".", omittingEmptySubsequences: false).count == 4
            && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { UInt8($0) != nil }
        guard !host.isEmpty, hasPort || host.lowercased() == "localhost" || isIPv4 else { return nil }
        return first
    }

    /// Why `http://user:secret@host/` is refused, without repeating it.
    public static let credentialsInURLMessage =
        "the URL carries credentials (user:password@), which other users of this machine can read on the command line; remove them and give them with NEWSSTAND_USER and NEWSSTAND_PASSWORD or a netrc file ($NETRC, else ~/.netrc)"
}
