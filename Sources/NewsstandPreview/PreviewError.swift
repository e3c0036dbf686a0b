import Foundation
import NewsstandCore
import NewsstandBuild

/// Why a preview could not be written.
public enum PreviewError: Error, Equatable, CustomStringConvertible {
    /// A template file is missing (its path).
    case templateMissing(String)
    /// A template is malformed or uses an unknown placeholder (the file name and what is wrong).
    case templateSyntax(String, String)
    /// An issue's name, or a file it needs, would overwrite a file of the preview itself.
    case nameCollision(String)
    /// An issue's page config could not be read again after validation (the issue and why).
    case unreadablePages(String, String)
    /// A file could not be written or copied (the path and why).
    case writeFailed(String, String)
    /// The output folder is the magazine, is inside it or contains it (why, naming both).
    case outputOverlap(String)

    public var description: String {
        switch self {
        case .templateMissing(let path):
            return "preview template '\(path)' is missing; set --templates or NEWSSTAND_TEMPLATES"
        case .templateSyntax(let file, let problem):
            return "preview template '\(file)': \(problem)"
        case .nameCollision(let message):
            return message
        case .unreadablePages(let issue, let reason):
            return "issue '\(issue)': cannot read pages.plist: \(reason)"
        case .writeFailed(let path, let reason):
            return "cannot write '\(path)': \(reason)"
        case .outputOverlap(let reason):
            return reason
        }
    }
}
