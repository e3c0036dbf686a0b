import Foundation
import NewsstandCore
import NewsstandFormat

/// An issue's source folder, opened from the magazine's folder through `issues/` without
/// following a link: the build and the preview read every config and asset through it, so a
/// file or folder swapped for a link after validation is refused, never followed.
struct IssueSource {
    let plan: IssuePlan
    /// `issues/<name>`.
    let folder: OpenFolder

    /// Opens the plan's issue folder.
    init(_ plan: IssuePlan) throws(BuildError) {
        self.plan = plan
        do {
            folder = try Self.openFolder(magazine: plan.magazineFolder, issue: plan.name)
        } catch {
            throw BuildError(issue: plan.name, path: plan.folder.path, reason: Self.folderReason(error))
        }
    }

    /// `<magazine>/issues/<issue>`, links below the magazine's own path refused.
    static func openFolder(magazine: URL, issue: String) throws(FileOpenFailure) -> OpenFolder {
        try OpenFolder.open(magazine).folder("issues").folder(issue)
    }

    /// The issue's `assets/` folder.
    func assets() throws(BuildError) -> OpenFolder {
        do {
            return try folder.folder("assets")
        } catch {
            throw BuildError(issue: plan.name, path: plan.assetsFolder.path, reason: Self.folderReason(error))
        }
    }

    /// A config of the issue (`issue.plist`, `pages.plist`), or a file in `assets/` opened
    /// through `assets` (open that once and pass it for many files).
    func file(_ name: String, in assets: OpenFolder? = nil) throws(BuildError) -> OpenFile {
        do {
            return try (assets ?? folder).file(name)
        } catch {
            let path = (assets == nil ? plan.folder : plan.assetsFolder).appendingPathComponent(name).path
            throw BuildError(issue: plan.name, path: path, reason: "\(error.reason); newsstand packs only regular files")
        }
    }

    /// A config's bytes, checked against the SHA-256 recorded when it was validated, and read
    /// into a node: what is packed is exactly what was checked.
    func config(_ name: String) throws(BuildError) -> (file: OpenFile, data: Data, root: PlistNode) {
        let file = try file(name)
        let path = plan.folder.appendingPathComponent(name).path
        let data: Data?
        do {
            data = try file.readAll(limit: PlistLimits.standard.maximumBytes)
        } catch {
            throw BuildError(issue: plan.name, path: path, reason: error.reason)
        }
        guard let data, SHA256.hex(of: data) == plan.configDigests[name] else {
            throw BuildError(issue: plan.name, path: path, reason: "it changed after it was validated; run the build again")
        }
        do {
            return (file, data, try PlistReader.read(data: data, displayPath: name))
        } catch {
            throw BuildError(issue: plan.name, path: path, reason: error.diagnostics.map(\.message).joined(separator: "; "))
        }
    }

    private static func folderReason(_ failure: FileOpenFailure) -> String {
        "\(failure.reason); newsstand reads an issue only from real folders"
    }
}
