import Foundation
import NewsstandFormat

/// What a build did.
public struct BuildReport: Sendable {
    /// Issues whose bundles were written.
    public var built: [String] = []
    /// Issues left untouched because their output was up to date.
    public var upToDate: [String] = []
    /// Output folders removed because their issue left the magazine.
    public var removed: [String] = []
    /// Bundles written, and their total size in bytes.
    public var bundlesWritten = 0
    public var bytesWritten: Int64 = 0
    /// Issues in the catalog written.
    public var catalogEntries = 0
    /// Warnings about the extra feeds (their own rules), as diagnostics.
    public var feedDiagnostics: [Diagnostic] = []
    /// Images derived from `@2x` masters and optimised, made now or taken from the cache.
    public var images = ImageWorkCounts()
    /// EPUBs written (`--feed epub`).
    public var epubsWritten = 0
    /// Pages of the EPUBs written that show only their base image (their class has more an
    /// EPUB page cannot show, such as a PhotoPage's gallery), by class.
    public var epubPagesAsBaseImage: [String: Int] = [:]
    /// What the build left alone in the output folder and why (files it did not write, a
    /// record it could not trust, a link where an issue's folder was).
    public var warnings: [String] = []
}

extension BuildReport {
    /// Counts an issue built now: its bundles, their bytes, its images and its EPUB.
    mutating func add(built issue: String, outputs: IssueBuildOutputs, images: ImageWorkCounts) {
        built.append(issue)
        bundlesWritten += 2
        bytesWritten += outputs.normal.bundle.size + outputs.retina.bundle.size
        self.images = self.images + images
        if let epub = outputs.epub {
            epubsWritten += 1
            epubPagesAsBaseImage.merge(epub.degraded, uniquingKeysWith: +)
        }
    }
}
