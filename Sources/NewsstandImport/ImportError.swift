import Foundation
import NewsstandCore
import NewsstandImaging

/// Why an import failed. Whatever the case, nothing of the issue is left in the magazine.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The magazine folder is missing or has no `magazine.plist`.
    case notAMagazine(path: String, reason: String)
    /// `magazine.plist` cannot be read, or its `DeriveNormalSize` is not a boolean.
    case magazineSettings(path: String, reason: String)
    /// The magazine's page classes have no `SimplePage` that a page with only a `baseImage` satisfies.
    case noSimplePage(reason: String)
    /// An issue (or anything else) of that name is in `issues/` already.
    case issueExists(name: String, path: String)
    /// The issue name is not one the tool accepts.
    case invalidIssueName(String)
    /// The source cannot be opened, or is neither a regular file nor a folder.
    case unreadableSource(path: String, reason: String)
    /// A folder without a page image in it.
    case noImages(folder: String, skipped: Int)
    /// A page image in the folder that is a symbolic link, FIFO, socket or device.
    case refusedEntry(path: String, reason: String)
    /// More pages than the limit.
    case tooManyPages(path: String, count: Int, limit: Int)
    /// `--articles` does not fit the pages.
    case articles(ArticleListError)
    /// The imaging engine failed; `page` is the page (from 1) it was working on, if any.
    case imaging(ImagingError, page: Int?)
    /// Writing the issue failed (a full disk, a folder that changed under us).
    case fileSystem(FileSystemError)
    /// A plist could not be written (a title with characters XML cannot carry).
    case plist(file: String, reason: String)

    public var description: String {
        switch self {
        case .notAMagazine(let path, let reason): return "'\(path)' is not a magazine folder: \(reason)"
        case .magazineSettings(let path, let reason): return "\(path): \(reason)"
        case .noSimplePage(let reason): return "the magazine has no usable SimplePage page class: \(reason)"
        case .issueExists(let name, let path):
            return "issue '\(name)' exists already ('\(path)'); import never replaces an issue: remove it or choose another --issue"
        case .invalidIssueName(let name):
            return "'\(name)' is not a valid issue name: letters, digits, '-', '_' and '.' only, not starting with '.', at most \(IssueName.maxBytes) bytes"
        case .unreadableSource(let path, let reason): return "'\(path)' cannot be imported: \(reason)"
        case .noImages(let folder, let skipped):
            let what = skipped == 0 ? "it is empty" : "\(skipped) other file(s) were skipped"
            return "'\(folder)' has no page images (PNG, JPEG, WebP or HEIF: .png, .jpg, .jpeg, .webp, .heic, .heif); \(what)"
        case .refusedEntry(let path, let reason): return "'\(path)' is refused: \(reason); a page image must be a regular file"
        case .tooManyPages(let path, let count, let limit): return "'\(path)' has \(count) pages, more than the limit of \(limit)"
        case .articles(let error): return error.description
        case .imaging(let error, let page): return page.map { "page \($0): \(error)" } ?? "\(error)"
        case .fileSystem(let error): return "\(error)"
        case .plist(let file, let reason): return "\(file) cannot be written: \(reason)"
        }
    }
}
