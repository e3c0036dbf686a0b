import Foundation
import NewsstandFormat

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
    /// and a publish never replaces a served file in place. `newsstand build` sets it unless
    /// given `--fixed-names`.
    public var versioned: Bool

    public init(
        output: URL, jobs: Int, force: Bool = false, feeds: Set<Feed> = [], removesStaleIssues: Bool = true,
        versioned: Bool = false
    ) {
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
}

/// Builds validated issues into an output folder: per issue the normal and `@2x` bundles and
/// covers (in parallel, skipping issues whose output is up to date), then the catalogs.
public struct MagazineBuilder: Sendable {
    public var magazine: Magazine
    public var options: BuildOptions

    public init(magazine: Magazine, options: BuildOptions) {
        self.magazine = magazine
        self.options = options
    }

    /// Builds `plans`; `progress` is called with (bundles done, bundles to build).
    public func build(_ plans: [IssuePlan], progress: @Sendable (Int, Int) -> Void = { _, _ in }) throws(BuildError)
        -> BuildReport
    {
        try prepareOutput()
        var report = BuildReport()
        var stale: [IssuePlan] = []
        for plan in plans {
            let folder = options.output.appendingPathComponent(plan.name)
            if !options.force, let manifest = BuildCache.upToDateManifest(for: plan, output: folder),
                manifest.isVersioned == options.versioned
            {
                report.upToDate.append(plan.name)
            } else {
                stale.append(plan)
            }
        }
        try buildIssues(stale, report: &report, progress: progress)
        if options.removesStaleIssues { report.removed = try removeStaleIssues(keeping: Set(magazine.issueNames)) }
        let catalog = try CatalogWriter(magazine: magazine, output: options.output, feeds: options.feeds).write()
        report.catalogEntries = catalog.entries
        report.feedDiagnostics = catalog.diagnostics
        return report
    }

    private func prepareOutput() throws(BuildError) {
        var isDirectory: ObjCBool = false
        let path = options.output.path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw BuildError(issue: nil, path: path, reason: "the output folder is a file")
        }
        do {
            try FileManager.default.createDirectory(at: options.output, withIntermediateDirectories: true)
        } catch {
            throw BuildError(issue: nil, path: path, reason: BundleBuilder.reason(error))
        }
    }

    private func buildIssues(
        _ plans: [IssuePlan], report: inout BuildReport, progress: @Sendable (Int, Int) -> Void
    ) throws(BuildError) {
        guard !plans.isEmpty else { return }
        for plan in plans {
            let folder = options.output.appendingPathComponent(plan.name)
            do {
                // The manifest goes first and comes back last: an interrupted rebuild is never taken as done.
                try? FileManager.default.removeItem(at: BuildManifest.url(in: folder))
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw BuildError(issue: plan.name, path: folder.path, reason: BundleBuilder.reason(error))
            }
        }
        let output = options.output
        let jobs: [@Sendable () throws -> ScaleOutput] = plans.flatMap { plan in
            [false, true].map { retina in
                { @Sendable in
                    try BundleBuilder(plan: plan, retina: retina, outputFolder: output.appendingPathComponent(plan.name)).build()
                }
            }
        }
        let total = jobs.count
        let results: [ScaleOutput]
        do {
            results = try WorkQueue(jobs).run(width: options.jobs) { progress($0, total) }
        } catch {
            throw error as? BuildError ?? BuildError(issue: nil, path: output.path, reason: "\(error)")
        }
        for (index, plan) in plans.enumerated() {
            let normal = results[2 * index]
            let retina = results[2 * index + 1]
            var inputs: [String: InputRecord] = [:]
            for input in normal.inputs + retina.inputs { inputs[input.path] = input }
            var manifest = BuildManifest(
                toolVersion: ToolVersion.current, name: plan.name, metadata: plan.metadata,
                inputs: inputs.values.sorted { $0.path < $1.path }, bundle: normal.bundle, retinaBundle: retina.bundle,
                cover: normal.cover, retinaCover: retina.cover, isVersioned: options.versioned)
            let folder = output.appendingPathComponent(plan.name)
            do {
                if options.versioned { try VersionedNames.apply(to: &manifest, in: folder) }
                try manifest.write(in: folder)
                try removeLeftovers(in: folder, keeping: manifest)
            } catch {
                throw error as? BuildError ?? BuildError(issue: plan.name, path: folder.path, reason: BundleBuilder.reason(error))
            }
            report.built.append(plan.name)
            report.bundlesWritten += 2
            report.bytesWritten += normal.bundle.size + retina.bundle.size
        }
    }

    /// Removes files of earlier builds from an issue's output folder (older versioned names, a
    /// renamed cover), so the folder holds exactly what the manifest lists.
    private func removeLeftovers(in folder: URL, keeping manifest: BuildManifest) throws {
        let keep = Set(manifest.outputs.map(\.file) + [BuildManifest.folderName])
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !keep.contains(name) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// Removes output folders that a build made (they hold a manifest) for issues no longer in
    /// the magazine, so the catalog does not list issues that were deleted.
    private func removeStaleIssues(keeping names: Set<String>) throws(BuildError) -> [String] {
        var removed: [String] = []
        for (name, folder) in CatalogWriter.builtIssueFolders(in: options.output) where !names.contains(name) {
            do {
                try FileManager.default.removeItem(at: folder)
                removed.append(name)
            } catch {
                throw BuildError(issue: name, path: folder.path, reason: BundleBuilder.reason(error))
            }
        }
        return removed
    }
}
