import Foundation
import NewsstandCore
import NewsstandFormat

/// An issue's source folder, opened from the magazine's folder through `issues/` without
/// following a link: the build and the preview read every config and asset through it, so a
/// file or folder swapped for a link after validation is refused, never followed.
public struct IssueSource {
    public let plan: IssuePlan
    /// `issues/<name>`.
    public let folder: OpenFolder

    /// Opens the plan's issue folder.
    public init(_ plan: IssuePlan) throws(BuildError) {
        self.plan = plan
        do {
            folder = try Self.openFolder(magazine: plan.magazineFolder, issue: plan.name)
        } catch {
            throw .inputFolder(issue: plan.name, error)
        }
    }

    /// `<magazine>/issues/<issue>`, links below the magazine's own path refused.
    static func openFolder(magazine: URL, issue: String) throws(FileSystemError) -> OpenFolder {
        try OpenFolder.open(magazine).folder("issues").folder(issue)
    }

    /// The issue's `assets/` folder.
    public func assets() throws(BuildError) -> OpenFolder {
        do {
            return try folder.folder("assets")
        } catch {
            throw .inputFolder(issue: plan.name, error)
        }
    }

    /// A config of the issue (`issue.plist`, `pages.plist`), or a file in `assets/` opened
    /// through `assets` (open that once and pass it for many files).
    public func file(_ name: String, in assets: OpenFolder? = nil) throws(BuildError) -> OpenFile {
        do {
            return try (assets ?? folder).file(name)
        } catch {
            throw .inputFile(issue: plan.name, error)
        }
    }

    /// A config's bytes, checked against the SHA-256 recorded when it was validated, and read
    /// into a node: what is packed is exactly what was checked.
    public func config(_ name: String) throws(BuildError) -> (file: OpenFile, data: Data, root: PlistNode) {
        let file = try file(name)
        let path = plan.folder.appendingPathComponent(name).path
        let data: Data?
        do {
            data = try file.readAll(limit: PlistLimits.standard.maximumBytes)
        } catch {
            throw .inputFile(issue: plan.name, error)
        }
        guard let data, SHA256.hex(of: data) == plan.configDigests[name] else {
            throw .configChanged(issue: plan.name, path: path)
        }
        do {
            return (file, data, try PlistReader.read(data: data, displayPath: name))
        } catch {
            throw .configUnreadable(issue: plan.name, path: path, error)
        }
    }
}
