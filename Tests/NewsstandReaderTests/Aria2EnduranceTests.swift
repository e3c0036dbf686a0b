import Foundation
import NewsstandAria2
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// Fifty jobs handed to engines that come and go at random moments, and the daemon killed once
/// in the middle: every issue is handed over exactly once, equal to its bundle, and nothing is
/// left behind. What the library does with a transfer the engine lost (it starts the next
/// generation) the test does too.
@Suite("aria2 endurance", .timeLimit(.minutes(3)), .tags(.needsServer))
struct Aria2EnduranceTests {
    static let count = 50

    @Test func fiftyJobsThroughEnginesDroppedAtRandomAndOneDaemonKill() async throws {
        try await Aria2Bed.with { bed in
            let bundles = try (1...Self.count).map { try bed.bundle("e-\($0)", bytes: 40_000, location: "slow/") }
            let sink = RecordingSink(downloads: bed.downloads)
            var generation = [String: Int]()
            var handed = 0
            var killed = false
            var engines = 0
            var random = SystemRandomNumberGenerator()
            let deadline = Date().addingTimeInterval(150)
            while sink.finished.count < Self.count, Date() < deadline {
                let engine = bed.engine { $0.maxConcurrentDownloads = 4 }
                engines += 1
                engine.attach(sink)
                // Hand over the next few, as the app would when the user taps.
                let next = min(Self.count, handed + Int.random(in: 3...12, using: &random))
                for index in handed..<next {
                    let name = "e-\(index + 1)"
                    generation[name] = 1
                    try await engine.start(Self.job(name, 1, bundles[index].url))
                }
                handed = next
                // Once, half-way, a moment after jobs were handed over: the daemon runs them.
                if !killed, handed >= Self.count / 2 {
                    try await Task.sleep(nanoseconds: UInt64.random(in: 0...200_000_000, using: &random))
                    if let daemon = bed.daemons().first {
                        Aria2Bed.killAndReap(daemon)
                        killed = true
                    }
                }
                try await Task.sleep(nanoseconds: UInt64.random(in: 200_000_000...900_000_000, using: &random))
                // What the library does on open: a transfer the engine does not know is started
                // again as the next generation (a job given less than a second before the kill
                // was not in aria2's session yet).
                let report = try await engine.report()
                let done = Set(sink.finished.map(\.id.name))
                for (name, current) in generation
                where !done.contains(name) && report[TransferID(name: name, generation: current)] == nil {
                    let index = Int(name.dropFirst(2))! - 1
                    guard index < handed else { continue }
                    generation[name] = current + 1
                    try await engine.start(Self.job(name, current + 1, bundles[index].url))
                }
                await engine.detach()
            }
            #expect(killed)
            #expect(engines > 3)
            let names = sink.finished.map(\.id.name)
            #expect(names.count == Self.count, "\(names.count) of \(Self.count) handed over")
            #expect(Set(names).count == names.count, "an issue was handed over twice")
            for handedOver in sink.finished {
                let index = Int(handedOver.id.name.dropFirst(2))! - 1
                #expect(try SHA256.hex(ofFileAt: handedOver.file) == bundles[index].sha256, "\(handedOver.id)")
            }
            #expect(sink.failed.isEmpty)
            let last = bed.engine()
            #expect(try await last.report().isEmpty)
            #expect(try await last.stopIfIdle())
            #expect(bed.daemons().isEmpty)
            #expect(bed.files().isEmpty, "left behind: \(bed.files())")
        }
    }

    static func job(_ name: String, _ generation: Int, _ url: URL) -> TransferJob {
        TransferJob(id: TransferID(name: name, generation: generation), url: url, expectedSize: nil, intent: .user)
    }
}
