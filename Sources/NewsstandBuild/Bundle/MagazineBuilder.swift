import Foundation
import NewsstandCore
import NewsstandFormat
import NewsstandImaging

/// Builds validated issues into an output folder: per issue the normal and `@2x` bundles and
/// covers (in parallel, skipping issues whose output is up to date), then the catalogs.
public struct MagazineBuilder: Sendable {
    public var magazine: Magazine
    public var options: BuildOptions

    /// The renderer of Baker books, when this build writes them (`--feed shelf`).
    private var bookRenderer: (any BookPageRenderer)? { options.feeds.contains(.shelf) ? options.bookRenderer : nil }

    /// What this build's EPUBs take from the magazine, when it writes them (`--feed epub`).
    private var epubSettings: EPUBSettings? { options.feeds.contains(.epub) ? EPUBSettings(magazine: magazine) : nil }

    /// The settings of this build's outputs, which a record must match to be up to date.
    private var settings: OutputSettings {
        OutputSettings(
            isVersioned: options.versioned, hasBook: bookRenderer != nil, isOptimized: options.optimize,
            epubKey: epubSettings?.key)
    }

    /// What each issue's jobs make: both scales, then the Baker book and the EPUB when asked.
    private var jobKinds: [IssueJob.Kind] {
        let book = bookRenderer.map { IssueJob.Kind.book($0, author: magazine.author, baseURL: magazine.baseURL) }
        return [.scale(retina: false), .scale(retina: true)] + [book, epubSettings.map { .epub($0) }].compactMap { $0 }
    }

    public init(magazine: Magazine, options: BuildOptions) {
        self.magazine = magazine
        self.options = options
    }

    /// Builds `plans`; `progress` is called with (bundles done, bundles to build), `imageProgress`
    /// with each image derived or optimised (the stage, images made, images to make in this
    /// round of issues: they come before its bundles), `warning` with each warning as it arises
    /// (they are in the report too, but a failed build has none).
    ///
    /// Refuses an output folder that overlaps the magazine, and an issue output folder that
    /// is a link, before writing anything. Removes only files an earlier build recorded.
    public func build(
        _ plans: [IssuePlan], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
        imageProgress: @escaping @Sendable (String, Int, Int) -> Void = { _, _, _ in },
        warning: @escaping (String) -> Void = { _ in }
    ) throws(BuildError) -> BuildReport {
        do {
            try OutputFolderRule.check(output: options.output, magazine: magazine.folder)
        } catch {
            throw .outputOverlapsMagazine(error)
        }
        // Paths joined as text: a URL per issue was 4% of a no-change build.
        let outputPath = options.output.path.hasSuffix("/") ? options.output.path : options.output.path + "/"
        for plan in plans {
            // An issue whose record says its output is current had its output folders opened
            // without following links while it was validated (`RecordedValidation`), and
            // nothing will be written there: no `stat` again (500 of them in a no-change build).
            if plan.recorded?.isCurrent == true, !options.force { continue }
            // A paid issue's content goes to paid/<name>: neither may be a link either.
            var folders = [outputPath + plan.name]
            if plan.metadata.access == .paid {
                folders += [outputPath + IssueAccess.paidFolder, outputPath + IssueAccess.paid.contentFolder(of: plan.name)]
            }
            for folder in folders where (try? FileStatus.of(folder))?.kind == .symbolicLink {
                throw .issueOutputIsALink(issue: plan.name, path: folder)
            }
        }
        let root = try prepareOutput()
        var report = BuildReport()
        let warnings = WarningSink(forward: warning)
        let rule = UpToDateRule(settings: settings, force: options.force)
        var stale: [IssuePlan] = []
        for plan in plans {
            if try rule.isUpToDate(plan, in: root) {
                report.upToDate.append(plan.name)
            } else {
                stale.append(plan)
            }
        }
        try buildIssues(
            stale, in: root, report: &report, warnings: warnings, progress: progress, imageProgress: imageProgress)
        if options.removesStaleIssues {
            try removeStaleIssues(keeping: Set(magazine.issueNames), in: root, report: &report, warnings: warnings)
        }
        let catalog = try CatalogWriter(
            magazine: magazine, output: options.output, feeds: options.feeds, now: options.now, index: options.index,
            justBuilt: Set(report.built)
        ).write()
        warnings.warn(catalog.warnings)
        if let index = options.index {
            do {
                try index.write(in: root)
            } catch {
                warnings.warn("the build index cannot be written (\(error)); the next build reads every issue's manifest")
            }
        }
        report.warnings = warnings.messages
        report.catalogEntries = catalog.entries
        report.feedDiagnostics = catalog.diagnostics
        return report
    }

    private func prepareOutput() throws(BuildError) -> OpenFolder {
        let path = options.output.path
        if let status = try? FileStatus.of(path, followingLinks: true), status.kind != .folder {
            throw .outputIsAFile(path: path)
        }
        do {
            return try OpenFolder.open(options.output, create: true)
        } catch {
            throw .outputFolder(issue: nil, error)
        }
    }

    /// Issues built per round: each round's results (every input's record) are written to
    /// manifests before the next starts, so memory does not grow with the number of issues
    /// (collecting every issue's results first was the one thing that did: 9 MB more at 500 issues).
    static let issuesPerRound = 32

    private func buildIssues(
        _ plans: [IssuePlan], in root: OpenFolder, report: inout BuildReport, warnings: WarningSink,
        progress: @escaping @Sendable (Int, Int) -> Void, imageProgress: @escaping @Sendable (String, Int, Int) -> Void
    ) throws(BuildError) {
        let total = 2 * plans.count
        var start = 0
        while start < plans.count {
            let round = Array(plans[start..<min(plans.count, start + Self.issuesPerRound)])
            let done = 2 * start
            var buildRound = BuildRound(
                plans: round, root: root, options: options, settings: settings, kinds: jobKinds, warnings: warnings)
            buildRound.imageProgress = imageProgress
            try buildRound.run(report: &report) { progress(done + $0, total) }
            start += round.count
        }
    }
}
