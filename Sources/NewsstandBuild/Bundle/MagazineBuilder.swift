import Foundation
import NewsstandCore
import NewsstandFormat
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

/// One output of one issue to build, on a thread of the work queue: a scale's bundle and
/// cover, or the Baker book.
private struct IssueJob: Sendable {
    enum Kind: Sendable {
        case scale(retina: Bool)
        case book(any BookPageRenderer, author: String, baseURL: URL?)
        case epub(EPUBSettings)
    }

    enum Output: Sendable {
        case scale(ScaleOutput)
        case book(OutputRecord)
        case epub(EPUBBuilder.Output)
    }

    let plan: IssuePlan
    let kind: Kind
    let root: OpenFolder
    let temporaryNames: [String: String]
    let images: PreparedImages

    func build() throws(BuildError) -> Output {
        // Each job opens the folder itself: descriptors stay few however many issues there are.
        let access = plan.metadata.access
        guard let output = try IssueOutputFolder.open(plan.name, in: root, create: false),
            let content = try IssueOutputFolder.openContent(plan.name, access: access, in: root, create: false)
        else {
            throw .issueOutputVanished(issue: plan.name, path: root.path(of: access.contentFolder(of: plan.name)))
        }
        switch kind {
        case .scale(let retina):
            return .scale(
                try BundleBuilder(
                    plan: plan, retina: retina, outputFolder: output.folder, contentFolder: content.folder,
                    temporaryNames: temporaryNames, images: images
                ).build())
        case .book(let renderer, let author, let baseURL):
            return .book(
                try HPubBuilder(
                    plan: plan, outputFolder: output.folder, contentFolder: content.folder, temporaryNames: temporaryNames,
                    renderer: renderer, author: author, baseURL: baseURL, images: images
                ).build())
        case .epub(let settings):
            return .epub(
                try EPUBBuilder(
                    plan: plan, outputFolder: output.folder, contentFolder: content.folder, temporaryNames: temporaryNames,
                    settings: settings, images: images
                ).build())
        }
    }
}

/// Collects a build's warnings and hands each on as it arises.
private final class WarningSink {
    private(set) var messages: [String] = []
    private let forward: (String) -> Void

    init(forward: @escaping (String) -> Void) {
        self.forward = forward
    }

    func warn(_ message: String) {
        messages.append(message)
        forward(message)
    }

    func warn(_ messages: [String]) {
        for message in messages { warn(message) }
    }
}

/// Builds validated issues into an output folder: per issue the normal and `@2x` bundles and
/// covers (in parallel, skipping issues whose output is up to date), then the catalogs.
public struct MagazineBuilder: Sendable {
    public var magazine: Magazine
    public var options: BuildOptions

    /// The renderer of Baker books, when this build writes them (`--feed shelf`).
    private var bookRenderer: (any BookPageRenderer)? { options.feeds.contains(.shelf) ? options.bookRenderer : nil }

    /// What this build's EPUBs take from the magazine, when it writes them (`--feed epub`).
    private var epubSettings: EPUBSettings? { options.feeds.contains(.epub) ? EPUBSettings(magazine: magazine) : nil }

    public init(magazine: Magazine, options: BuildOptions) {
        self.magazine = magazine
        self.options = options
    }

    /// Builds `plans`; `progress` is called with (bundles done, bundles to build), `warning`
    /// with each warning as it arises (they are in the report too, but a failed build has none).
    ///
    /// Refuses an output folder that overlaps the magazine, and an issue output folder that
    /// is a link, before writing anything. Removes only files an earlier build recorded.
    public func build(
        _ plans: [IssuePlan], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }, warning: @escaping (String) -> Void = { _ in }
    ) throws(BuildError) -> BuildReport {
        do {
            try OutputFolderRule.check(output: options.output, magazine: magazine.folder)
        } catch {
            throw .outputOverlapsMagazine(error)
        }
        // Paths joined as text: a URL per issue was 4% of a no-change build.
        let outputPath = options.output.path.hasSuffix("/") ? options.output.path : options.output.path + "/"
        for plan in plans {
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
        var stale: [IssuePlan] = []
        let epubKey = epubSettings?.key
        for plan in plans {
            if !options.force, let recorded = plan.recorded, recorded.isCurrent, recorded.isVersioned == options.versioned,
                recorded.hasBook == (bookRenderer != nil), recorded.isOptimized == options.optimize, recorded.epubKey == epubKey
            {
                // Validation was taken from the record after checking every input and output.
                report.upToDate.append(plan.name)
            } else if !options.force, let folder = try IssueOutputFolder.open(plan.name, in: root, create: false),
                let manifest = BuildCache.upToDateManifest(for: plan, output: folder, root: root),
                manifest.isVersioned == options.versioned,
                (manifest.hpub != nil) == (bookRenderer != nil), (manifest.optimized ?? false) == options.optimize,
                manifest.epubKey == epubKey
            {
                report.upToDate.append(plan.name)
            } else {
                stale.append(plan)
            }
        }
        try buildIssues(stale, in: root, report: &report, warnings: warnings, progress: progress)
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
        progress: @escaping @Sendable (Int, Int) -> Void
    ) throws(BuildError) {
        let total = 2 * plans.count
        var start = 0
        while start < plans.count {
            let round = Array(plans[start..<min(plans.count, start + Self.issuesPerRound)])
            let done = 2 * start
            try buildRound(round, in: root, report: &report, warnings: warnings) { progress(done + $0, total) }
            start += round.count
        }
    }

    private func buildRound(
        _ plans: [IssuePlan], in root: OpenFolder, report: inout BuildReport, warnings: WarningSink,
        progress: @escaping @Sendable (Int) -> Void
    ) throws(BuildError) {
        guard !plans.isEmpty else { return }
        // Before anything is written: what each folder's records say is ours (kept to remove
        // leftovers later), plus what this build will write, recorded (`IssueOutputs`).
        var folders: [String: IssueOutputs] = [:]
        for plan in plans {
            let book = bookRenderer != nil ? [HPubBuilder.fileName(of: plan)] : []
            let epub = epubSettings != nil ? [EPUBBuilder.fileName(of: plan)] : []
            let contentNames = BundleBuilder.contentNames(of: plan) + book + epub
            folders[plan.name] = try IssueOutputs.prepare(plan, in: root, contentNames: contentNames) { warnings.warn($0) }
        }
        var notes: [String] = []
        let images = try ImagePreparer(plans: plans, root: root, width: options.jobs, optimize: options.optimize, limits: options.imagingLimits)
            .prepare(warnings: &notes)
        warnings.warn(notes)
        let book = bookRenderer.map { IssueJob.Kind.book($0, author: magazine.author, baseURL: magazine.baseURL) }
        let kinds =
            [IssueJob.Kind.scale(retina: false), .scale(retina: true)] + (book.map { [$0] } ?? [])
            + (epubSettings.map { [.epub($0)] } ?? [])
        let jobs = plans.enumerated().flatMap { index, plan in
            kinds.map {
                IssueJob(
                    plan: plan, kind: $0, root: root, temporaryNames: folders[plan.name]?.temporaryNames ?? [:], images: images[index])
            }
        }
        let results = try WorkQueue(jobs).run(width: options.jobs, perform: { job throws(BuildError) in try job.build() }) {
            progress($0)
        }
        for (index, plan) in plans.enumerated() {
            let outputs = results[(kinds.count * index)..<(kinds.count * (index + 1))]
            var scales: [ScaleOutput] = []
            var bookRecord: OutputRecord?
            var epub: EPUBBuilder.Output?
            for output in outputs {
                switch output {
                case .scale(let scale): scales.append(scale)
                case .book(let record): bookRecord = record
                case .epub(let made): epub = made
                }
            }
            guard scales.count == 2 else { continue }  // two scale jobs per issue, in order
            let (normal, retina) = (scales[0], scales[1])
            var inputs: [String: InputRecord] = [:]
            for input in images[index].inputs + normal.inputs + retina.inputs { inputs[input.path] = input }
            var manifest = BuildManifest(
                toolVersion: ToolVersion.current, name: plan.name, metadata: plan.metadata,
                inputs: inputs.values.sorted { $0.path < $1.path }, bundle: normal.bundle, retinaBundle: retina.bundle,
                cover: normal.cover, retinaCover: retina.cover, index: normal.index, retinaIndex: retina.index, hpub: bookRecord, isVersioned: options.versioned, validation: plan.validation)
            manifest.optimized = options.optimize ? true : nil
            manifest.epub = epub?.record
            manifest.epubKey = epub != nil ? epubSettings?.key : nil
            guard var output = folders[plan.name] else { continue }
            do {
                warnings.warn(try output.finish(&manifest, versioned: options.versioned, root: root))
            } catch {
                throw .output(issue: plan.name, error)
            }
            report.built.append(plan.name)
            report.bundlesWritten += 2
            report.bytesWritten += normal.bundle.size + retina.bundle.size
            report.images = report.images + images[index].work
            if let epub {
                report.epubsWritten += 1
                report.epubPagesAsBaseImage.merge(epub.degraded, uniquingKeysWith: +)
            }
        }
    }

    /// Removes what earlier builds recorded in the output folders of issues no longer in the
    /// magazine (so the catalog does not list them), and each folder if that empties it.
    /// Files newsstand did not write stay, and so does their folder. A folder that is a link
    /// is left (with a warning); one whose records cannot be trusted stops the build.
    private func removeStaleIssues(
        keeping names: Set<String>, in root: OpenFolder, report: inout BuildReport, warnings: WarningSink
    ) throws(BuildError) {
        let entries: [FolderEntry]
        do {
            entries = try root.entries()
        } catch {
            throw .output(issue: nil, error)
        }
        for entry in entries.sorted(by: { $0.rawName.lexicographicallyPrecedes($1.rawName) }) {
            guard let name = entry.name, !entry.isHidden, !names.contains(name) else { continue }
            switch entry.kind {
            case .symbolicLink:
                if FileStatus.kind(of: BuildManifest.url(in: options.output.appendingPathComponent(name))) != nil {
                    warnings.warn(
                        "left \(root.path(of: name)) in place: it is a symbolic link, and newsstand does not remove through links")
                }
            case .folder:
                guard let output = try? IssueOutputFolder.open(name, in: root, create: false), output.hasRecords else { continue }
                let recorded: Set<String>
                do {
                    recorded = try output.recordedFiles()
                } catch {
                    throw .untrustedRecord(issue: name, error, issueLeft: true)
                }
                warnings.warn(output.removeAll(recorded, from: root))
                report.removed.append(name)
            default:
                continue
            }
        }
        try removeStalePaidContent(keeping: names, in: root, report: &report, warnings: warnings)
    }

    /// The same for `paid/<name>` folders (a paid issue's content) whose issue left.
    private func removeStalePaidContent(
        keeping names: Set<String>, in root: OpenFolder, report: inout BuildReport, warnings: WarningSink
    ) throws(BuildError) {
        let paid: OpenFolder
        do throws(FileSystemError) {
            paid = try root.folder(IssueAccess.paidFolder)
        } catch .missing {
            return
        } catch .symbolicLink(let path, _, _) {
            warnings.warn("left \(path) in place: it is a symbolic link, and newsstand does not remove through links")
            return
        } catch {
            throw .output(issue: nil, error)
        }
        let entries: [FolderEntry]
        do {
            entries = try paid.entries()
        } catch {
            throw .output(issue: nil, error)
        }
        for entry in entries.sorted(by: { $0.rawName.lexicographicallyPrecedes($1.rawName) }) {
            guard let name = entry.name, !entry.isHidden, !names.contains(name) else { continue }
            if entry.kind == .symbolicLink {
                warnings.warn(
                    "left \(paid.path(of: name)) in place: it is a symbolic link, and newsstand does not remove through links")
                continue
            }
            guard entry.kind == .folder, let content = try? IssueOutputFolder.openPaidContent(name, in: root, create: false),
                content.hasRecords
            else { continue }
            let recorded: Set<String>
            do {
                recorded = try content.recordedFiles()
            } catch {
                throw .untrustedRecord(issue: name, error, issueLeft: true)
            }
            warnings.warn(content.removeAll(recorded, from: root))
            if !report.removed.contains(name) { report.removed.append(name) }
        }
    }
}
