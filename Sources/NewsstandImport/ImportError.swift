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
    /// A page image in the folder that is a symbolic link, FIFO, socket or device, or whose name
    /// is not UTF-8: never skipped, since that would drop a page.
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
    /// A page (from 1; nil: opening the source) took longer than `--page-timeout`: its
    /// renderer was killed.
    case pageTimedOut(page: Int?, source: String, seconds: Int)
    /// A page (nil: opening the source) needed more memory than `--page-memory` (`limit`
    /// bytes): an allocation failed in its renderer, which was stopped.
    case pageNeedsMoreMemory(page: Int?, source: String, limit: Int)
    /// A page's renderer ended without an answer (a crash) or with one that cannot be read.
    case rendererFailed(page: Int?, source: String, reason: String)
    /// The renderer (the `newsstand` executable) cannot be started.
    case rendererUnavailable(path: String, reason: String)
    /// A library said the render went wrong (a GLib warning: a value refused, an assertion):
    /// what came out is not what was asked.
    case libraryFailure(page: Int?, source: String, message: LibraryMessage)
    /// A page stopped because another failed first: never the error an import ends with.
    case stopped(page: Int?)

    public var description: String {
        switch self {
        case .notAMagazine(let path, let reason): return "'\(path)' is not a magazine folder: \(reason)"
        case .magazineSettings(let path, let reason): return "\(path): \(reason)"
        case .noSimplePage(let reason): return "the magazine has no usable SimplePage page class: \(reason)"
        case .issueExists(let name, let path):
            return
                "issue '\(name)' exists already ('\(path)'); import never replaces an issue: remove it or choose another --issue"
        case .invalidIssueName(let name):
            return
                "'\(name)' is not a valid issue name: letters, digits, '-', '_' and '.' only, not starting with '.', at most \(IssueName.maxBytes) bytes"
        case .unreadableSource(let path, let reason): return "'\(path)' cannot be imported: \(reason)"
        case .noImages(let folder, let skipped):
            let what = skipped == 0 ? "it is empty" : "\(skipped) other file(s) were skipped"
            return "'\(folder)' has no page images (PNG, JPEG, WebP or HEIF: .png, .jpg, .jpeg, .webp, .heic, .heif); \(what)"
        case .refusedEntry(let path, let reason): return "'\(path)' is refused: \(reason)"
        case .tooManyPages(let path, let count, let limit): return "'\(path)' has \(count) pages, more than the limit of \(limit)"
        case .articles(let error): return error.description
        case .imaging(let error, let page): return page.map { "page \($0): \(error)" } ?? "\(error)"
        case .fileSystem(let error): return "\(error)"
        case .plist(let file, let reason): return "\(file) cannot be written: \(reason)"
        case .pageTimedOut(let page, let source, let seconds):
            return "\(Self.subject(page, source)) took longer than \(seconds) s (--page-timeout) and was stopped"
        case .pageNeedsMoreMemory(let page, let source, let limit):
            return "\(Self.subject(page, source)) needs more than \(limit >> 20) MiB of memory (--page-memory) and was stopped"
        case .rendererFailed(let page, let source, let reason): return "\(Self.subject(page, source)) failed: \(reason)"
        case .rendererUnavailable(let path, let reason):
            return
                "the page renderer '\(path)' cannot be started: \(reason) (newsstand import runs each page in the newsstand executable of the running one's folder)"
        case .libraryFailure(let page, let source, let message):
            return "\(Self.subject(page, source)) went wrong in \(message.domain): \(message.text)"
        case .stopped(let page): return "\(Self.subject(page, "the source")) was stopped after another page failed"
        }
    }

    /// "page 3", or "opening 'x.pdf'" for what happens before a page.
    private static func subject(_ page: Int?, _ source: String) -> String {
        page.map { "page \($0)" } ?? "opening '\(source)'"
    }
}
