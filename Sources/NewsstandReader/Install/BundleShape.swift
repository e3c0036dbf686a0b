import NewsstandCore

/// Where the issue sits in an unpacked bundle. `newsstand build` puts it at the root of the
/// archive; other tools and people zip the folder with it (`zip -r a-2.zip a-2/`), so
/// every entry sits under one top-level folder. macOS's zip adds a `__MACOSX/` folder of
/// resource forks beside it, which is never part of an issue.
enum BundleShape {
    /// The folder macOS's zip (and Finder's "Compress") adds for resource forks.
    static let macOSMetadata = "__MACOSX"
    /// The page config an issue has at its root.
    static let pageConfig = "pages.plist"

    /// Removes `__MACOSX/` from the root of an unpacked bundle (never through a link: it is a
    /// folder the unpacker made), and returns the one folder that holds the issue when the
    /// bundle was zipped with its enclosing folder: no `pages.plist` at the root, and exactly one
    /// entry, a folder. Nil when the root is the issue.
    static func normalize(_ unpacked: OpenFolder) throws(FileSystemError) -> String? {
        if unpacked.kind(of: macOSMetadata) != nil { try unpacked.removeTree(macOSMetadata) }
        guard unpacked.kind(of: pageConfig) == nil else { return nil }
        let entries = try unpacked.entries()
        guard entries.count == 1, let only = entries.first, only.kind == .folder, let name = only.name else { return nil }
        return name
    }
}
