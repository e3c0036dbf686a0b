import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

/// The same master gives the same bytes in another process, with libvips' vector code switched
/// off (as on a machine whose CPU lacks the instructions) and with another thread count.
@Suite(.tags(.needsTools)) struct DeterminismTests {
    /// ImagingBench, built beside the tests (`swift build` runs before `swift test`).
    static var imagingBench: String {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("ImagingBench"),
            Bundle.main.bundleURL.appendingPathComponent("ImagingBench"),
            Shell.repositoryRoot.appendingPathComponent(".build/debug/ImagingBench"),
        ]
        return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!).path
    }

    @Test func derivedBytesAreTheSameAcrossProcessesVectorUnitsAndThreads() throws {
        let folder = try Fixtures.folder()
        var masters = [
            try Fixtures.png(folder.appendingPathComponent("rgb@2x.png"), width: 642, height: 400),
            try Fixtures.png(
                folder.appendingPathComponent("rgba16@2x.png"), width: 320, height: 322,
                ["colourType": 6, "bitDepth": 16, "alpha": "ramp"]),
            try Fixtures.jpeg(folder.appendingPathComponent("photo@2x.jpg"), width: 800, height: 600),
        ]
        let webp = folder.appendingPathComponent("w@2x.webp")
        try Fixtures.vips("copy", masters[0].path, webp.path)
        masters.append(webp)
        let environments: [[String: String]] = [[:], ["VIPS_NOVECTOR": "1", "VIPS_CONCURRENCY": "1"], ["VIPS_CONCURRENCY": "7"]]
        for master in masters {
            let here = folder.appendingPathComponent("here-" + master.lastPathComponent)
            _ = try NormalSizeDeriver().derive(from: .path(master.path), to: .newFile(here.path))
            for (index, environment) in environments.enumerated() {
                let there = folder.appendingPathComponent("there-\(index)-" + master.lastPathComponent)
                try Fixtures.run(Self.imagingBench, ["derive", master.path, there.path], environment: environment)
                #expect(try Data.of(here) == Data.of(there), "\(master.lastPathComponent) with \(environment)")
            }
        }
    }
}

@Suite(.tags(.needsTools)) struct ImagingEngineTests {
    @Test func namesTheLibraryVersionForCacheKeys() throws {
        let version = try Fixtures.run("vips", ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)  // "vips-8.14.1"
        #expect(ImagingEngine.libraryVersion == "libvips " + version.replacingOccurrences(of: "vips-", with: ""))
        #expect(ImagingEngine.derivationFingerprint.hasPrefix(ImagingEngine.libraryVersion + ";"))
    }
}
