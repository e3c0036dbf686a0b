import Foundation
import NewsstandImaging

/// Settings of a build.
public struct BuildOptions: Sendable {
    /// The output folder.
    public var output: URL
    /// How many bundles to build at once.
    public var jobs: Int
    /// Rebuild issues whose output is up to date.
    public var force: Bool
    /// Extra catalog formats to write beside `issues.plist`.
    public var feeds: Set<Feed>
    /// Remove output folders of issues that are no longer in the magazine (a full build).
    public var removesStaleIssues: Bool
    /// Name bundles and covers by their content (`a-1.3fa9c1e2.zip`) so they can be cached forever
    /// and a publish never replaces a served file in place: the default, as for `newsstand
    /// build`; false (`--fixed-names`) keeps the plain names (`a-1.zip`).
    public var versioned: Bool
    /// Renders the pages of each issue's Baker book: with `--feed shelf` and a renderer, every
    /// issue also gets `<name>.hpub` (without one, `shelf.json` points at the normal bundles).
    public var bookRenderer: (any BookPageRenderer)?
    /// The time given to an Atom entry whose metadata changed (whole seconds are kept).
    public var now: Date
    /// Makes every PNG and JPEG in the bundles smaller without changing a pixel (`--optimize`).
    public var optimize = false
    /// What one image operation may cost (derivation and `--optimize`).
    public var imagingLimits = ImagingLimits()
    /// The build index (`BuildIndex`) the validation read records through, written back into
    /// the output after the catalogs; nil to neither use nor write one.
    public var index: BuildIndex?

    public init(
        output: URL, jobs: Int, force: Bool = false, feeds: Set<Feed> = [], removesStaleIssues: Bool = true,
        versioned: Bool = true, bookRenderer: (any BookPageRenderer)? = nil, now: Date = Date(), optimize: Bool = false
    ) {
        self.optimize = optimize
        self.bookRenderer = bookRenderer
        self.now = now
        self.output = output
        self.jobs = jobs
        self.force = force
        self.feeds = feeds
        self.removesStaleIssues = removesStaleIssues
        self.versioned = versioned
    }
}
