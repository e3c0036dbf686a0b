/// A failure while building, naming the issue and the file concerned.
public struct BuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The issue being built, when the failure concerns one.
    public var issue: String?
    /// The file concerned.
    public var path: String
    /// What went wrong.
    public var reason: String

    public init(issue: String?, path: String, reason: String) {
        self.issue = issue
        self.path = path
        self.reason = reason
    }

    public var description: String {
        (issue.map { "issue '\($0)': " } ?? "") + "\(path): \(reason)"
    }
}
