import Foundation
import NewsstandFormat

/// The outcome of validating one issue.
public struct IssueValidation: Sendable {
    /// Every problem found in the issue.
    public var diagnostics: [Diagnostic]
    /// The build plan, when the issue has no errors.
    public var plan: IssuePlan?
}

/// Validates one issue of a magazine: its name, `issue.plist`, `pages.plist` and `assets/`.
public enum IssueValidator {
    /// Validates the issue named `name` (a folder in the magazine's `issues/`).
    public static func validate(issue name: String, in magazine: Magazine) -> IssueValidation {
        var diagnostics: [Diagnostic] = []
        let folder = magazine.issueFolder(name)
        if !IssueName.isSafe(name) {
            diagnostics.append(
                Diagnostic(
                    .issueNameUnsafe,
                    "issue name '\(name)' is not safe as a file and URL name: use letters, digits, '-', '_' and '.', not starting with '.'",
                    at: SourceLocation(file: Magazine.displayPath(issue: name))))
        }

        let issueFile = Magazine.displayPath(issue: name, "issue.plist")
        var metadataReader = IssueMetadataReader(issueName: name, file: issueFile)
        var metadata: IssueMetadata?
        do {
            let root = try PlistReader.read(contentsOf: folder.appendingPathComponent("issue.plist"), displayPath: issueFile)
            metadata = metadataReader.read(root)
            diagnostics += metadataReader.diagnostics
        } catch {
            diagnostics += error.diagnostics
        }

        let pagesFile = Magazine.displayPath(issue: name, "pages.plist")
        var pages = PageConfigValidator(schema: magazine.schema, file: pagesFile)
        do {
            pages.validate(try PlistReader.read(contentsOf: folder.appendingPathComponent("pages.plist"), displayPath: pagesFile))
            diagnostics += pages.diagnostics
        } catch {
            diagnostics += error.diagnostics
        }

        var references = pages.references
        if let cover = metadataReader.coverReference { references.insert(cover, at: 0) }
        var assets = AssetValidator(
            folder: folder.appendingPathComponent("assets"), displayFolder: Magazine.displayPath(issue: name, "assets"))
        let planned = assets.validate(references)
        diagnostics += assets.diagnostics

        diagnostics.sort()
        guard !diagnostics.hasErrors, let metadata else { return IssueValidation(diagnostics: diagnostics, plan: nil) }
        // The cover ships beside the bundles; it goes inside them only when a page uses it too.
        let pageNames = Set(pages.references.map(\.name))
        let plan = IssuePlan(
            name: name, folder: folder, metadata: metadata, assets: planned.filter { pageNames.contains($0.name) })
        return IssueValidation(diagnostics: diagnostics, plan: plan)
    }
}
