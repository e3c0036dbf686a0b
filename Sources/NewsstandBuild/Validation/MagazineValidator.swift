import Foundation
import NewsstandCore
import NewsstandFormat

/// Validates a whole magazine, one issue at a time, handing each issue's result to the caller
/// as soon as it is known (nothing is kept per issue, so memory does not grow with the magazine).
public struct MagazineValidator {
    /// The magazine's folder.
    public var folder: URL
    /// The built-in page-class schema.
    public var builtInSchema: URL
    /// Issues to validate; empty means all.
    public var selectedIssues: [String]

    public init(folder: URL, builtInSchema: URL, selectedIssues: [String] = []) {
        self.folder = folder
        self.builtInSchema = builtInSchema
        self.selectedIssues = selectedIssues
    }

    /// Problems with the magazine as a whole, found before any issue is read.
    public struct Opening: Sendable {
        public var magazine: Magazine
        public var diagnostics: [Diagnostic]
        /// The issues that will be validated, in order.
        public var issueNames: [String]
    }

    /// Opens the magazine and works out which issues to validate.
    public func open() -> Opening {
        var diagnostics: [Diagnostic] = []
        let magazine = MagazineLoader.open(folder, builtInSchema: builtInSchema, diagnostics: &diagnostics)
        var names = magazine.issueNames
        if !selectedIssues.isEmpty {
            names = []
            for wanted in selectedIssues where !names.contains(wanted) {
                if magazine.issueNames.contains(wanted) {
                    names.append(wanted)
                } else {
                    let hint = Suggestion.hint(for: wanted, among: magazine.issueNames)
                    diagnostics.append(
                        Diagnostic(
                            .issueNotFound, "there is no issue '\(wanted)' in issues/\(hint)", at: SourceLocation(file: "issues"))
                    )
                }
            }
        }
        return Opening(magazine: magazine, diagnostics: diagnostics.sorted(), issueNames: names)
    }
}
