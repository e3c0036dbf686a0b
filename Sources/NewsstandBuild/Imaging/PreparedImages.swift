import Foundation
import NewsstandCore
import NewsstandFormat

/// What the image preparation of one issue gives its bundle jobs: the files that stand in for
/// names in `assets/` (a derived normal size, an optimised image), and the records of the
/// inputs it read.
struct PreparedImages: Sendable {
    /// Name in a bundle (`1-0.png`, `1-0@2x.png`, the cover's) → file in `.newsstand/images/`.
    var substitutes: [String: String] = [:]
    /// Records of the inputs read to make them (masters, originals), for the manifest.
    var inputs: [InputRecord] = []
    /// What was done.
    var work = ImageWorkCounts()

    /// The file to pack for `name`: its substitute in the issue's image cache, or `name` in
    /// `assets/`. `recorded` says whether the bundle should record it as an input (a file of
    /// `assets/`) or not (a cached result: its input is recorded here already).
    func open(
        _ name: String, source: IssueSource, assets: OpenFolder, outputFolder: OpenFolder
    ) throws(BuildError) -> (file: OpenFile, recorded: Bool) {
        guard let cached = substitutes[name] else { return (try source.file(name, in: assets), true) }
        do {
            return (try outputFolder.folder(BuildManifest.folderName).folder(ImageCache.folderName).file(cached), false)
        } catch {
            throw .output(issue: source.plan.name, error)
        }
    }
}

/// How many images a build derived and optimised, and how many it took from the cache.
public struct ImageWorkCounts: Sendable, Equatable {
    /// Normal sizes derived from `@2x` masters in this build.
    public var derived = 0
    /// Normal sizes taken from the cache (derived by an earlier build from the same master).
    public var derivedFromCache = 0
    /// Images `--optimize` processed in this build (made smaller or found not to get smaller).
    public var optimized = 0
    /// Images whose optimisation was taken from the cache.
    public var optimizedFromCache = 0
    /// Bytes the optimised images in the bundles save, against their originals (cached ones included).
    public var bytesSaved: Int64 = 0

    public init() {}

    static func + (a: ImageWorkCounts, b: ImageWorkCounts) -> ImageWorkCounts {
        var sum = a
        sum.derived += b.derived
        sum.derivedFromCache += b.derivedFromCache
        sum.optimized += b.optimized
        sum.optimizedFromCache += b.optimizedFromCache
        sum.bytesSaved += b.bytesSaved
        return sum
    }
}
