import Foundation
import NewsstandCore

/// The downloads' `Foundation.Progress` objects, as iOS code expects them: one per running
/// download, in process or on the background engine (bytes received of bytes expected,
/// cancellable: cancelling it cancels the download),
/// each a child of one over all of them (every download counts the same in it). The library
/// updates them with the values it reports in `LibraryEvent.progress`, from its actor (not the
/// main thread: bind them with `ProgressView(_:)` or `observedProgress`, which accept that).
///
/// The overall progress starts again from zero when a download starts while none runs; until
/// then it stays at the end of the last batch. A download that ends without completing (failed,
/// cancelled, suspended) counts as finished in it.
final class DownloadProgressTree: @unchecked Sendable {  // Progress is thread-safe; `children` is Locked
    /// The units each download weighs in `overall`.
    static let unitsPerDownload: Int64 = 1000

    /// The progress over every running download.
    let overall = Progress(totalUnitCount: 0)
    private let children = Locked<[String: Progress]>([:])

    init() {
        overall.isCancellable = false
        overall.isPausable = false
    }

    /// The progress of `name`'s download, when one runs.
    func progress(of name: String) -> Progress? { children.withLock { $0[name] } }

    /// A new progress for `name`'s download (or the one it has), under `overall`; `cancel` is
    /// called when someone cancels it.
    @discardableResult
    func start(_ name: String, received: Int64, expected: Int64?, cancel: @escaping @Sendable () -> Void) -> Progress {
        children.withLock { children in
            if let existing = children[name] { return existing }
            let units = Self.unitsPerDownload
            if children.isEmpty {
                // A new batch. Never a total of 0 once it was more: swift-corelibs-foundation
                // traps on that.
                overall.completedUnitCount = 0
                overall.totalUnitCount = units
            } else {
                overall.totalUnitCount += units
            }
            let child = Progress(totalUnitCount: max(expected ?? 0, 0))
            child.kind = .file
            child.isCancellable = true
            child.isPausable = false
            child.cancellationHandler = cancel
            overall.addChild(child, withPendingUnitCount: units)
            Self.apply(DownloadProgress(bytesReceived: received, bytesExpected: expected), to: child)
            children[name] = child
            return child
        }
    }

    /// Moves `name`'s progress to `progress` (the value `LibraryEvent.progress` reports).
    func report(_ progress: DownloadProgress, of name: String) {
        guard let child = self.progress(of: name) else { return }
        Self.apply(progress, to: child)
    }

    /// Ends `name`'s progress, finished whichever way the download ended.
    func finish(_ name: String) {
        guard let child = children.withLock({ $0.removeValue(forKey: name) }) else { return }
        child.cancellationHandler = nil
        if child.completedUnitCount > 0 {
            child.totalUnitCount = child.completedUnitCount
        } else {
            child.totalUnitCount = 1
            child.completedUnitCount = 1
        }
    }

    private static func apply(_ progress: DownloadProgress, to child: Progress) {
        // A finished child has handed its units to the overall progress: it stays finished (an
        // update by ranges that falls back to the whole bundle reports a new total after that).
        guard child.totalUnitCount <= 0 || child.completedUnitCount < child.totalUnitCount else { return }
        if let expected = progress.bytesExpected, expected > 0, child.totalUnitCount != expected {
            child.totalUnitCount = expected
        }
        child.completedUnitCount = progress.bytesReceived
    }
}
