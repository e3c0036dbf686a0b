import Foundation
import NewsstandCore
import NewsstandFormat

/// An issue's folders in the output while it is built, and what each records as newsstand's:
/// its own folder (`<name>`: covers, records, image cache, and a free issue's content) and,
/// for a paid issue or one that was paid, `paid/<name>` (bundles, indexes, Baker book, EPUB). An
/// issue whose access changed leaves the other folder's recorded files behind: they are
/// removed when it is built, as any output a build no longer makes.
struct IssueOutputs {
    let access: IssueAccess
    let issue: IssueOutputFolder
    /// `paid/<name>`: created for a paid issue; for a free one, only when an earlier build
    /// left it.
    let paid: IssueOutputFolder?
    /// What each folder records as newsstand's, plus what this build writes there.
    private(set) var issueOwn: Set<String>
    private(set) var paidOwn: Set<String>
    /// The temporary name of every output this build writes.
    private(set) var temporaryNames: [String: String] = [:]

    /// The folder the content outputs go to.
    var content: IssueOutputFolder { access == .paid ? (paid ?? issue) : issue }

    /// Opens (creating) the folders of `plan`, reads their records (one that cannot be trusted
    /// is a warning: it is replaced and nothing it lists is removed), and records what this
    /// build will write, `contentNames` in the content folder and the covers in the issue's,
    /// before anything is written; then removes the manifest (it comes back last: an
    /// interrupted rebuild is never taken as done).
    static func prepare(
        _ plan: IssuePlan, in root: OpenFolder, contentNames: [String], warn: (String) -> Void
    ) throws(BuildError) -> IssueOutputs {
        let access = plan.metadata.access
        guard let issue = try IssueOutputFolder.open(plan.name, in: root, create: true) else {
            throw .issueOutputVanished(issue: plan.name, path: root.path(of: plan.name))
        }
        let paid = try IssueOutputFolder.openPaidContent(plan.name, in: root, create: access == .paid)
        var outputs = IssueOutputs(
            access: access, issue: issue, paid: paid, issueOwn: Self.recorded(issue, warn: warn),
            paidOwn: paid.map { Self.recorded($0, warn: warn) } ?? [])
        for (name, inContent) in contentNames.map({ ($0, true) }) + BundleBuilder.coverNames(of: plan).map({ ($0, false) }) {
            let temporary = AtomicFile.temporaryName(for: name)
            outputs.temporaryNames[name] = temporary
            outputs.own(inContent, insert: [name, temporary])
        }
        do {
            try issue.recordWritten(outputs.issueOwn)
            try paid?.recordWritten(outputs.paidOwn)
            try issue.removeManifest()
        } catch {
            throw .output(issue: plan.name, error)
        }
        return outputs
    }

    /// Gives the built outputs their versioned names (when `versioned`: recorded before the
    /// renames), writes the manifest, removes the recorded files the manifest no longer lists
    /// from both folders (and a `paid/<name>` the issue left, with its records), and records
    /// what each folder keeps. Returns warnings about what was left in place.
    mutating func finish(_ manifest: inout BuildManifest, versioned: Bool, root: OpenFolder) throws(FileSystemError) -> [String] {
        if versioned {
            let content = Set(manifest.contentOutputs.map(\.file))
            for (record, name) in zip(manifest.outputs, VersionedNames.names(for: manifest)) {
                own(content.contains(record.file), insert: [name])
            }
            try issue.recordWritten(issueOwn)
            try paid?.recordWritten(paidOwn)
            try VersionedNames.apply(to: &manifest, in: issue.folder, content: self.content.folder)
        }
        try manifest.write(in: issue.folder)
        var notes: [String] = []
        let paths = manifest.outputPaths
        for (folder, own) in [(issue, issueOwn)] + (paid.map { [($0, paidOwn)] } ?? []) {
            let kept = Set(paths.filter { $0.path == "\(folder.relativePath)/\($0.record.file)" }.map(\.record.file))
            if kept.isEmpty, !folder.holdsManifest {
                notes += folder.removeAll(own, from: root)
                continue
            }
            notes += folder.removeRecorded(own, keeping: kept)
            try folder.recordWritten(kept)
            notes += folder.unknownEntries(besides: kept)
        }
        return notes
    }

    private mutating func own(_ inContent: Bool, insert names: [String]) {
        if inContent, access == .paid {
            paidOwn.formUnion(names)
        } else {
            issueOwn.formUnion(names)
        }
    }

    private static func recorded(_ folder: IssueOutputFolder, warn: (String) -> Void) -> Set<String> {
        do {
            return try folder.recordedFiles()
        } catch {
            warn("issue '\(folder.name)': \(error); its records are replaced and nothing they list is removed")
            return []
        }
    }
}
