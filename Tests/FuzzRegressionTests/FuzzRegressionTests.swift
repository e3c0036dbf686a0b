import Foundation
import FuzzChecks
import Testing

/// Every input the fuzzers found a problem with (`Fuzz/regressions/<Target>/`) and every seed
/// (`Fuzz/corpus/<Target>/`), through the check the fuzzer runs: each must hold its invariants.
/// Serialized: a check works in one sandbox per process (as the single-threaded fuzzer does),
/// which two tests run at once would share.
@Suite(.serialized) struct FuzzRegressionTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ kind: String, _ target: FuzzTarget) throws -> [URL] {
        let folder = fuzz.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionsHoldTheirInvariants(_ target: FuzzTarget) throws {
        for input in try Self.inputs("regressions", target) {
            let violation = target.check(try Data(contentsOf: input))
            #expect(violation == nil, "\(target.rawValue) \(input.lastPathComponent): \(violation ?? "")")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsHoldTheirInvariants(_ target: FuzzTarget) throws {
        let seeds = try Self.inputs("corpus", target)
        #expect(!seeds.isEmpty, "\(target.rawValue) has no seed corpus")
        for input in seeds {
            let violation = target.check(try Data(contentsOf: input))
            #expect(violation == nil, "\(target.rawValue) \(input.lastPathComponent): \(violation ?? "")")
        }
    }

    /// The streaming seeds of well-formed pairs (`*.ok`, a bundle and the index `newsstand build`
    /// would write for it, stored and deflated) stream to the end: the check's invariants hold
    /// on them because they are read, not because every record is refused.
    @Test func wellFormedBundleStreamSeedsComplete() throws {
        let seeds = try Self.inputs("corpus", .bundleStream).filter { $0.pathExtension == "ok" }
        #expect(seeds.count >= 2)
        for seed in seeds {
            #expect(
                BundleStreamCheck.completes(try Data(contentsOf: seed)), "\(seed.lastPathComponent) does not stream to the end")
        }
    }
}
