import Foundation
import NewsstandCore

/// One round of a build: a few issues (`MagazineBuilder.issuesPerRound`) taken through the
/// build's steps in order, one method each:
///
/// 1. `prepareFolders`: what each issue's folders record as newsstand's, and what this build
///    will write there, recorded before anything is written (`IssueOutputs.prepare`);
/// 2. `prepareImages`: the derived and optimised images the bundles hold (`ImagePreparer`);
/// 3. `runJobs`: every output of every issue (`IssueJob`) on `--jobs` threads, filed by issue
///    and output (`RoundResults`);
/// 4. `finish`: per issue, its manifest (`BuildManifest(built:)`), the content names and the
///    removal of what it no longer makes (`IssueOutputs.finish`), and the report.
struct BuildRound {
    let plans: [IssuePlan]
    /// The output folder, opened.
    let root: OpenFolder
    let options: BuildOptions
    let settings: OutputSettings
    /// What every issue's jobs make, in the order they are queued.
    let kinds: [IssueJob.Kind]
    let warnings: WarningSink
    /// Hears each image made (`ImagePreparer.progress`).
    var imageProgress: @Sendable (String, Int, Int) -> Void = { _, _, _ in }

    /// Builds the round's issues; `progress` is called with the jobs done so far.
    func run(report: inout BuildReport, progress: @escaping @Sendable (Int) -> Void) throws(BuildError) {
        guard !plans.isEmpty else { return }
        let folders = try prepareFolders()
        let images = try prepareImages()
        let results = try runJobs(folders: folders, images: images, progress: progress)
        let expected = kinds.map(\.output)
        for plan in plans {
            let outputs = try results.outputs(of: plan, expected: expected)
            let prepared = try Self.entry(images, of: plan, what: "prepared images")
            var manifest = BuildManifest(built: plan, outputs: outputs, images: prepared, settings: settings)
            try finish(&manifest, outputs: Self.entry(folders, of: plan, what: "output records"))
            report.add(built: plan.name, outputs: outputs, images: prepared.work)
        }
    }

    private func prepareFolders() throws(BuildError) -> [String: IssueOutputs] {
        var folders: [String: IssueOutputs] = [:]
        for plan in plans {
            let contentNames =
                BundleBuilder.contentNames(of: plan)
                + kinds.compactMap { kind -> String? in
                    switch kind {
                    case .scale: nil
                    case .book: HPubBuilder.fileName(of: plan)
                    case .epub: EPUBBuilder.fileName(of: plan)
                    }
                }
            folders[plan.name] = try IssueOutputs.prepare(plan, in: root, contentNames: contentNames) { warnings.warn($0) }
        }
        return folders
    }

    private func prepareImages() throws(BuildError) -> [String: PreparedImages] {
        var notes: [String] = []
        var preparer = ImagePreparer(
            plans: plans, root: root, width: options.jobs, optimize: options.optimize, limits: options.imagingLimits)
        preparer.progress = imageProgress
        let images = try preparer.prepare(warnings: &notes)
        warnings.warn(notes)
        return images
    }

    private func runJobs(
        folders: [String: IssueOutputs], images: [String: PreparedImages], progress: @escaping @Sendable (Int) -> Void
    ) throws(BuildError) -> RoundResults {
        var jobs: [IssueJob] = []
        for plan in plans {
            let temporaryNames = try Self.entry(folders, of: plan, what: "output records").temporaryNames
            let prepared = try Self.entry(images, of: plan, what: "prepared images")
            jobs += kinds.map { IssueJob(plan: plan, kind: $0, root: root, temporaryNames: temporaryNames, images: prepared) }
        }
        let results = try WorkQueue(jobs).run(
            width: options.jobs, perform: { job throws(BuildError) in try job.build() }, finished: { progress($0) })
        return RoundResults(results)
    }

    /// Names the outputs, writes the manifest and removes what the issue no longer makes.
    private func finish(_ manifest: inout BuildManifest, outputs: IssueOutputs) throws(BuildError) {
        var outputs = outputs
        do {
            warnings.warn(try outputs.finish(&manifest, versioned: settings.isVersioned, root: root))
        } catch {
            throw .output(issue: manifest.name, error)
        }
    }

    /// `plan`'s entry in a step's results, or the error that names what is missing.
    private static func entry<Value>(_ values: [String: Value], of plan: IssuePlan, what: String) throws(BuildError) -> Value {
        guard let value = values[plan.name] else { throw .outputMissing(issue: plan.name, path: plan.name, output: what) }
        return value
    }
}
