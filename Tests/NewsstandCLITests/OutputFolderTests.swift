import Foundation
import NewsstandTestSupport
import Testing

/// The output folder belongs to the user: `build`, `catalog` and `preview` refuse one that
/// overlaps the magazine, and `build` removes only files an earlier build recorded as its own.
/// Every test lists the folders before and after and compares them.
@Suite struct OutputFolderTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")

    /// `<work>/shelf/aurora`: a copy of the sample one level down, so that an output folder can
    /// contain the magazine without containing anything else of the test's.
    func workspace() throws -> (work: URL, magazine: URL) {
        let work = try Shell.temporaryFolder("output-rule")
        let magazine = work.appendingPathComponent("shelf/aurora")
        try FileManager.default.createDirectory(at: magazine.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sample, to: magazine)
        return (work, magazine)
    }

    @Test func anOutputThatOverlapsTheMagazineIsRefusedBeforeAnythingIsWritten() async throws {
        let (work, magazine) = try workspace()
        let link = work.appendingPathComponent("link-to-issues")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: magazine.appendingPathComponent("issues"))
        let outputs = [
            magazine.path,
            magazine.appendingPathComponent("issues").path,
            magazine.appendingPathComponent("issues/a-1").path,
            magazine.appendingPathComponent("new/out").path,  // inside, not there yet
            magazine.deletingLastPathComponent().path,  // contains it
            link.path,  // inside, through a link
            link.appendingPathComponent("../..").path,  // the magazine, spelt through the link
            magazine.appendingPathComponent("issues/../issues/a-2").path,
        ]
        let before = FolderSnapshot(work)
        for output in outputs {
            for arguments in [
                ["build", magazine.path, "--output", output],
                ["preview", magazine.path, "--output", output],
                ["catalog", output, "--magazine", magazine.path],
            ] {
                let result = await InProcess.newsstand(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
                #expect(result.stderr.contains("overlaps the magazine"), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(output), "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(magazine.path), "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(arguments): validation ran: \(result.stdout)")
            }
        }
        let after = FolderSnapshot(work)
        #expect(after == before, "\(after.differences(from: before))")
    }

    @Test func anOutputBesideTheMagazineIsFine() async throws {
        let (work, magazine) = try workspace()
        let output = work.appendingPathComponent("shelf/aurora-out")
        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aManifestThatNamesFilesOutsideItsFolderIsNeverActedOn() async throws {
        let (work, magazine) = try workspace()
        let output = work.appendingPathComponent("out")
        #expect(await InProcess.newsstand(["build", magazine.path, "--output", output.path]).status == 0)
        let victims = work.appendingPathComponent("victims")
        try FileManager.default.createDirectory(at: victims, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: victims.appendingPathComponent("precious.txt"))
        try Data("hidden".utf8).write(to: output.appendingPathComponent("a-1/.precious"))
        // Lies in a-1's manifest (an issue still in the magazine) and in a-3's (one leaving it).
        for (issue, names) in [
            ("a-1", ["../../victims/precious.txt", victims.appendingPathComponent("precious.txt").path, ".precious", "..\\x"]),
            ("a-3", ["../../victims/precious.txt", "..", "a-3.zip", "cover.png"]),
        ] {
            let url = output.appendingPathComponent("\(issue)/.newsstand/manifest.json")
            var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            for (key, name) in zip(["bundle", "retinaBundle", "cover", "retinaCover"], names) {
                var record = try #require(manifest[key] as? [String: Any])
                record["file"] = name
                manifest[key] = record
            }
            try JSONSerialization.data(withJSONObject: manifest).write(to: url)
        }
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-3"))
        let before = FolderSnapshot(work)
        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path, "--force"])
        let after = FolderSnapshot(work)
        // a-3's record cannot be trusted, so its folder stays as it is and the catalog cannot
        // be written: the build fails, naming the file and the entry.
        #expect(result.status == 1)
        #expect(result.stderr.contains("a-3/.newsstand/manifest.json"), "\(result.stderr)")
        #expect(result.stderr.contains("lists '../../victims/precious.txt', which is not a plain file name"), "\(result.stderr)")
        #expect(after.entries["victims/precious.txt"] == before.entries["victims/precious.txt"])
        #expect(after.entries["out/a-1/.precious"] == before.entries["out/a-1/.precious"])
        for path in before.paths where path.hasPrefix("out/a-3") {
            #expect(after.entries[path] == before.entries[path], "\(path) changed")
        }
        #expect(result.stderr.contains("a-1/.newsstand/manifest.json"), "\(result.stderr)")
    }

    @Test func anIssueOutputFolderThatIsALinkIsNeitherWrittenNorDeletedThrough() async throws {
        let (work, magazine) = try workspace()
        let output = work.appendingPathComponent("out")
        #expect(await InProcess.newsstand(["build", magazine.path, "--output", output.path]).status == 0)
        // a-1 (in the magazine) and a-3 (leaving it) now point at folders elsewhere, each a
        // built issue with a manifest.
        let elsewhere = work.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        for issue in ["a-1", "a-3"] {
            try FileManager.default.moveItem(
                at: output.appendingPathComponent(issue), to: elsewhere.appendingPathComponent(issue))
            try FileManager.default.createSymbolicLink(
                at: output.appendingPathComponent(issue), withDestinationURL: elsewhere.appendingPathComponent(issue))
        }
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-3"))
        let before = FolderSnapshot(elsewhere)
        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path, "--force"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(output.path)/a-1"), "\(result.stderr)")
        #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
        let after = FolderSnapshot(elsewhere)
        #expect(after == before, "\(after.differences(from: before))")

        // Without a-1, the stale a-3 link is left in place with a warning.
        try FileManager.default.removeItem(at: output.appendingPathComponent("a-1"))
        let again = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("\(output.path)/a-3"), "\(again.stderr)")
        #expect(
            FolderSnapshot(elsewhere).entries.filter { $0.key.hasPrefix("a-3") }
                == before.entries.filter { $0.key.hasPrefix("a-3") })
    }
}
