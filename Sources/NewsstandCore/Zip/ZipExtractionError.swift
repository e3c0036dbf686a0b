/// Why an archive was not unpacked (or a fetched record not read). Every case names the
/// archive; nothing is left in the destination when one is thrown.
public enum ZipExtractionError: Error, Sendable, Equatable {
    /// The archive file cannot be opened or is not a zip archive.
    case cannotOpen(archive: String, reason: String)
    /// The archive is corrupt or truncated, or its records disagree with each other.
    case corrupt(archive: String, reason: String)
    /// An entry's path is absolute, empty, or has a `..` component.
    case unsafePath(archive: String, entry: String)
    /// An entry's path is one the bundle rules refuse (`SafeRelativePath`: too deep or long, a
    /// hidden name, a `:`, a control or invisible formatting character); `problem` says which.
    case unsafeName(archive: String, entry: String, problem: SafeRelativePath.Problem)
    /// An entry is a symbolic or hard link.
    case link(archive: String, entry: String)
    /// An entry is a device, FIFO or socket.
    case unsupportedEntryType(archive: String, entry: String)
    /// The same path appears twice (or a file and a folder share it).
    case duplicateEntry(archive: String, entry: String)
    /// An entry has a name the unpacker's caller keeps for its own records (the reader's
    /// `.newsstand-index.json`): a bundle could otherwise plant them.
    case reservedName(archive: String, entry: String)
    /// An entry is compressed with a method other than stored or DEFLATE (`method` names it).
    case unsupportedMethod(archive: String, entry: String, method: String)
    /// An entry is encrypted.
    case encrypted(archive: String, entry: String)
    /// An entry's bytes do not have the CRC-32 its records state.
    case checksumMismatch(archive: String, entry: String, expected: UInt32, actual: UInt32)
    /// More entries than `ZipExtractionLimits.maxEntries`: files, and every folder their paths imply.
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
    /// A one-line explanation for logs and the command line; entry names, and paths that hold
    /// them, are quoted with anything unprintable escaped (`SafeRelativePath.quoted`), as they
    /// come from the archive (the reasons of `.corrupt` quote them the same way).
    public var description: String {
        func q(_ entry: String) -> String { SafeRelativePath.quoted(entry) }
        return switch self {
        case .cannotOpen(let archive, let reason): "cannot open archive '\(archive)': \(reason)"
        case .corrupt(let archive, let reason): "archive '\(archive)' is corrupt or truncated: \(reason)"
        case .unsafePath(let archive, let entry): "archive '\(archive)' has an unsafe entry path \(q(entry))"
        case .unsafeName(let archive, let entry, let problem):
            "archive '\(archive)' has an entry \(q(entry)) whose path \(problem) (bundles follow the build's name rules)"
        case .link(let archive, let entry): "archive '\(archive)' has a link entry \(q(entry))"
        case .unsupportedEntryType(let archive, let entry):
            "archive '\(archive)' has an entry \(q(entry)) that is not a file or folder"
        case .duplicateEntry(let archive, let entry): "archive '\(archive)' has entry \(q(entry)) twice"
        case .reservedName(let archive, let entry):
            "archive '\(archive)' has an entry \(q(entry)) with a name the library keeps for its own records"
        case .unsupportedMethod(let archive, let entry, let method):
            "archive '\(archive)': entry \(q(entry)) is compressed with \(method) (only stored and DEFLATE are read)"
        case .encrypted(let archive, let entry): "archive '\(archive)': entry \(q(entry)) is encrypted"
        case .checksumMismatch(let archive, let entry, let expected, let actual):
            "archive '\(archive)': entry \(q(entry)) fails its CRC-32 check (\(ZipCRC.hex(actual)), the archive says \(ZipCRC.hex(expected)))"
        case .tooManyEntries(let archive, let limit):
            "archive '\(archive)' has more than \(limit) entries (files and the folders their paths imply)"
        case .tooLarge(let archive, let limit): "archive '\(archive)' unpacks to more than \(limit) bytes"
        case .suspiciousCompressionRatio(let archive, let limit):
            "archive '\(archive)' expands more than \(Int(limit))× (a zip bomb?)"
        case .destinationExists(let path): "destination '\(path)' already exists"
        case .writeFailed(let path, let reason): "cannot write \(q(path)): \(reason)"
        }
    }
}
