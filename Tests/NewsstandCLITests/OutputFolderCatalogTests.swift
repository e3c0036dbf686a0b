import Foundation
import NewsstandTestSupport
import Testing

/// A build removes only the files it recorded, the catalog it leaves read by Python's plistlib.
/// The rest of the output folder's rules are in `OutputFolderTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct OutputFolderCatalogTests {
    let base = OutputFolderTests()

    @Test func buildRemovesOnlyTheFilesItRecorded() async throws {
        let (work, magazine) = try base.workspace()
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
}
