import Foundation
import NewsstandCore
import Testing

@testable import NewsstandReader

/// The library's sink never holds the engine's delegate queue: "delivered all events" returns at
/// once, and the system's completion handler is called when the library has recorded the events
/// before it (#34).
@Suite("Library transfer sink")
struct LibraryTransferSinkTests {
    static func sink() -> (LibraryTransferSink, AsyncStream<EngineEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self)
        let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)")
        return (LibraryTransferSink(handOff: TransferHandOff(downloads: downloads), events: continuation), events)
    }

    @Test func deliveredAllEventsReturnsAtOnceAndCallsBackWhenRecorded() async throws {
        let (sink, events) = Self.sink()
        let calls = Locked(0)
        // Nothing consumes the events yet: with a wait inside, this would hold the caller.
        sink.progressed(TransferID(name: "a", generation: 1), DownloadProgress(bytesReceived: 1, bytesExpected: 2))
        sink.deliveredAllEvents { calls.withLock { $0 += 1 } }
        #expect(calls.current == 0, "not before the library recorded what came before")
        var iterator = events.makeAsyncIterator()
        guard case .progressed? = await iterator.next(), case .delivered(let recorded)? = await iterator.next() else {
            Issue.record("the events arrive in the order the engine sent them")
            return
        }
        recorded()
        recorded()
        #expect(calls.current == 1, "called once")
    }

    @Test func aSinkWhoseLibraryIsGoneCallsBackAtOnce() {
        let (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self)
        continuation.finish()
        _ = events
        let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)")
        let sink = LibraryTransferSink(handOff: TransferHandOff(downloads: downloads), events: continuation)
        let calls = Locked(0)
        sink.deliveredAllEvents { calls.withLock { $0 += 1 } }
        #expect(calls.current == 1)
    }
}
