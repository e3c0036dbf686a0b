import NewsstandArchive
import NewsstandCore
import NewsstandFormat
import NewsstandImaging

/// Why a build failed: each case names the issue concerned (when there is one) and carries the
/// error underneath (the file system's, libarchive's, the plist reader's), so callers can tell
/// failures apart without reading messages.
public enum BuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The output folder is the magazine, lies inside it or contains it.
    case outputOverlapsMagazine(OutputFolderRule.Overlap)
    /// The output folder is a file.
    case outputIsAFile(path: String)
    /// The output folder (or an issue's folder in it) cannot be made or opened.
    case outputFolder(issue: String?, FileSystemError)
    /// An issue's output folder is a symbolic link: newsstand neither writes nor removes through it.
    case issueOutputIsALink(issue: String, path: String)
    /// An issue's output folder vanished while the issue was being built.
    case issueOutputVanished(issue: String, path: String)
    /// An issue's folder or its `assets/` is not a real folder (a link, a file, missing) or
    /// cannot be opened.
    case inputFolder(issue: String, FileSystemError)
    /// A config or an asset of an issue is not a regular file (a link, a folder, missing) or
    /// cannot be read.
    case inputFile(issue: String, FileSystemError)
    /// A config is not the one that was validated (its SHA-256 changed).
    case configChanged(issue: String, path: String)
    /// A config no longer reads (it grew past the limit, or no longer parses).
    case configUnreadable(issue: String, path: String, PlistReadFailure)
    /// A config holds a value that cannot be written as an XML property list.
    case configUnwritable(issue: String, path: String, PlistWriter.Failure)
    /// Writing an archive failed (libarchive's or the system's reason).
    case archive(issue: String, ArchiveError)
    /// A page of the issue's Baker book could not be rendered (the renderer's reason).
    case bookPage(issue: String, path: String, reason: String)
    /// A page of the issue cannot be an EPUB page (`article` and `page` count from 1).
    case epubPage(issue: String, path: String, article: Int, page: Int, reason: String)
    /// An image of the issue's EPUB is not one an EPUB shows, or its size cannot be read.
    case epubImage(issue: String, path: String, reason: String)
    /// Deriving a normal size from an `@2x` master, or optimising an image, failed (libvips'
    /// reason: a master it cannot decode, a disk that filled). `path`: the image read.
    case image(issue: String, path: String, ImagingError)
    /// Writing, renaming or listing an output failed.
    case output(issue: String?, FileSystemError)
    /// A build record (`manifest.json`, `written.json`) cannot be trusted. `issueLeft`: the
    /// issue left the magazine, so its folder is left as it is (rather than rebuilt).
    case untrustedRecord(issue: String, BuildRecordError, issueLeft: Bool)
    /// An issue's build manifest is missing or for another issue: the catalog cannot list it.
    case manifestMismatch(issue: String, path: String)
    /// The magazine has no valid BaseURL, so no catalog can be written.
    case noBaseURL
    /// The build made no `output` (`"@2x bundle"`, `"EPUB"`, …) for an issue it built: its
    /// manifest is not written. `path`: the file that output writes.
    case outputMissing(issue: String, path: String, output: String)
    /// The build made an issue's `output` twice: its manifest is not written.
    case outputMadeTwice(issue: String, path: String, output: String)

    /// The issue concerned, when the failure concerns one.
    public var issue: String? {
        switch self {
        case .outputOverlapsMagazine, .outputIsAFile, .noBaseURL: nil
        case .outputFolder(let issue, _), .output(let issue, _): issue
        case .issueOutputIsALink(let issue, _), .issueOutputVanished(let issue, _), .inputFolder(let issue, _),
            .inputFile(let issue, _),
            .configChanged(let issue, _), .configUnreadable(let issue, _, _), .configUnwritable(let issue, _, _),
            .archive(let issue, _), .untrustedRecord(let issue, _, _), .manifestMismatch(let issue, _),
            .bookPage(let issue, _, _), .image(let issue, _, _), .epubPage(let issue, _, _, _, _), .epubImage(let issue, _, _),
            .outputMissing(let issue, _, _), .outputMadeTwice(let issue, _, _):
            issue
        }
    }

    /// The file or folder concerned.
    public var path: String {
        switch self {
        case .outputOverlapsMagazine(let overlap): overlap.output
        case .outputIsAFile(let path), .issueOutputIsALink(_, let path), .issueOutputVanished(_, let path),
            .configChanged(_, let path), .configUnreadable(_, let path, _), .configUnwritable(_, let path, _),
            .manifestMismatch(_, let path), .bookPage(_, let path, _), .image(_, let path, _), .epubPage(_, let path, _, _, _),
            .epubImage(_, let path, _), .outputMissing(_, let path, _), .outputMadeTwice(_, let path, _):
            path
        case .outputFolder(_, let error), .inputFolder(_, let error), .inputFile(_, let error), .output(_, let error):
            error.path
        case .archive(_, let error): error.path
        case .untrustedRecord(_, let error, _): error.path
        case .noBaseURL: "magazine.plist"
        }
    }

    /// What went wrong, for messages.
    public var reason: String {
        switch self {
        case .outputOverlapsMagazine(let overlap): overlap.description
        case .outputIsAFile: "the output folder is a file"
        case .outputFolder(_, let error), .output(_, let error): error.reason
        case .issueOutputIsALink: "it is a symbolic link; newsstand writes and removes an issue's output only in a real folder"
        case .issueOutputVanished: "the issue's output folder disappeared"
        case .inputFolder(_, let error): "\(error.reason); newsstand reads an issue only from real folders"
        case .inputFile(_, let error): "\(error.reason); newsstand packs only regular files"
        case .configChanged: "it changed after it was validated; run the build again"
        case .configUnreadable(_, _, let failure): failure.diagnostics.map(\.message).joined(separator: "; ")
        case .configUnwritable(_, _, let failure): failure.reason
        case .archive(_, let error): error.reason
        case .bookPage(_, _, let reason): "a page of the Baker book cannot be rendered: \(reason)"
        case .epubPage(_, _, let article, let page, let reason):
            "page \(page) of article \(article) cannot be an EPUB page: \(reason)"
        case .epubImage(_, _, let reason): "cannot be in the EPUB: \(reason)"
        case .image(_, _, let error): Self.imageReason(error)
        case .untrustedRecord(_, let error, let issueLeft):
            issueLeft
                ? "\(error.reason); the issue left the magazine, but its output folder is left as it is (remove it yourself if it is not needed)"
                : "\(error.reason); rebuild the issue"
        case .manifestMismatch: "the build manifest is for another issue; rebuild the issue"
        case .noBaseURL: "BaseURL is missing or invalid"
        case .outputMissing(_, _, let output): "the build made no \(output) for the issue, so it records none of its outputs"
        case .outputMadeTwice(_, _, let output): "the build made the issue's \(output) twice, so it records none of its outputs"
        }
    }

    /// The imaging engine's reason without the path it starts with (the description has it).
    private static func imageReason(_ error: ImagingError) -> String {
        let text = error.description
        if let range = text.range(of: "': "), text.hasPrefix("'") { return String(text[range.upperBound...]) }
        if let range = text.range(of: "' "), text.hasPrefix("'") { return String(text[range.upperBound...]) }
        return text
    }

    public var description: String {
        (issue.map { "issue '\($0)': " } ?? "") + "\(path): \(reason)"
    }
}
