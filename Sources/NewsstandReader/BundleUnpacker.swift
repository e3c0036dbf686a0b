import Foundation
import NewsstandArchive

/// Unpacks a verified bundle into a new folder: a seam, so an app can bring its own unpacker.
/// Whatever it is, it must refuse what could leave the folder or fill the disk, and leave
/// nothing at `destination` when it fails. Blocking: the library calls it on a thread of its own.
public protocol BundleUnpacker: Sendable {
    /// Unpacks `archive` into `destination`, which does not exist yet, within `limits`.
    func unpack(_ archive: URL, into destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError)
}

/// libarchive's zip reader with every safety check (`ZipExtractor`): the default.
public struct ZipBundleUnpacker: BundleUnpacker {
    public init() {}

    public func unpack(_ archive: URL, into destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError) {
        try ZipExtractor.extract(from: archive, into: destination, limits: limits)
    }
}
