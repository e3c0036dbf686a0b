import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandTestSupport
import Testing

/// A build whose image work stops part-way (an image libvips cannot decode, a Ctrl-C, a kill):
/// what it finished is taken from the cache by the next build, and the temporary files a killed
/// build left in `.newsstand/images/` are removed, and nothing else there.
@Suite struct InterruptedImageWorkTests {
    static let names = ["1-0.png", "2-0.png", "2-1.png", "2-1t.png"]

    /// The fixture with real PNGs in both sizes (each makes a smaller file when optimised).
    private func fixture() throws -> MagazineFixture {
        let fixture = try MagazineFixture()
        for (index, name) in Self.names.enumerated() {
            try fixture.write("issues/f-1/assets/\(name)", try RealPNG.data(width: 20, height: 12, metadata: 4_000, seed: index))
            try fixture.write(
                "issues/f-1/assets/\(RetinaName.of(name))", try RealPNG.data(width: 40, height: 24, metadata: 4_000, seed: index))
        }
        return fixture
    }

    /// One image at a time, so that the order in which they are made is the plan's.
    private func build(_ fixture: MagazineFixture, into output: URL, force: Bool = false) throws -> BuildReport {
        let (magazine, plans) = try fixture.plans()
        let options = BuildOptions(output: output, jobs: 1, force: force, versioned: false, optimize: true)
        return try MagazineBuilder(magazine: magazine, options: options).build(plans)
    }

    private func images(_ output: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("f-1/.newsstand/images").path).sorted()
    }

    @Test func whatAFailedOptimisationFinishedIsTakenFromTheCacheNextTime() throws {
        let fixture = try fixture()
        // The last image made (2-1t@2x.png) has a good header and no pixels: validation
        // passes, optimising it fails after the seven before it were made.
        let good = try Data(contentsOf: fixture.url("issues/f-1/assets/2-1t@2x.png"))
        var broken = good.prefix(33)
        broken.append(Data(repeating: 0x41, count: 64))
        try fixture.write("issues/f-1/assets/2-1t@2x.png", Data(broken))
        let output = try Shell.temporaryFolder()
        #expect(throws: BuildError.self) { try build(fixture, into: output) }
        let made = try images(output)
        #expect(made.filter { !$0.hasPrefix(".") }.count == 7, "\(made)")

        try fixture.write("issues/f-1/assets/2-1t@2x.png", good)
        let report = try build(fixture, into: output)
        #expect(report.images.optimizedFromCache == 7, "\(report.images)")
        #expect(report.images.optimized == 1, "\(report.images)")
        let after = try images(output)
        #expect(after.allSatisfy { !$0.hasPrefix(".") }, "\(after)")
        // The same bundles as a build that was never interrupted.
        let clean = try Shell.temporaryFolder()
        _ = try build(fixture, into: clean)
        for name in ["f-1/f-1.zip", "f-1/f-1@2x.zip"] {
            #expect(
                try Data(contentsOf: output.appendingPathComponent(name)) == Data(contentsOf: clean.appendingPathComponent(name)))
        }
    }

    @Test func temporaryFilesOfAKilledBuildAreRemovedAndNothingElse() throws {
        let fixture = try fixture()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let folder = output.appendingPathComponent("f-1/.newsstand/images")
        let key = String(repeating: "ab", count: 16)
        // A writer that is no process: its temporary files are leftovers.
        let gone = try NoSuchProcess.pid
        let dead = ".\(key).png.\(gone).1f2e3d4c.tmp"
        // A running process's (init's) may still be written: left alone, as is anything not
        // named like a temporary cache file, and a link with a leftover's name.
        let running = ".\(key).png.1.5a6b7c8d.tmp"
        let others = ["notes.txt", ".\(key).png.tmp", ".other.png.\(gone).1f2e3d4c.tmp"]
        for name in [dead, running] + others { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        let link = ".\(key).jpg.\(gone).99.tmp"
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent(link).path, withDestinationPath: "/etc/passwd")

        // Forced: the issue is built, as after a killed build (whose manifest was never written).
        _ = try build(fixture, into: output, force: true)
        let left = Set(try images(output))
        #expect(!left.contains(dead), "\(left)")
        #expect(left.isSuperset(of: [running, link] + others), "\(left)")
    }
}
