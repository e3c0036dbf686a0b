import Foundation
import NewsstandTestSupport
import Testing

/// Magazines that lie, run in process: links out of the magazine, plists that declare entities,
/// are over the size limit, hold too many values or nest them too deep. Each is reported with
/// its own code and nothing it points to is written; an issue folder whose name is not UTF-8,
/// names alike in two normalisation forms, line breaks that would forge a diagnostic line. A
/// FIFO that could block a command and a binary plist that would expand run the executable
/// with a deadline in `HostileMagazineTests`.
@Suite struct HostileMagazineInProcessTests {
    let hostile = HostileMagazineTests()

    @Test func anAttachmentThatLinksToPasswdIsAnErrorAndNothingIsWritten() async throws {
        let magazine = try hostile.magazineWithAttachment()
        let assets = magazine.appendingPathComponent("issues/a-1/assets")
        try FileManager.default.createSymbolicLink(
            at: assets.appendingPathComponent("notes.txt"), withDestinationURL: URL(fileURLWithPath: "/etc/passwd"))
        let output = try Shell.temporaryFolder("hostile").appendingPathComponent("out")
        let preview = try Shell.temporaryFolder("hostile").appendingPathComponent("web")
        let build = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(build.status == 1, "\(build.stdout)\(build.stderr)")
        #expect(
            build.stdout.contains(
                "issues/a-1/assets/notes.txt: error: 'notes.txt' is a symbolic link (to '/etc/passwd'); assets must be regular files in assets/, and nothing a link points to is packed [NS-310]"
            ), "\(build.stdout)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let web = await InProcess.newsstand(["preview", magazine.path, "--output", preview.path])
        #expect(web.status == 1)
        #expect(web.stdout.contains("[NS-310]"))
        #expect(!FileManager.default.fileExists(atPath: preview.path))
    }

    @Test func linksToImagesOutsideTheMagazineAndLinkedFoldersAreErrors() async throws {
        let magazine = try hostile.magazineWithAttachment()
        let outside = try Shell.temporaryFolder("hostile")
        let a1 = magazine.appendingPathComponent("issues/a-1/assets")
        try Data("notes".utf8).write(to: a1.appendingPathComponent("notes.txt"))
        // An image of a-1 replaced by a link to a copy outside the magazine (same bytes).
        try FileManager.default.moveItem(at: a1.appendingPathComponent("2-0.png"), to: outside.appendingPathComponent("2-0.png"))
        try FileManager.default.createSymbolicLink(
            at: a1.appendingPathComponent("2-0.png"), withDestinationURL: outside.appendingPathComponent("2-0.png"))
        // a-2's assets folder is a link to a copy of itself outside the magazine.
        let a2 = magazine.appendingPathComponent("issues/a-2/assets")
        try FileManager.default.moveItem(at: a2, to: outside.appendingPathComponent("a-2-assets"))
        try FileManager.default.createSymbolicLink(at: a2, withDestinationURL: outside.appendingPathComponent("a-2-assets"))
        // a-3 itself is a link to a copy outside.
        let a3 = magazine.appendingPathComponent("issues/a-3")
        try FileManager.default.moveItem(at: a3, to: outside.appendingPathComponent("a-3"))
        try FileManager.default.createSymbolicLink(at: a3, withDestinationURL: outside.appendingPathComponent("a-3"))
        let result = await InProcess.newsstand(["validate", magazine.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("issues/a-1/assets/2-0.png: error: '2-0.png' is a symbolic link"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "issues/a-2/assets: error: issues/a-2/assets is a symbolic link; an issue's assets must be a folder inside the magazine [NS-310]"
            ), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "issues/a-3: error: issues/a-3 is a symbolic link; an issue must be a folder inside the magazine's issues/ [NS-511]"
            ), "\(result.stdout)")
    }

    @Test func aPlistWithEntityDeclarationsIsAnError() async throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: hostile.sample, to: magazine)
        let file = magazine.appendingPathComponent("issues/a-2/issue.plist")
        let text = try String(contentsOf: file, encoding: .utf8)
        let doctype = try #require(
            text.range(
                of: "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">"))
        try Data(
            text.replacingCharacters(in: doctype, with: "<!DOCTYPE plist [\n<!ENTITY title \"Aurora\">\n]>")
                .replacingOccurrences(of: "<key>Title</key>", with: "<key>&title;</key>").utf8
        ).write(to: file)
        let output = try Shell.temporaryFolder("hostile").appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "issues/a-2/issue.plist:2: error: the DOCTYPE declares entities or other markup (an internal subset); Foundation and plistlib refuse such property lists [NS-005]"
            ), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aPlistOverTheSizeLimitIsAnError() async throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: hostile.sample, to: magazine)
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        let handle = try FileHandle(forWritingTo: pages)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x20, count: 8 << 20))  // spaces after </plist>
        try handle.close()
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: pages.path)[.size] as? Int)
        let size = bytes.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        let result = await InProcess.newsstand(["validate", magazine.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "issues/a-1/pages.plist: error: pages.plist is \(size) bytes; a property list may be at most 8,388,608 bytes (8 MiB) [NS-006]"
            ), "\(result.stdout)")
    }

    @Test func aPlistWithTooManyValuesOrTooDeepIsAnError() async throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: hostile.sample, to: magazine)
        let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
        let many = header + "<array><array>" + String(repeating: "<true/>", count: 500_000) + "</array></array></plist>\n"
        try Data(many.utf8).write(to: magazine.appendingPathComponent("issues/a-1/pages.plist"))
        let deep = header + String(repeating: "<array>", count: 70) + String(repeating: "</array>", count: 70) + "</plist>\n"
        try Data(deep.utf8).write(to: magazine.appendingPathComponent("issues/a-2/pages.plist"))
        let result = await InProcess.newsstand(["validate", magazine.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "issues/a-1/pages.plist:3: error: pages.plist holds more than 250,000 values, the most a property list may hold [NS-006]"
            ), "\(result.stdout.suffix(2000))")
        #expect(
            result.stdout.contains(
                "issues/a-2/pages.plist:3: error: pages.plist nests values more than 64 deep, the most a property list may [NS-006]"
            ), "\(result.stdout.suffix(2000))")
        // Only the limit is reported for those files, not a problem per value.
        #expect(result.stdout.split(separator: "\n").filter { $0.contains("pages.plist") }.count == 2, "\(result.stdout)")
    }

    @Test func anIssueFolderWhoseNameIsNotUTF8IsReported() async throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: hostile.sample, to: magazine)
        // A copy of a-1 renamed to the bytes "a-\xFF" (rename(2) takes any bytes but '/' and NUL).
        let issues = magazine.appendingPathComponent("issues")
        try FileManager.default.copyItem(at: issues.appendingPathComponent("a-1"), to: issues.appendingPathComponent("a-copy"))
        let name = Array(issues.path.utf8CString.dropLast()) + Array("/a-".utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), 0]
        #expect(rename(issues.appendingPathComponent("a-copy").path, name) == 0, "rename: errno \(errno)")
        let result = await InProcess.newsstand(["validate", magazine.path])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "issues/a-\\xFF: error: issue folder name 'a-\\xFF' is not valid UTF-8; use letters, digits, '-', '_' and '.' [NS-506]"
            ), "\(result.stdout)")
        #expect(!result.stdout.contains("no problems found"))
    }

    /// Two different images named `é.png`, composed and decomposed (renamed by rename(2), which
    /// writes the bytes it is given), both referenced: an error, and nothing is built.
    @Test func twoAssetsNamedAlikeInTwoNormalisationFormsAreAnErrorAndNothingIsBuilt() async throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: hostile.sample, to: magazine)
        let issue = magazine.appendingPathComponent("issues/a-1")
        // Swift keeps a string's scalars as written: "\u{e9}" is C3 A9, "e\u{301}" is 65 CC 81.
        for (old, new) in [("1-0", "\u{e9}"), ("2-0", "e\u{301}")] {
            for suffix in [".png", "@2x.png"] {
                let from = issue.path + "/assets/" + old + suffix
                let to = Array((issue.path + "/assets/").utf8) + Array(new.utf8) + Array(suffix.utf8)
                #expect(rename(from, to.map { CChar(bitPattern: $0) } + [0]) == 0, "rename \(from): errno \(errno)")
            }
        }
        let pages = issue.appendingPathComponent("pages.plist")
        var text = Array(try Data(contentsOf: pages))
        for (old, new) in [
            ("<string>1-0.png</string>", "<string>\u{e9}.png</string>"),
            ("<string>2-0.png</string>", "<string>e\u{301}.png</string>"),
        ] {
            let (from, to) = (Array(old.utf8), Array(new.utf8))
            let start = try #require((0...(text.count - from.count)).first { text[$0..<$0 + from.count].elementsEqual(from) })
            text.replaceSubrange(start..<start + from.count, with: to)
        }
        try Data(text).write(to: pages)
        let validate = await InProcess.newsstand(["validate", magazine.path])
        #expect(validate.status == 1, "\(validate.stdout)")
        // Named by the spelling whose bytes sort first (decomposed: `65` before `c3`).
        #expect(
            validate.stdout.contains(
                "issues/a-1/assets/e\u{301}.png: error: 'e\u{301}.png' is in issues/a-1/assets/ 2 times, spelled 'e\\u{301}.png' and '\\u{e9}.png'"
            ), "\(validate.stdout)")
        #expect(validate.stdout.components(separatedBy: "[NS-312]").count == 3, "\(validate.stdout)")
        let output = try Shell.temporaryFolder("hostile").appendingPathComponent("out")
        let build = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(build.status == 1, "\(build.stdout)\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// A url value and a file name with line breaks in them: each diagnostic stays one line of
    /// the text output, so neither can forge a line a CI log or an editor would believe.
    @Test func lineBreaksInValuesAndNamesCannotForgeADiagnosticLine() async throws {
        let magazine = try hostile.magazineWithAttachment()
        let forged = "issues/a-1/pages.plist:1: error: forged [NS-000]"
        let assets = magazine.appendingPathComponent("issues/a-1/assets")
        try Data("notes".utf8).write(to: assets.appendingPathComponent("notes.txt"))
        try Data("x".utf8).write(to: assets.appendingPathComponent("left\nx.plist:1: error: forged.png"))
        let classes = magazine.appendingPathComponent("page-classes.plist")
        try Data(
            try String(contentsOf: classes, encoding: .utf8).replacingOccurrences(
                of: "<key>attachment</key>",
                with: "<key>link</key><dict><key>type</key><string>url</string></dict><key>attachment</key>"
            ).utf8
        ).write(to: classes)
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        var text = try String(contentsOf: pages, encoding: .utf8)
        let first = try #require(text.range(of: "<key>attachment</key>"))
        text.replaceSubrange(first, with: "<key>link</key><string>not a url\n" + forged + "</string><key>attachment</key>")
        try Data(text.utf8).write(to: pages)
        let result = await InProcess.newsstand(["validate", magazine.path])
        #expect(result.status == 1, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("issues/") || $0.hasPrefix("x.plist") }, "\(result.stdout)")
        #expect(lines.filter { $0.contains("[NS-209]") }.count == 1, "\(result.stdout)")
        #expect(result.stdout.contains("'not a url\\u{a}\(forged)'"), "\(result.stdout)")
        #expect(result.stdout.contains("assets/left\\u{a}x.plist:1: error: forged.png: warning:"), "\(result.stdout)")
    }
}
