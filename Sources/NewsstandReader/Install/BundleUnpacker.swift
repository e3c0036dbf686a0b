import Foundation
import NewsstandCore

/// Unpacks a verified bundle into a new folder: a seam, so an app can bring its own unpacker.
/// Whatever it is, it must refuse what could leave the folder or fill the disk, and leave
/// nothing at `destination` when it fails. Blocking: the library calls it on a thread of its own.
/// The library refuses an unpacked bundle that holds its own records (`.newsstand-index.json`)
/// whatever the unpacker let through.
public protocol BundleUnpacker: Sendable {
    /// Unpacks `archive` into `destination`, which does not exist yet, within `limits`.
    func unpack(_ archive: URL, into destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError)
}

/// The zip reader of `NewsstandCore` (over zlib) with every safety check (`ZipExtractor`),
/// CRC-32 checked, and names the library keeps for its own records refused: the default.
public struct ZipBundleUnpacker: BundleUnpacker {
    /// Creates the default unpacker.
    public init() {}

    /// Unpacks with `ZipExtractor`, refusing entries named like the library's records.
    public func unpack(_ archive: URL, into destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError) {
        try ZipExtractor.extract(
            from: archive, into: destination, limits: limits, reservedPrefixes: [InstalledIndex.reservedPrefix])
    }
}
