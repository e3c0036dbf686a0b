/// Catalog formats written beside `issues.plist`.
public enum Feed: String, Sendable, CaseIterable {
    /// `shelf.json`, the Baker framework's shelf format.
    case shelf
    /// `atom.xml`, a Newsstand Atom feed (`xmlns:news="http://itunes.apple.com/2011/Newsstand"`).
    case atom

    /// The file the feed is written to in the output folder.
    public var fileName: String {
        switch self {
        case .shelf: return "shelf.json"
        case .atom: return "atom.xml"
        }
    }
}
