import Foundation
import NewsstandCore
import NewsstandFormat

/// The outcome of validating one issue.
public struct IssueValidation: Sendable {
    /// Every problem found in the issue.
    public var diagnostics: [Diagnostic]
    /// The build plan, when the issue has no errors.
    public var plan: IssuePlan?
}

/// Validates one issue of a magazine: its name, `issue.plist`, `pages.plist` and `assets/`.
///
/// The issue's folder, its configs and `assets/` are opened without following links: a link
/// there could make the bundles carry files from anywhere on the machine.
public enum IssueValidator {
    /// Validates the issue named `name` (a folder in the magazine's `issues/`); with `.atom` in
    /// `feeds`, also against the Newsstand feed's rules (`AtomFeedRules`).
    public static func validate(issue name: String, in magazine: Magazine, feeds: Set<Feed> = []) -> IssueValidation {
        var diagnostics: [Diagnostic] = []
        let folder = magazine.issueFolder(name)
        let display = Magazine.displayPath(issue: name)
        if !IssueName.isSafe(name) {
            diagnostics.append(
                Diagnostic(
                    .issueNameUnsafe,
                    "issue name \(SourceText.quoted(name)) is not safe as a file and URL name: use letters, digits, '-', '_' and '.', not starting with '.'",
                    at: SourceLocation(file: display)))
        } else if IssueAccess.isReserved(name) {
            diagnostics.append(
                Diagnostic(
                    .issueNameUnsafe,
                    "issue name \(SourceText.quoted(name)) is reserved: paid issues' content is published under \(IssueAccess.paidFolder)/, "
                        + "so an issue of that name would share its URLs; rename the folder",
                    at: SourceLocation(file: display)))
        }
        let source: OpenFolder
        do {
            source = try IssueSource.openFolder(magazine: magazine.folder, issue: name)
        } catch {
            diagnostics.append(
                folderProblem(error, display: display, what: "an issue must be a folder inside the magazine's issues/"))
            return IssueValidation(diagnostics: diagnostics.sorted(), plan: nil)
        }

        let issueFile = Magazine.displayPath(issue: name, "issue.plist")
        var metadataReader = IssueMetadataReader(issueName: name, file: issueFile)
        var metadata: IssueMetadata?
        var digests: [String: String] = [:]
        if let document = readConfig("issue.plist", in: source, display: issueFile, diagnostics: &diagnostics) {
            metadata = metadataReader.read(document.root)
            diagnostics += metadataReader.diagnostics
            digests["issue.plist"] = document.sha256
        }

        let pagesFile = Magazine.displayPath(issue: name, "pages.plist")
        var pages = PageConfigValidator(schema: magazine.schema, file: pagesFile)
        if let document = readConfig("pages.plist", in: source, display: pagesFile, diagnostics: &diagnostics) {
            pages.validate(document.root)
            diagnostics += pages.diagnostics
            digests["pages.plist"] = document.sha256
        }

        var references = pages.references
        if let cover = metadataReader.coverReference { references.insert(cover, at: 0) }
        let assetsDisplay = Magazine.displayPath(issue: name, "assets")
        var assetsFolder: OpenFolder?
        var assetsUsable = true
        do {
            assetsFolder = try source.folder("assets")
        } catch .missing {
            assetsFolder = nil
        } catch {
            assetsUsable = false
            diagnostics.append(
                folderProblem(
                    error, display: assetsDisplay, what: "an issue's assets must be a folder inside the magazine",
                    code: .assetNotRegularFile))
        }
        var assets = AssetValidator(
            folder: assetsFolder, displayFolder: assetsDisplay, derivesNormalSize: magazine.derivesNormalSize,
            unreadNames: pages.unreadNames)
        let planned = assetsUsable ? assets.validate(references) : []
        diagnostics += assets.diagnostics
        if feeds.contains(.atom), let metadata {
            var feedProblems = DiagnosticList(file: issueFile)
            AtomFeedRules.check(
                issue: name, metadata: metadata, summaryLine: metadataReader.summaryLine,
                coverLine: metadataReader.coverReference?.location.line, assets: assetsUsable ? assetsFolder : nil,
                into: &feedProblems)
            diagnostics += feedProblems.diagnostics
        }

        diagnostics.sort()
        guard !diagnostics.hasErrors, let metadata else { return IssueValidation(diagnostics: diagnostics, plan: nil) }
        // The cover ships beside the bundles; it goes inside them only when a page uses it too.
        let pageNames = Set(pages.references.map(\.name))
        let bundled = planned.filter { pageNames.contains($0.name) }
        let derived = assets.derived.filter { pageNames.contains($0) || $0 == metadata.cover }
        let record = ValidationRecord(
            key: ValidationRecord.key(magazine, feeds: feeds), listing: assets.listing, configDigests: digests, assets: bundled,
            derived: derived, diagnostics: diagnostics)
        let plan = IssuePlan(
            name: name, folder: folder, magazineFolder: magazine.folder, metadata: metadata, assets: bundled, derived: derived,
            configDigests: digests, validation: record)
        return IssueValidation(diagnostics: diagnostics, plan: plan)
    }

    /// Opens and reads one of the issue's configs; problems go to `diagnostics`.
    private static func readConfig(
        _ name: String, in folder: OpenFolder, display: String, diagnostics: inout [Diagnostic]
    ) -> PlistReader.Document? {
        let file: OpenFile
        do {
            file = try folder.file(name)
        } catch .missing {
            diagnostics.append(Diagnostic(.fileMissing, "\(display) is missing", at: SourceLocation(file: display)))
            return nil
        } catch let failure {
            diagnostics.append(
                folderProblem(failure, display: display, what: "\(name) must be a regular file in the issue's folder"))
            return nil
        }
        do {
            return try PlistReader.read(file, displayPath: display)
        } catch {
            diagnostics += error.diagnostics
            return nil
        }
    }

    /// The diagnostic for an input that could not be opened as what it must be.
    private static func folderProblem(
        _ failure: FileSystemError, display: String, what: String, code: DiagnosticCode = .issueNotAFolder
    ) -> Diagnostic {
        switch failure {
        case .symbolicLink, .wrongKind:
            let kind: String
            if case .wrongKind(_, let entryKind, _) = failure { kind = entryKind.description } else { kind = "a symbolic link" }
            return Diagnostic(code, "\(display) is \(kind); \(what)", at: SourceLocation(file: display))
        case .missing:
            return Diagnostic(.fileMissing, "\(display) is missing", at: SourceLocation(file: display))
        case .system, .invalidName:
            return Diagnostic(.fileUnreadable, "\(display) cannot be read: \(failure.reason)", at: SourceLocation(file: display))
        }
    }
}
