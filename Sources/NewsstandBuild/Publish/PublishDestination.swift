import Foundation

/// Where a built magazine is published: a folder, a WebDAV / HTTP PUT endpoint, or an rclone
/// remote. Paths are relative to the destination's root and use `/`.
public protocol PublishDestination: Sendable {
    /// How the destination reads in messages.
    var description: String { get }
    /// Whether `move` replaces a file atomically (so catalogs can be uploaded under a
    /// temporary name and moved into place).
    var supportsAtomicMove: Bool { get }
    /// The file at `path`, or nil when there is none.
    func read(_ path: String) async throws(PublishError) -> Data?
    /// Uploads a local file to `path`, creating folders as needed.
    func upload(_ file: URL, to path: String) async throws(PublishError)
    /// Renames `source` to `destination`, replacing it.
    func move(_ source: String, to destination: String) async throws(PublishError)
    /// Deletes `path` (no error when it is already gone).
    func delete(_ path: String) async throws(PublishError)
}

/// Parses a `--to` argument into a destination.
public enum Destinations {
    /// `rclone:<remote>:<path>`, `http(s)://…` (WebDAV), or a local folder path.
    public static func parse(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(PublishError)
        -> any PublishDestination
    {
        if text.hasPrefix("rclone:") {
            let remote = String(text.dropFirst("rclone:".count))
            guard remote.contains(":") else {
                throw PublishError(step: "parse", target: text, reason: "expected rclone:<remote>:<path>")
            }
            return RcloneDestination(remote: remote)
        }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            guard let url = URL(string: text.hasSuffix("/") ? text : text + "/"), url.host != nil else {
                throw PublishError(step: "parse", target: text, reason: "not a valid URL")
            }
            return WebDAVDestination(root: url, credentials: HTTPCredentials.find(for: url, environment: environment))
        }
        return LocalFolderDestination(root: URL(fileURLWithPath: text, isDirectory: true))
    }
}
