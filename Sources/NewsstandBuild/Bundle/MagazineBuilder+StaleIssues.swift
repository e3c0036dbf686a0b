import Foundation
import NewsstandCore

extension MagazineBuilder {
    /// Removes what earlier builds recorded in the output folders of issues no longer in the
    /// magazine (so the catalog does not list them), and each folder if that empties it.
    /// Files newsstand did not write stay, and so does their folder. A folder that is a link
    /// is left (with a warning); one whose records cannot be trusted stops the build.
    func removeStaleIssues(
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
                        "left \(root.path(of: name)) in place: it is a symbolic link, and newsstand does not remove through links"
                    )
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
    func removeStalePaidContent(
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
