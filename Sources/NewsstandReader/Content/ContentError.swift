/// Why an issue's content, or one of its pages, cannot be shown.
public enum ContentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The issue is not downloaded (its status is not available).
    case notAvailable(issue: String)
    /// `pages.plist` or `issue.plist` is missing or unreadable.
    case unreadable(file: String, reason: String)
    /// `pages.plist` is not an array of articles, each an array of page dicts.
    case malformed(file: String, reason: String)
    /// A page names a file that is not in the issue's content folder.
    case assetMissing(name: String, property: String)
    /// A page lacks a property its class needs, or has it with the wrong type.
    case badProperty(name: String, reason: String)

    /// What is wrong with the issue's content, for messages.
    public var description: String {
        switch self {
        case .notAvailable(let issue): "issue '\(issue)' is not downloaded"
        case .unreadable(let file, let reason): "\(file) cannot be read: \(reason)"
        case .malformed(let file, let reason): "\(file) is malformed: \(reason)"
        case .assetMissing(let name, let property): "'\(name)' (property '\(property)') is not in the issue's content"
        case .badProperty(let name, let reason): "property '\(name)': \(reason)"
        }
    }
}
