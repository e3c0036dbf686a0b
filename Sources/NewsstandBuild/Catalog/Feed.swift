/// The channels a build writes beside `issues.plist` and the bundles (`--feed`).
public enum Feed: String, Sendable, CaseIterable {
    /// `shelf.json`, the Baker framework's shelf format, and a Baker book per issue.
    case shelf
    /// `atom.xml`, a Newsstand Atom feed (`xmlns:news="http://itunes.apple.com/2011/Newsstand"`).
    case atom
    /// `opds.json`, an OPDS 2.0 catalog (`OPDSFeed`).
    case opds
    /// A fixed-layout EPUB 3 per issue, beside its bundles (`EPUBBuilder`); it has no catalog
    /// file of its own: the OPDS feed links each issue's EPUB.
    case epub

    /// The catalog file the feed is written to in the output folder; nil for `epub`, which
    /// writes one file per issue.
    public var fileName: String? {
        switch self {
        case .shelf: ShelfFeed.fileName
        case .atom: AtomFeed.fileName
        case .opds: OPDSFeed.fileName
        case .epub: nil
        }
    }

    /// Every catalog file a build may write beside `issues.plist`, in the order publish
    /// replaces them.
    public static var catalogFileNames: [String] { allCases.compactMap(\.fileName) }
}
