import Foundation
import NewsstandBuild
import NewsstandCore

/// Why a preview could not be written; each case carries what failed underneath.
public enum PreviewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A template file is missing.
    case templateMissing(path: String)
    /// A template is malformed or uses an unknown placeholder.
    case templateSyntax(file: String, problem: String)
    /// An issue has the name of a file of the preview itself (`index.html`, `preview.css`).
    case issueNameCollides(issue: String)
    /// An issue's image would overwrite the issue's reader page (`index.html`).
    case imageNameCollides(issue: String, image: String)
    /// An issue's page config or an image could not be read again after validation.
    case issueUnreadable(issue: String, BuildError)
    /// A folder of the preview cannot be made or opened; one that is a link is never written through.
    case folder(FileSystemError)
    /// A file of the preview cannot be written.
    case write(FileSystemError)
    /// A file cannot be copied into the preview (reading `source` or writing `destination`).
    case copy(source: String, destination: String, FileSystemError)
    /// The output folder is the magazine, is inside it or contains it.
    case outputOverlapsMagazine(OutputFolderRule.Overlap)

    public var description: String {
        switch self {
        case .templateMissing(let path):
            "preview template '\(path)' is missing; set --templates or NEWSSTAND_TEMPLATES"
        case .templateSyntax(let file, let problem):
            "preview template '\(file)': \(problem)"
        case .issueNameCollides(let issue):
            "issue '\(issue)' has the name of a file of the preview itself; preview it into another folder"
        case .imageNameCollides(let issue, let image):
            "issue '\(issue)': image '\(image)' would overwrite the issue's reader page"
        case .issueUnreadable(let issue, let error):
            "issue '\(issue)': cannot read \(error.path): \(error.reason)"
        case .folder(let error):
            if case .symbolicLink = error {
                "cannot write '\(error.path)': it is a symbolic link; newsstand writes a preview only into real folders"
            } else {
                "cannot write '\(error.path)': \(error.reason)"
            }
        case .write(let error):
            "cannot write '\(error.path)': \(error.reason)"
        case .copy(let source, let destination, let error):
            "cannot write '\(destination)': copying '\(source)': \(error.reason)"
        case .outputOverlapsMagazine(let overlap):
            overlap.description
        }
    }
}
