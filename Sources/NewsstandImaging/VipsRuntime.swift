import CVips
import Foundation

/// libvips, started once per process and configured for an engine that reads every input once.
enum VipsRuntime {
    /// nil when libvips started; the reason otherwise. Swift runs a global's initialiser exactly
    /// once, on whichever thread reads it first, so concurrent first uses are safe.
    private static let startFailure: String? = {
        if vips_init("newsstand") != 0 {
            return takeError()
        }
        cvips_configure()
        return nil
    }()

    /// Starts libvips if it has not been started.
    static func start() throws(ImagingError) {
        if let failure = startFailure { throw .libraryUnavailable(reason: failure) }
    }

    /// The text libvips collected for the last failure, taken and cleared at once. The buffer is
    /// global: when two operations fail at the same moment one message may carry both texts,
    /// never neither.
    static func takeError() -> String {
        guard let text = cvips_take_error() else { return "libvips gave no reason" }
        defer { cvips_free(text) }
        let message = String(cString: text)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: "; ")
        return message.isEmpty ? "libvips gave no reason" : message
    }
}
