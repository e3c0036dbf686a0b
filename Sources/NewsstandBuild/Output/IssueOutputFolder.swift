import Foundation
import NewsstandCore
import NewsstandFormat

/// An issue's folder in the output (`<output>/<name>`), or a paid issue's content folder
/// (`<output>/paid/<name>`), opened without following a link, and what newsstand may do there:
/// write its outputs, and remove only files it recorded as its own. The folder belongs to the
/// user; files newsstand did not write are left alone.
///
/// Two records say what is newsstand's, both in `.newsstand/`: the manifest (the outputs of
/// the last complete build; only in `<name>`, which lists those of `paid/<name>` too) and
/// `written.json`, every file a build has written or is about to write there and has not
/// removed (in each folder). `written.json` is updated before anything is written, so
/// files of a build that was interrupted (a bundle under an old versioned name, a temporary
/// file) are still known the next time. A record that names anything but a plain file name
/// is not trusted at all.
struct IssueOutputFolder {
    let name: String
    let folder: OpenFolder
    /// The folder relative to the output: `<name>`, or `paid/<name>` for a paid issue's content.
    let relativePath: String

    /// Whether this is the issue's own folder, with its manifest (not its paid content folder).
    var holdsManifest: Bool { relativePath == name }

    static let writtenFileName = "written.json"

    private init(name: String, folder: OpenFolder, relativePath: String) {
        self.name = name
        self.folder = folder
        self.relativePath = relativePath
    }

    /// Opens `<output>/<name>`, creating it when `create` is set and it is missing; nil when it
    /// is missing and not created. A link there is an error: its target is not ours.
    static func open(_ name: String, in output: OpenFolder, create: Bool) throws(BuildError) -> IssueOutputFolder? {
        guard let folder = try openFolder(name, in: output, create: create, issue: name) else { return nil }
        return IssueOutputFolder(name: name, folder: folder, relativePath: name)
    }

    /// Opens `<output>/paid/<name>`, the content folder of a paid issue, creating both when
    /// `create` is set; nil when either is missing and not created. A link at either is an
    /// error, as for the issue's own folder.
    static func openPaidContent(_ name: String, in output: OpenFolder, create: Bool) throws(BuildError) -> IssueOutputFolder? {
        guard let paid = try openFolder(IssueAccess.paidFolder, in: output, create: create, issue: name),
            let folder = try openFolder(name, in: paid, create: create, issue: name)
        else { return nil }
        return IssueOutputFolder(name: name, folder: folder, relativePath: IssueAccess.paid.contentFolder(of: name))
    }

    /// The issue's content folder for `access`: this folder when free, `paid/<name>` when paid.
    static func openContent(
        _ name: String, access: IssueAccess, in output: OpenFolder, create: Bool
    ) throws(BuildError) -> IssueOutputFolder? {
        access == .paid ? try openPaidContent(name, in: output, create: create) : try open(name, in: output, create: create)
    }

    private static func openFolder(
        _ name: String, in parent: OpenFolder, create: Bool, issue: String
    ) throws(BuildError) -> OpenFolder? {
        do {
            return try create ? parent.makeFolder(name) : parent.folder(name)
        } catch .missing where !create {
            return nil
        } catch .symbolicLink(let path, _, _) {
            throw .issueOutputIsALink(issue: issue, path: path)
        } catch {
            throw .outputFolder(issue: issue, error)
        }
    }

    var path: String { folder.path }

    /// Whether the folder holds a record of newsstand's (a manifest or `written.json`).
    var hasRecords: Bool {
        guard let records = try? folder.folder(BuildManifest.folderName) else { return false }
        return records.kind(of: BuildManifest.fileName) != nil || records.kind(of: Self.writtenFileName) != nil
    }

    /// The files newsstand recorded as its own here, or why the records cannot be trusted.
    func recordedFiles() throws(BuildRecordError) -> Set<String> {
        // The manifest's outputs that are here: a paid issue's content is in paid/<name>, whose
        // own written.json lists it.
        var files: Set<String> = []
        if holdsManifest, let manifest = try BuildManifest.load(from: folder) {
            files.formUnion(manifest.outputPaths.filter { $0.path == "\(relativePath)/\($0.record.file)" }.map(\.record.file))
        }
        let path = folder.path(of: "\(BuildManifest.folderName)/\(Self.writtenFileName)")
        let data: Data?
        do {
            data = try folder.folder(BuildManifest.folderName).file(Self.writtenFileName).readAll(limit: 1 << 20)
        } catch .missing {
            return files
        } catch {
            throw .unreadable(error)
        }
        guard let data else { throw .tooLarge(path: path, limit: 1 << 20) }
        guard let written = try? JSONDecoder().decode(Written.self, from: data) else {
            throw .undecodable(path: path, kind: "record")
        }
        for file in written.files {
            // Temporary names are hidden: the one exception to the plain-name rule, in their exact form.
            guard SafeRelativePath.isSafeComponent(file) || Self.isTemporaryName(file) else {
                throw .unsafeName(path: path, name: file)
            }
            files.insert(file)
        }
        return files
    }

    /// Records `files` as newsstand's (before they are written).
    func recordWritten(_ files: Set<String>) throws(FileSystemError) {
        // A list of strings always encodes.
        let data = (try? JSONEncoder().encode(Written(files: files.sorted()))) ?? Data()
        // Best effort: a build runs again after a power cut, and the record it rewrites first
        // lists what it writes.
        try AtomicFile.write(data, named: Self.writtenFileName, in: try folder.makeFolder(BuildManifest.folderName), .bestEffort)
    }

    /// Removes the manifest (first, so that an interrupted rebuild is never taken as done).
    func removeManifest() throws(FileSystemError) {
        guard let records = try? folder.folder(BuildManifest.folderName) else { return }
        do {
            try records.removeFile(BuildManifest.fileName)
        } catch .missing {}
    }

    /// Removes the recorded files that are not kept (regular files only: a link or folder
    /// under a recorded name is not what newsstand wrote); returns messages about what was left.
    func removeRecorded(_ recorded: Set<String>, keeping: Set<String>) -> [String] {
        var notes: [String] = []
        for file in recorded.subtracting(keeping).sorted() {
            do {
                try folder.removeRegularFile(file)
            } catch .symbolicLink(let path, _, _) {
                notes.append("left \(path) in place: it is a symbolic link, not the file newsstand wrote")
            } catch .wrongKind(let path, let kind, _) {
                notes.append("left \(path) in place: it is \(kind), not the file newsstand wrote")
            } catch {
                notes.append("cannot remove \(error.path): \(error.reason)")
            }
        }
        return notes
    }

    /// Messages about entries newsstand did not write (hidden ones aside): they are left alone.
    func unknownEntries(besides ours: Set<String>) -> [String] {
        let entries = (try? folder.entries()) ?? []
        return entries.filter { !$0.isHidden && !ours.contains($0.displayName) }.map(\.displayName).sorted().map {
            "left \(folder.path(of: $0)) in place: newsstand did not write it"
        }
    }

    /// Removes everything newsstand recorded here, then its records, then the folder if that
    /// left it empty (and `paid/` when that empties it). `output` is the output folder.
    /// Returns messages about what was left.
    func removeAll(_ recorded: Set<String>, from output: OpenFolder) -> [String] {
        try? removeManifest()
        var notes = removeRecorded(recorded, keeping: [])
        if holdsManifest { notes += ImageCache.removeAll(in: folder) }
        if let records = try? folder.folder(BuildManifest.folderName) {
            try? records.removeFile(Self.writtenFileName)
            try? records.removeFile(EntryUpdateRecord.fileName)
        }
        folder.removeFolderIfEmpty(BuildManifest.folderName)
        let parent = holdsManifest ? output : try? output.folder(IssueAccess.paidFolder)
        if parent?.removeFolderIfEmpty(name) == true {
            if !holdsManifest { output.removeFolderIfEmpty(IssueAccess.paidFolder) }
        } else {
            let left = ((try? folder.entries()) ?? []).map(\.displayName).sorted()
            notes += left.map { "left \(folder.path(of: $0)) in place: newsstand did not write it" }
        }
        return notes
    }

    /// A temporary name of `AtomicFile`'s form whose inner part is a plain file name.
    static func isTemporaryName(_ name: String) -> Bool {
        AtomicFile.isTemporaryName(name) && SafeRelativePath.isSafeComponent(String(name.dropFirst()))
    }

    private struct Written: Codable {
        var files: [String]
    }
}
