/// Why an archive was not unpacked. Every case names the archive; nothing is left in the
/// destination when one is thrown.
public enum ZipExtractionError: Error, Sendable, Equatable {
    /// The archive file cannot be opened or is not a zip archive.
    case cannotOpen(archive: String, reason: String)
    /// The archive is corrupt or truncated.
    case corrupt(archive: String, reason: String)
    /// An entry's path is absolute, empty, or has a `..` component.
    case unsafePath(archive: String, entry: String)
    /// An entry is a symbolic or hard link.
    case link(archive: String, entry: String)
    /// An entry is a device, FIFO or socket.
    case unsupportedEntryType(archive: String, entry: String)
    /// The same path appears twice (or a file and a folder share it).
    case duplicateEntry(archive: String, entry: String)
    /// More entries than `ZipExtractionLimits.maxEntries`.
    case tooManyEntries(archive: String, limit: Int)
    /// More unpacked bytes than `ZipExtractionLimits.maxTotalSize`.
    case tooLarge(archive: String, limit: Int64)
    /// The archive expands far more than real content does: a zip bomb.
    case suspiciousCompressionRatio(archive: String, limit: Double)
    /// The destination folder already exists.
    case destinationExists(path: String)
    /// Writing to the destination failed (disk full, permissions).
    case writeFailed(path: String, reason: String)
}

extension ZipExtractionError: CustomStringConvertible {
    /// A one-line explanation for logs and the command line.
    public var description: String {
        switch self {
        case .cannotOpen(let archive, let reason): "cannot open archive '\(archive)': \(reason)"
        case .corrupt(let archive, let reason): "archive '\(archive)' is corrupt or truncated: \(reason)"
        case .unsafePath(let archive, let entry): "archive '\(archive)' has an unsafe entry path '\(entry)'"
        case .link(let archive, let entry): "archive '\(archive)' has a link entry '\(entry)'"
        case .unsupportedEntryType(let archive, let entry):
            "archive '\(archive)' has an entry '\(entry)' that is not a file or folder"
        case .duplicateEntry(let archive, let entry): "archive '\(archive)' has entry '\(entry)' twice"
        case .tooManyEntries(let archive, let limit): "archive '\(archive)' has more than \(limit) entries"
        case .tooLarge(let archive, let limit): "archive '\(archive)' unpacks to more than \(limit) bytes"
        case .suspiciousCompressionRatio(let archive, let limit):
            "archive '\(archive)' expands more than \(Int(limit))× (a zip bomb?)"
        case .destinationExists(let path): "destination '\(path)' already exists"
        case .writeFailed(let path, let reason): "cannot write '\(path)': \(reason)"
        }
    }
}
