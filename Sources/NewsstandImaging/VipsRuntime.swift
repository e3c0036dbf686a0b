import CVips
import Foundation

/// libvips, opened (`dlopen`, see CVips.h) and started once per process, and configured for an
/// engine that reads every input once.
enum VipsRuntime {
    /// nil when libvips started; the reason otherwise. Swift runs a global's initialiser exactly
    /// once, on whichever thread reads it first, so concurrent first uses are safe.
    private static let startFailure: String? = {
        if let failure = openFailure { return failure }
        if cvips_init("newsstand") != 0 {
            return takeError()
        }
        cvips_configure()
        return nil
    }()

    /// nil when libvips is loaded; the reason otherwise (it is not installed, or too old).
    private static let openFailure: String? = cvips_open().map { String(cString: $0) }

    /// Starts libvips if it has not been started.
    static func start() throws(ImagingError) {
        if let failure = startFailure { throw .libraryUnavailable(reason: failure) }
    }

    /// libvips' version ("8.14.1"), which needs the library loaded but not started (starting it
    /// loads its format modules: a build whose derived images are all cached skips that).
    static func version() throws(ImagingError) -> String {
        if let failure = openFailure { throw .libraryUnavailable(reason: failure) }
        return String(cString: cvips_version_string())
    }

    /// What `takeError()` says when libvips' buffer holds nothing.
    static let noReason = "libvips gave no reason"

    /// The text libvips collected for the last failure, taken and cleared at once. The buffer is
    /// global: when two operations fail at the same moment, the first to take it gets both texts
    /// and the other `noReason`; a caller that knows what failed says so then.
    static func takeError() -> String {
        guard let text = cvips_take_error() else { return noReason }
        defer { cvips_free(text) }
        let message = String(cString: text)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: "; ")
        return message.isEmpty ? noReason : message
    }
}
