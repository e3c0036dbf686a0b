import Foundation

/// Why an imaging operation failed. Every case names the file it is about (`path`: the path or
/// the name given with a descriptor), so a caller can print it or map it to its own diagnostic
/// code without parsing text.
public enum ImagingError: Error, Equatable, Sendable, Codable, CustomStringConvertible, LocalizedError {
    /// The input could not be opened the safe way: missing, a symbolic link, not a regular file.
    case cannotOpen(path: String, reason: String)
    /// The file is not in a format this operation takes (`found`: the format libvips recognised,
    /// nil when none; `accepted`: what the operation takes).
    case unsupportedFormat(path: String, found: String?, accepted: [ImageFormat])
    /// libvips (or libjpeg) could not decode the file: damaged, truncated, not an image.
    case unreadable(path: String, reason: String)
    /// The image has more pixels than `limit` (see ``ImagingLimits``), or needs more memory to
    /// process than the limit allows.
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// Processing the image would need more than `limit` bytes of memory (libjpeg's coefficient
    /// arrays; see ``ImagingLimits/maximumJPEGMemory``).
    case exceedsMemoryLimit(path: String, limit: Int)
    /// An `@2x` master with an odd width or height cannot be halved exactly.
    case oddSize(path: String, width: Int, height: Int)
    /// A PDF that needs a password to be opened.
    case encryptedPDF(path: String)
    /// A PDF that poppler cannot read (`reason` is poppler's).
    case damagedPDF(path: String, reason: String)
    /// A PDF with more pages than ``ImagingLimits/maximumPDFPages``.
    case tooManyPages(path: String, pageCount: Int, limit: Int)
    /// A page index outside `0..<pageCount`.
    case pageOutOfRange(path: String, page: Int, pageCount: Int)
    /// The output could not be created or written (`reason`: the system's, e.g. "No space left
    /// on device").
    case cannotWrite(path: String, reason: String)
    /// A libvips operation failed on an input it had read (`step` says which).
    case processingFailed(path: String, step: String, reason: String)
    /// A caller's argument is out of range (a width of 0, …).
    case invalidArgument(String)
    /// libvips could not be started.
    case libraryUnavailable(reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "'\(path)' cannot be opened: \(reason)"
        case .unsupportedFormat(let path, let found, let accepted):
            let what = found.map { "a \($0) file" } ?? "not an image libvips reads"
            return "'\(path)' is \(what); expected \(accepted.map(\.name).joined(separator: ", "))"
        case .unreadable(let path, let reason): return "'\(path)' cannot be read as an image: \(reason)"
        case .tooLarge(let path, let width, let height, let limit):
            return "'\(path)' is \(width)x\(height) pixels, more than the limit of \(limit) pixels"
        case .exceedsMemoryLimit(let path, let limit):
            return "'\(path)' needs more than the limit of \(limit) bytes of memory to be processed"
        case .oddSize(let path, let width, let height):
            return "'\(path)' is \(width)x\(height): an @2x master needs an even width and height to be halved exactly"
        case .encryptedPDF(let path): return "'\(path)' is an encrypted PDF: it needs a password to be opened"
        case .damagedPDF(let path, let reason): return "'\(path)' is a damaged PDF: \(reason)"
        case .tooManyPages(let path, let pageCount, let limit):
            return "'\(path)' has \(pageCount) pages, more than the limit of \(limit)"
        case .pageOutOfRange(let path, let page, let pageCount):
            return "'\(path)' has \(pageCount) pages; page index \(page) does not exist"
        case .cannotWrite(let path, let reason): return "'\(path)' cannot be written: \(reason)"
        case .processingFailed(let path, let step, let reason): return "'\(path)': \(step) failed: \(reason)"
        case .invalidArgument(let message): return message
        case .libraryUnavailable(let reason): return "libvips cannot be started: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
