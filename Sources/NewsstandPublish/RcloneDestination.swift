import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandProcess

/// Any remote the `rclone` program reaches (S3 and compatible stores, GCS, Azure, SFTP, …),
/// given as `<remote>:<path>`. We run rclone rather than write object-store clients.
public struct RcloneDestination: PublishDestination {
    /// `<remote>:<path>`.
    public var remote: String
    public var timeouts: PublishTimeouts
    /// What each object is stored with (`Cache-Control`, `Content-Type`), on remotes that keep
    /// it (S3 and compatibles, GCS, Azure); other remotes ignore it.
    public var cacheRules: CacheRules
    /// The environment rclone runs with (its remotes can be configured there alone,
    /// `RCLONE_CONFIG_<NAME>_TYPE=s3` and so on); nil: newsstand's own.
    public var environment: [String: String]?
    /// Never the values of a connection string's parameters (`:s3,secret_access_key=…:`).
    public var description: String { "rclone:" + Self.redacted(remote: remote) }
    /// Object stores have no atomic rename (rclone copies then deletes): catalogs moved into
    /// place are read back to verify.
    public var supportsAtomicMove: Bool { false }
    /// What `writesInPlace` found, per remote; shared by this destination's copies (a publish
    /// asks once). Another destination asks again: its environment may define the remote
    /// otherwise.
    private let placement = Locked<[String: Bool]>([:])

    /// A destination at `remote` (`<remote>:<path>`).
    public init(
        remote: String, timeouts: PublishTimeouts = PublishTimeouts(), cacheRules: CacheRules = CacheRules(),
        environment: [String: String]? = nil
    ) {
        self.remote = remote
        self.timeouts = timeouts
        self.cacheRules = cacheRules
        self.environment = environment
    }

    func target(_ path: String) -> String {
        remote.hasSuffix(":") || remote.hasSuffix("/") ? remote + path : remote + "/" + path
    }

    public func read(_ path: String, limit: Int64) async throws(PublishError) -> Data? {
        let listing = try await run(["lsf", target(path)], step: "read", path: path, allowFailure: true)
        guard listing.status == 0, !listing.output.isEmpty else { return nil }
        return try await run(["cat", target(path)], step: "read", path: path, outputLimit: limit).output
    }

    public func upload(_ source: UploadSource, to path: String) async throws(PublishError) {
        try await upload(source, to: path, modified: nil)
    }

    /// With `rclone touch --timestamp` on the hidden name before the move: remotes that keep a
    /// modification time (a folder, SFTP, S3's and GCS's metadata) keep that one, and a rename
    /// keeps it. What an object store's server answers as `Last-Modified` is its own upload
    /// time, which rclone cannot set; its `ETag` (S3, GCS: a digest of the bytes) changes with
    /// the bytes whatever the times. A remote that cannot take a time leaves the one it set.
    public func upload(_ source: UploadSource, to path: String, modified: Int) async throws(PublishError) {
        try await upload(source, to: path, modified: Optional(modified))
    }

    /// The `ModTime` rclone lists for `path`; nil when there is no file.
    public func modificationTime(of path: String) async throws(PublishError) -> Double? {
        let listing = try await run(["lsjson", target(path)], step: "read", path: path, allowFailure: true)
        guard listing.status == 0, let items = try? JSONDecoder().decode([ListedFile].self, from: listing.output) else {
            return nil
        }
        return items.first.flatMap { Self.parseTime($0.ModTime) }
    }

    /// One entry of `rclone lsjson`.
    private struct ListedFile: Decodable {
        // rclone's field name, spelled as its JSON has it.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var ModTime: String
    }

    /// The whole seconds of `2026-12-01T23:00:05.123456789+13:00` (RFC 3339, as rclone lists
    /// times: any digits of fraction, `Z` or an offset). The fraction is dropped before parsing:
    /// Foundation reads at most three digits of it, and the validators are whole seconds.
    static func parseTime(_ text: String) -> Double? {
        var whole = Substring(text)
        if let dot = text.firstIndex(of: ".") {
            let end = text[text.index(after: dot)...].firstIndex { !$0.isNumber } ?? text.endIndex
            whole = text[..<dot] + text[end...]
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: String(whole))?.timeIntervalSince1970
    }

    private func upload(_ source: UploadSource, to path: String, modified: Int?) async throws(PublishError) {
        // rclone reads the file by its path: check it here first (no links on the way, the size
        // and SHA-256 the manifest promises), so that what rclone sends is what was built.
        try await PublishFiles.offload { () throws(PublishError) in
            let file = try source.open(step: "upload")
            let hasher = SHA256()
            let size: Int64
            do throws(FileSystemError) {
                size = try FileCopy.copy(file, to: nil, limit: source.size) { hasher.update($0) }
            } catch {
                throw .fileSystem("upload", error)
            }
            if let mismatch = source.mismatch(sent: size, sha256: hasher.finalizeHex(), step: "upload") { throw mismatch }
        }
        // Where rclone writes in place (a folder, SFTP), under a hidden name first, renamed when
        // whole: one stopped part-way would leave a cut file under the real name. The name comes
        // from the built file's (which is its final name), not from `path`, which may be a
        // staging name of this run: so the next publish writes the same hidden name, and an
        // upload a stop cut short is replaced rather than left beside it. An object store's
        // object appears only once whole, so there the upload goes straight to `path`: a rename
        // would be a server-side copy of every byte and a delete, for nothing.
        let inPlace = await writesInPlace()
        let partial = inPlace ? Self.partialName(for: path, of: source.path) : path
        // The headers of the file's final name (`source.path`: `path` may be a staging name).
        var arguments = ["copyto", "--ignore-times"] + Self.headerFlags(cacheRules.headers(for: source.path))
        if let modified {
            // As metadata with the upload: rclone's `touch` on an object store copies the object
            // onto itself with new metadata, which drops its Cache-Control.
            arguments += [
                "--metadata", "--metadata-set", "mtime=\(PlistDate.format(Date(timeIntervalSince1970: Double(modified))))",
            ]
        }
        _ = try await run(
            arguments + Self.aclFlags(for: path) + [source.displayPath, target(partial)], step: "upload", path: path,
            isUpload: true)
        if let modified, try await modificationTime(of: partial).map({ Int($0) }) != modified {
            // A remote that takes no metadata (SFTP): set the time afterwards. `2026-12-01T10:00:05`,
            // which rclone reads as UTC.
            let stamp = String(PlistDate.format(Date(timeIntervalSince1970: Double(modified))).dropLast())
            _ = try await run(
                ["touch", "--no-create", "--timestamp", stamp, target(partial)], step: "upload", path: path, allowFailure: true)
        }
        guard inPlace else { return }
        do throws(PublishError) {
            _ = try await run(
                ["moveto"] + Self.aclFlags(for: path) + [target(partial), target(path)], step: "upload", path: path)
        } catch {
            if !error.isStop { try? await delete(partial) }
            throw error
        }
    }

    /// Whether rclone writes this remote's files in place, so that an upload cut short leaves a
    /// cut file under its name (a folder, SFTP, WebDAV): true unless rclone lists the remote as
    /// bucket based (S3, GCS, Azure Blob, B2, Swift), whose objects appear only once whole.
    /// Asked once per destination and remote (`rclone backend features`); true when rclone
    /// cannot say.
    func writesInPlace() async -> Bool {
        if let known = placement.withLock({ $0[remote] }) { return known }
        let answer = try? await run(["backend", "features", remote], step: "upload", path: "", allowFailure: true)
        let inPlace: Bool
        if let answer, answer.status == 0, let listed = try? JSONDecoder().decode(ListedFeatures.self, from: answer.output) {
            inPlace = !listed.Features.BucketBased
        } else {
            inPlace = true
        }
        placement.withLock { $0[remote] = inPlace }
        return inPlace
    }

    /// The part of `rclone backend features` read: `{"Features": {"BucketBased": true, …}, …}`.
    private struct ListedFeatures: Decodable {
        // rclone's field names, spelled as its JSON has them.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        struct Flags: Decodable { var BucketBased: Bool }
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var Features: Flags
    }

    /// The hidden name an upload of the built file `built` to `path` is written under: in
    /// `path`'s folder, named after the built file (`a-1/.a-1.zip.upload`).
    static func partialName(for path: String, of built: String) -> String {
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let name = built.split(separator: "/").last.map(String.init) ?? built
        return "\(folder).\(name.prefix(200)).upload"
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        _ = try await run(
            ["moveto"] + Self.aclFlags(for: destination) + [target(source), target(destination)], step: "move", path: destination)
    }

    public func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool {
        let listing = try await run(["lsf", target(source)], step: "copy", path: source, allowFailure: true)
        guard listing.status == 0, !listing.output.isEmpty else { return false }
        _ = try await run(
            ["copyto"] + Self.aclFlags(for: destination) + [target(source), target(destination)], step: "copy", path: destination)
        return true
    }

    public func delete(_ path: String) async throws(PublishError) {
        let result = try await run(["deletefile", target(path)], step: "delete", path: path, allowFailure: true)
        if result.status != 0, !result.error.contains("not found"), !result.error.contains("doesn't exist") {
            throw PublishError(
                step: "delete", target: display(path), reason: .rclone(status: result.status, message: result.error))
        }
    }

    func display(_ path: String) -> String { "rclone:" + Self.redacted(remote: target(path)) }

    private func scrub(_ message: String) -> String {
        Self.secrets(of: remote).reduce(Redacted.message(message)) { text, secret in
            text.replacingOccurrences(of: secret, with: "***")
        }
    }

    /// One rclone run: through `ChildProcess` (a clean signal mask, a process group of its
    /// own, stopped with SIGTERM then SIGKILL when newsstand gets SIGINT or SIGTERM, when the
    /// task is cancelled, or at the deadline), its output capped.
    func run(
        _ arguments: [String], step: String, path: String, allowFailure: Bool = false, outputLimit: Int64 = 1 << 20,
        isUpload: Bool = false
    ) async throws(PublishError) -> (status: Int32, output: Data, error: String) {
        let flags = ["--contimeout", "\(timeouts.connect)s", "--timeout", "\(timeouts.stall)s", "--low-level-retries", "3"]
        var options = ChildOptions(outputLimit: Int(outputLimit), deadline: isUpload ? nil : Double(timeouts.request))
        options.environment = environment
        let outcome: ChildOutcome
        switch await ChildProcess.run("rclone", flags + arguments, options: options) {
        case .success(let finished): outcome = finished
        case .failure(.cannotStart(_, let code)):
            let reason = code == ENOENT ? "it is not installed (or not on PATH)" : String(cString: strerror(code))
            throw PublishError(step: step, target: display(path), reason: .cannotRun(program: "rclone", reason: reason))
        case .failure(.cancelled):
            throw PublishError(step: step, target: display(path), reason: .cancelled)
        }
        switch outcome.stop {
        case .outputLimit?: throw PublishError(step: step, target: display(path), reason: .tooLarge(limit: outputLimit))
        case .deadline?:
            throw PublishError(step: step, target: display(path), reason: .timedOut(.request, seconds: Double(timeouts.request)))
        // A child stopped by newsstand's SIGINT or SIGTERM never comes back here: the process
        // ends by the signal (`ChildProcess.wait`).
        case .cancelled?, .interrupted?: throw PublishError(step: step, target: display(path), reason: .cancelled)
        case nil: break
        }
        let status = outcome.termination.status
        let message = scrub(outcome.errorText)
        if status != 0, !allowFailure {
            throw PublishError(step: step, target: display(path), reason: .rclone(status: status, message: message))
        }
        return (status, outcome.output, message)
    }
}
