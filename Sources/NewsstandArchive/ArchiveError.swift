/// A failure reading or writing an archive, with the file it concerns and why.
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The archive or source file the failure concerns.
    public var path: String
    /// What went wrong, in words (libarchive's or the system's message).
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
