import Foundation
import NewsstandCore

/// An engine's event on its way to the library's actor, in the order the engine sent it.
enum EngineEvent: Sendable {
    case progressed(TransferID, DownloadProgress)
    /// The finished file is in `Downloads/` under `file` (the hand-off moved it).
    case received(TransferID, file: String)
    /// A finished transfer whose file was not taken (a 404's body, a failed move).
    case refused(TransferID, LibraryError)
    case failed(TransferID, TransferFailure, resumeData: Data?)
    /// Every event before this one is recorded when `recorded` is called.
    case delivered(WhenRecorded)
}

/// What to call once the events before it are recorded: called once, by the library's actor,
/// or after `LibraryTransferSink.recordDeadline` if the actor has not come to it by then.
final class WhenRecorded: Sendable {
    private let call: Locked<(@Sendable () -> Void)?>

    init(_ call: @escaping @Sendable () -> Void) { self.call = Locked(call) }

    /// Calls it, unless it was called already.
    func callAsFunction() {
        call.exchange(nil)?()
    }
}

/// The library's `TransferEventSink`: the hand-off inside `finished` (synchronous, while the
/// engine's file exists), everything else queued in order for the actor. Nothing waits for the
/// actor: `deliveredAllEvents` returns at once (the engine's delegate queue is never held), and
/// its `recorded` is called once the actor has recorded what came before it (so the system's
/// completion handler, called then, comes after the rows are committed), or after
/// `recordDeadline`.
struct LibraryTransferSink: TransferEventSink {
    /// At most this long before `recorded` is called anyway: the system's wake does not wait
    /// forever for an actor that is stuck.
    static let recordDeadline: TimeInterval = 20

    let handOff: TransferHandOff
    let events: AsyncStream<EngineEvent>.Continuation

    func progressed(_ id: TransferID, _ progress: DownloadProgress) {
        events.yield(.progressed(id, progress))
    }

    func finished(_ id: TransferID, status: Int?, file: URL) {
        switch handOff.take(file, of: id, status: status) {
        case .success(let name):
            events.yield(.received(id, file: name))
        case .failure(let refusal):
            events.yield(.refused(id, refusal.libraryError(name: id.name, url: file.path)))
        }
    }

    func failed(_ id: TransferID, _ failure: TransferFailure, resumeData: Data?) {
        events.yield(.failed(id, failure, resumeData: resumeData))
    }

    func deliveredAllEvents(whenRecorded recorded: @escaping @Sendable () -> Void) {
        let once = WhenRecorded(recorded)
        guard case .enqueued = events.yield(.delivered(once)) else { return once() }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.recordDeadline) { once() }
    }
}
