import Foundation

/// What an issue's outputs depend on besides its inputs: the build's choices that change which
/// files it writes or their bytes. Outputs made with other settings are not up to date,
/// whatever their inputs (`UpToDateRule`).
public struct OutputSettings: Sendable, Equatable {
    /// Whether the outputs are named by content (`a-1.3fa9c1e2.zip`; false: `--fixed-names`).
    public var isVersioned: Bool
    /// Whether a Baker book is among them (`--feed shelf` with a page renderer).
    public var hasBook: Bool
    /// Whether the bundles' images went through `--optimize`.
    public var isOptimized: Bool
    /// The key of the magazine settings the EPUB is made with (`EPUBSettings.key`); nil when
    /// there is no EPUB.
    public var epubKey: String?

    /// Settings as given.
    public init(isVersioned: Bool, hasBook: Bool, isOptimized: Bool, epubKey: String?) {
        self.isVersioned = isVersioned
        self.hasBook = hasBook
        self.isOptimized = isOptimized
        self.epubKey = epubKey
    }

    /// The settings the build that wrote `manifest` used.
    init(of manifest: BuildManifest) {
        self.init(
            isVersioned: manifest.isVersioned, hasBook: manifest.hpub != nil, isOptimized: manifest.optimized ?? false,
            epubKey: manifest.epubKey)
    }
}
