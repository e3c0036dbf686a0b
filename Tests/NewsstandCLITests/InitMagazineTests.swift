import Foundation
import NewsstandTestSupport
import Testing

/// The magazine `newsstand init` writes starts well: once its BaseURL is set, it validates,
/// builds every feed (EPUBCheck and the OPDS schema pass the results) and previews without a
/// problem; with the placeholder BaseURL still there, validate warns (NS-108) and publish refuses.
@Suite(.tags(.needsTools)) struct InitMagazineTests {
    let environment = ["NEWSSTAND_TEMPLATES": Shell.repositoryRoot.appendingPathComponent("templates").path, "NO_COLOR": "1"]

    private func newsstand(_ arguments: String...) async -> Shell.Result {
        await InProcess.newsstand(arguments, environment: environment)
    }

    private func initialized(_ label: String) async throws -> URL {
        let folder = try Shell.temporaryFolder(label).appendingPathComponent("my-magazine")
        let created = await newsstand("init", folder.path)
        #expect(created.status == 0, "\(created.stderr)")
        return folder
    }

    @Test func aPlaceholderBaseURLIsAWarningAndPublishRefusesIt() async throws {
        let magazine = try await initialized("init-placeholder")
        let validation = await newsstand("validate", magazine.path)
        #expect(validation.status == 0)
        let lines = validation.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(validation.stdout)")
        #expect(lines.first?.hasPrefix("\(magazine.path)/magazine.plist:9: warning: BaseURL is still the placeholder") == true)
        #expect(lines.first?.hasSuffix("[NS-108]") == true)
        #expect(lines.last == "0 errors, 1 warning in 1 issue")
        #expect(await newsstand("validate", magazine.path, "--strict").status == 1)

        let output = magazine.deletingLastPathComponent().appendingPathComponent("out")
        #expect(await newsstand("build", magazine.path, "--output", output.path).status == 0)
        let destination = magazine.deletingLastPathComponent().appendingPathComponent("www")
        let publish = await newsstand("publish", output.path, "--to", destination.path)
        #expect(publish.status == 1)
        #expect(publish.stderr.contains("the placeholder 'newsstand init' wrote"), "\(publish.stderr)")
        #expect(publish.stderr.contains("set BaseURL in magazine.plist"), "\(publish.stderr)")
        #expect(!FileManager.default.fileExists(atPath: destination.path), "publish wrote to the destination")
    }

    @Test func initValidateBuildEveryFeedAndPreviewAreClean() async throws {
        let magazine = try await initialized("init-clean")
        let settings = magazine.appendingPathComponent("magazine.plist")
        let text = try String(contentsOf: settings, encoding: .utf8)
        #expect(text.contains("<string>https://example.com/magazine/</string>"))
        try Data(text.replacingOccurrences(of: "https://example.com/magazine/", with: "https://magazine.test/").utf8)
            .write(to: settings)

        let validation = await newsstand("validate", magazine.path, "--strict", "--feed", "atom")
        #expect(validation.status == 0)
        #expect(validation.stdout == "no problems found in 1 issue\n", "\(validation.stdout)")

        let output = magazine.deletingLastPathComponent().appendingPathComponent("out")
        let build = await newsstand(
            "build", magazine.path, "--output", output.path, "--feed", "atom", "--feed", "opds", "--feed", "epub", "--strict")
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(!build.stdout.contains("warning") && !build.stderr.contains("warning"), "\(build.stdout)\(build.stderr)")
        for file in ["issues.plist", "atom.xml", "opds.json"] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(file).path), "\(file)")
        }
        let book = try ChannelChecks.file(endingIn: ".epub", in: output.appendingPathComponent("issue-1"))
        let check = try await ChannelChecks.epubcheck([book])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains(": 0 fatal, 0 errors, 0 warnings, 0 infos"), "\(check.stdout)")
        let opds = try await ChannelChecks.opds([output.appendingPathComponent("opds.json")])
        #expect(opds.status == 0, "\(opds.stdout)\(opds.stderr)")

        // The pages are the size docs/magazine-layout.md recommends, not a postage stamp.
        let page = try Data(contentsOf: magazine.appendingPathComponent("issues/issue-1/assets/1-0@2x.png"))
        #expect(Self.pngSize(page) == [1536, 2048])

        let site = magazine.deletingLastPathComponent().appendingPathComponent("site")
        let preview = await newsstand("preview", magazine.path, "--output", site.path, "--strict")
        #expect(preview.status == 0, "\(preview.stdout)\(preview.stderr)")
        #expect(!preview.stdout.contains("warning") && !preview.stderr.contains("warning"), "\(preview.stdout)\(preview.stderr)")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
    }

    /// A PNG's width and height, from its IHDR.
    static func pngSize(_ data: Data) -> [Int] {
        [16, 20].map { offset in data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
    }
}
