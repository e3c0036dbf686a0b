import Foundation
import NewsstandTestSupport
import Testing

/// The output folder belongs to the user: `build`, `catalog` and `preview` refuse one that
/// overlaps the magazine, and `build` removes only files an earlier build recorded as its own.
/// Every test lists the folders before and after and compares them.
@Suite(.tags(.needsTools)) struct OutputFolderTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")

    /// `<work>/shelf/aurora`: a copy of the sample one level down, so that an output folder can
    /// contain the magazine without containing anything else of the test's.
    private func workspace() throws -> (work: URL, magazine: URL) {
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

    @Test func buildRemovesOnlyTheFilesItRecorded() async throws {
        let (work, magazine) = try workspace()
        let output = work.appendingPathComponent("out")
        #expect(await InProcess.newsstand(["build", magazine.path, "--output", output.path, "--fixed-names"]).status == 0)
        // The user's files: beside an issue's outputs, in a folder of the user's own, and in
        // the folders of two issues that are about to leave the magazine.
        let mine = [
            "a-1/notes.txt", "a-1/.hidden", "a-1/drafts/draft.txt", "mine/readme.txt", "a-3/keep.txt",
        ]
        for path in mine {
            let url = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("the user's \(path)".utf8).write(to: url)
        }
        let built = FolderSnapshot(output)
        for issue in ["a-2", "a-3"] {
            try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/\(issue)"))
        }
        // Content-versioned names (the default): every output of a-1 gets a new name, so the
        // fixed-name ones of the first build are leftovers.
        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let after = FolderSnapshot(output)
        for path in mine { #expect(after.entries[path] == built.entries[path], "\(path) changed") }
        // What the builds recorded is gone: the old outputs of a-1, the whole of a-2, a-3's own files.
        for path in [
            "a-1/a-1.zip", "a-1/a-1@2x.zip", "a-1/cover.png", "a-1/cover@2x.png", "a-2", "a-3/a-3.zip", "a-3/.newsstand",
        ] {
            #expect(after.entries[path] == nil, "\(path) is left")
        }
        #expect(after.paths.filter { $0.hasPrefix("a-3") } == ["a-3", "a-3/keep.txt"])
        #expect(after.paths.contains { $0.hasPrefix("a-1/a-1.") && $0.hasSuffix(".zip") })
        #expect(result.stderr.contains("a-1/notes.txt"), "\(result.stderr)")
        #expect(result.stderr.contains("a-3/keep.txt"), "\(result.stderr)")
        #expect(result.stdout.contains("removed a-2, a-3"), "\(result.stdout)")
        let catalog = try Shell.python(
            "import plistlib,sys; print(' '.join(e['Name'] for e in plistlib.load(open(sys.argv[1],'rb'))))",
            [output.appendingPathComponent("issues.plist").path])
        #expect(catalog.stdout == "a-1\n")
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
