/// A data protection class, as Apple platforms have them (`FileProtectionType`): when a file's
/// contents can be read and written. The library applies the configured one to every folder and
/// file it writes (`LibraryConfiguration.fileProtection`). Linux and macOS have no such classes:
/// there the value is accepted and has no effect.
public enum FileProtection: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// Readable and writable whenever the device is on.
    case none
    /// Only while the device is unlocked: a background download on a locked device fails.
    case complete
    /// Open files stay usable after the device locks, and new files can be made while it is
    /// locked; existing ones open only while it is unlocked.
    case completeUnlessOpen
    /// From the first unlock after a restart on: what lets a background wake on a locked device
    /// (a push, a background fetch) still read and write the library. The default.
    case completeUntilFirstUserAuthentication
}
