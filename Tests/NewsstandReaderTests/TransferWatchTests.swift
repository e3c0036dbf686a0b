import Testing

@testable import NewsstandReader

/// The one rate rule every transfer follows, on a clock the test drives.
@Suite("Transfer limits")
struct TransferWatchTests {
    static let second: UInt64 = 1_000_000_000

    /// Feeds `rate` bytes per second, checked four times a second, until `seconds` or a failure.
    static func run(_ limits: TransferLimits, rate: (Double) -> Int64, for seconds: Double) -> (TransferFailure, Double)? {
        var watch = TransferWatch(limits, now: 0)
        var received: Int64 = 0
        var time = 0.25
        while time <= seconds {
            received += rate(time)
            if let failure = watch.check(received: received, now: UInt64(time * Double(second))) { return (failure, time) }
            time += 0.25
        }
        return nil
    }

    @Test func aSteadyTransferAboveTheMinimumRunsOn() {
        let limits = TransferLimits(deadline: nil, stallTimeout: 2, minimumSpeed: 1000)
        #expect(Self.run(limits, rate: { _ in 300 }, for: 60) == nil, "1200 bytes/s")
    }

    @Test func aDripBelowTheMinimumFailsAfterOneWindow() throws {
        let limits = TransferLimits(deadline: nil, stallTimeout: 2, minimumSpeed: 1000)
        let (failure, time) = try #require(Self.run(limits, rate: { _ in 1 }, for: 60))
        #expect(failure == .stalled)
        #expect(time == 2)
    }

    @Test func nothingAtAllIsAStallEvenWithoutAMinimumRate() throws {
        let limits = TransferLimits(deadline: nil, stallTimeout: 3, minimumSpeed: 0)
        #expect(Self.run(limits, rate: { _ in 1 }, for: 60) == nil, "a byte now and then is enough")
        let (failure, time) = try #require(Self.run(limits, rate: { $0 < 5 ? 100 : 0 }, for: 60))
        #expect(failure == .stalled)
        #expect(time >= 8 && time <= 8.5, "three seconds after the last byte: \(time)")
    }

    /// A fast start does not pay for a later stall: the window slides.
    @Test func theWindowSlides() throws {
        let limits = TransferLimits(deadline: nil, stallTimeout: 2, minimumSpeed: 1000)
        let (failure, time) = try #require(Self.run(limits, rate: { $0 <= 10 ? 1_000_000 : 0 }, for: 60))
        #expect(failure == .stalled)
        #expect(time > 10 && time <= 12.5, "\(time)")
    }

    @Test func theDeadlineEndsEvenAFastTransfer() throws {
        let limits = TransferLimits(deadline: 5, stallTimeout: 2, minimumSpeed: 1000)
        let (failure, time) = try #require(Self.run(limits, rate: { _ in 1_000_000 }, for: 60))
        #expect(failure == .timedOut(seconds: 5))
        #expect(time == 5)
    }
}
