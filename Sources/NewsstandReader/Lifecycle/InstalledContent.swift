import Foundation

/// What is unpacked in an issue's content folder: the bundle it came from.
struct InstalledContent: Equatable, Sendable {
    /// The SHA-256 of the bundle that was unpacked, to notice content updates.
    var sha256: String
    /// The remote URL of the bundle that was unpacked.
    var contentURL: URL
    /// The scale of the bundle (a retina library may have fallen back to normal).
    var scale: LibraryScale
}
