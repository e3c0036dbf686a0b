import Foundation
import NewsstandTestSupport
import Testing

/// Magazines that lie: links out of the magazine, special files, plists the readers cannot
/// parse, plists too big to hold, names that are not UTF-8, images with impossible sizes.
/// Each is reported with its own code and nothing it points to reaches a bundle or the preview.
@Suite(.tags(.needsTools)) struct HostileMagazineTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")

    /// A copy of the sample whose first page of a-1 also has a `file` property,
    /// `attachment`, naming `notes.txt` in a-1's assets (not there yet).
    private func magazineWithAttachment() throws -> URL {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>FilePage</key>
                <dict>
                    <key>inherits</key><string>SimplePage</string>
                    <key>properties</key>
                    <dict>
                        <key>attachment</key>
                        <dict><key>type</key><string>file</string><key>required</key><true/></dict>
                    </dict>
                </dict>
            </dict>
            </plist>
            """.utf8
        ).write(to: magazine.appendingPathComponent("page-classes.plist"))
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        let text = try String(contentsOf: pages, encoding: .utf8)
        let first = "<string>SimplePage</string>"
        let range = try #require(text.range(of: first))
        var changed = text.replacingCharacters(in: range, with: "<string>FilePage</string>")
        let image = try #require(changed.range(of: "<string>1-0.png</string>"))
        changed.replaceSubrange(
            image,
            with: "<string>1-0.png</string>\n                <key>attachment</key>\n                <string>notes.txt</string>")
        try Data(changed.utf8).write(to: pages)
        return magazine
    }

    /// Runs `newsstand` with a deadline, so that a command that blocks fails the test instead
    /// of hanging the suite.
    private func newsstand(_ arguments: [String]) throws -> Shell.Result {
        try Shell.run("timeout", ["60", Shell.newsstand] + arguments)
    }

    // MARK: Links and special files

    @Test func anAttachmentThatLinksToPasswdIsAnErrorAndNothingIsWritten() throws {
        let magazine = try magazineWithAttachment()
        let assets = magazine.appendingPathComponent("issues/a-1/assets")
        try FileManager.default.createSymbolicLink(
            at: assets.appendingPathComponent("notes.txt"), withDestinationURL: URL(fileURLWithPath: "/etc/passwd"))
        let output = try Shell.temporaryFolder("hostile").appendingPathComponent("out")
        let preview = try Shell.temporaryFolder("hostile").appendingPathComponent("web")
        let build = try newsstand(["build", magazine.path, "--output", output.path])
        #expect(build.status == 1, "\(build.stdout)\(build.stderr)")
        #expect(
            build.stdout.contains(
                "issues/a-1/assets/notes.txt: error: 'notes.txt' is a symbolic link (to '/etc/passwd'); assets must be regular files in assets/, and nothing a link points to is packed [NS-310]"
            ), "\(build.stdout)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let web = try newsstand(["preview", magazine.path, "--output", preview.path])
        #expect(web.status == 1)
        #expect(web.stdout.contains("[NS-310]"))
        #expect(!FileManager.default.fileExists(atPath: preview.path))
    }

    @Test func linksToImagesOutsideTheMagazineAndLinkedFoldersAreErrors() throws {
        let magazine = try magazineWithAttachment()
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
        let result = try newsstand(["validate", magazine.path])
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

    @Test func aFifoInAssetsIsAnErrorAndDoesNotBlock() throws {
        let magazine = try magazineWithAttachment()
        let fifo = magazine.appendingPathComponent("issues/a-1/assets/notes.txt")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let result = try newsstand(["validate", magazine.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("issues/a-1/assets/notes.txt: error: 'notes.txt' is not a regular file (a FIFO)"),
            "\(result.stdout)")
    }

    // MARK: Plists

    @Test func aPlistWithEntityDeclarationsIsAnError() throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
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
        let result = try newsstand(["build", magazine.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "issues/a-2/issue.plist:2: error: the DOCTYPE declares entities or other markup (an internal subset); Foundation and plistlib refuse such property lists [NS-005]"
            ), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aPlistOverTheSizeLimitIsAnError() throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        let handle = try FileHandle(forWritingTo: pages)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x20, count: 8 << 20))  // spaces after </plist>
        try handle.close()
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: pages.path)[.size] as? Int)
        let size = bytes.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        let result = try newsstand(["validate", magazine.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "issues/a-1/pages.plist: error: pages.plist is \(size) bytes; a property list may be at most 8,388,608 bytes (8 MiB) [NS-006]"
            ), "\(result.stdout)")
    }

    @Test func aPlistWithTooManyValuesOrTooDeepIsAnError() throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
        let many = header + "<array><array>" + String(repeating: "<true/>", count: 500_000) + "</array></array></plist>\n"
        try Data(many.utf8).write(to: magazine.appendingPathComponent("issues/a-1/pages.plist"))
        let deep = header + String(repeating: "<array>", count: 70) + String(repeating: "</array>", count: 70) + "</plist>\n"
        try Data(deep.utf8).write(to: magazine.appendingPathComponent("issues/a-2/pages.plist"))
        let result = try newsstand(["validate", magazine.path])
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

    @Test func aBinaryPlistThatSharesObjectsCannotExplode() throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        // 12 levels of arrays, each holding the next level 10 times: 490 bytes, 10^12 values
        // once expanded (Foundation expands it: 7 levels took 627 MB).
        let script = """
            import struct, sys
            objects = [b'\\xaa' + struct.pack('>I', i + 1) * 10 for i in range(12)] + [b'\\x09']
            out = bytearray(b'bplist00'); offsets = []
            for o in objects:
                offsets.append(len(out)); out += o
            table = len(out)
            for off in offsets: out += struct.pack('>Q', off)
            out += bytes(6) + bytes([8, 4]) + struct.pack('>QQQ', len(objects), 0, table)
            open(sys.argv[1], 'wb').write(out)
            """
        #expect(try Shell.python(script, [magazine.appendingPathComponent("issues/a-1/pages.plist").path]).status == 0)
        let result = try newsstand(["validate", magazine.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "issues/a-1/pages.plist: error: pages.plist holds more than 250,000 values, the most a property list may hold [NS-006]"
            ), "\(result.stdout.suffix(2000))")
    }

    // MARK: Names and images

    @Test func anIssueFolderWhoseNameIsNotUTF8IsReported() throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        let copy = try Shell.python(
            "import os, shutil, sys; root = os.fsencode(sys.argv[1]); shutil.copytree(root + b'/issues/a-1', root + b'/issues/a-\\xff')",
            [magazine.path])
        #expect(copy.status == 0, "\(copy.stderr)")
        let result = try newsstand(["validate", magazine.path])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "issues/a-\\xFF: error: issue folder name 'a-\\xFF' is not valid UTF-8; use letters, digits, '-', '_' and '.' [NS-506]"
            ), "\(result.stdout)")
        #expect(!result.stdout.contains("no problems found"))
    }

    /// Two different images named `é.png`, composed and decomposed (made by Python, which writes
    /// the bytes it is given), both referenced: an error, and nothing is built.
    @Test func twoAssetsNamedAlikeInTwoNormalisationFormsAreAnErrorAndNothingIsBuilt() throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        let rename = try Shell.python(
            """
            import os, sys
            a = os.path.join(sys.argv[1], 'issues/a-1')
            for old, new in (('1-0', '\\u00e9'), ('2-0', 'e\\u0301')):
                for suffix in ('.png', '@2x.png'):
                    os.rename(os.path.join(a, 'assets', old + suffix), os.path.join(a, 'assets', new + suffix).encode('utf-8'))
            pages = os.path.join(a, 'pages.plist')
            text = open(pages, encoding='utf-8').read()
            text = text.replace('<string>1-0.png</string>', '<string>\\u00e9.png</string>', 1)
            text = text.replace('<string>2-0.png</string>', '<string>e\\u0301.png</string>', 1)
            open(pages, 'w', encoding='utf-8').write(text)
            """, [magazine.path])
        #expect(rename.status == 0, "\(rename.stderr)")
        let validate = try newsstand(["validate", magazine.path])
        #expect(validate.status == 1, "\(validate.stdout)")
        // Named by the spelling whose bytes sort first (decomposed: `65` before `c3`).
        #expect(
            validate.stdout.contains(
                "issues/a-1/assets/e\u{301}.png: error: 'e\u{301}.png' is in issues/a-1/assets/ 2 times, spelled 'e\\u{301}.png' and '\\u{e9}.png'"
            ), "\(validate.stdout)")
        #expect(validate.stdout.components(separatedBy: "[NS-312]").count == 3, "\(validate.stdout)")
        let output = try Shell.temporaryFolder("hostile").appendingPathComponent("out")
        let build = try newsstand(["build", magazine.path, "--output", output.path])
        #expect(build.status == 1, "\(build.stdout)\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// A url value and a file name with line breaks in them: each diagnostic stays one line of
    /// the text output, so neither can forge a line a CI log or an editor would believe.
    @Test func lineBreaksInValuesAndNamesCannotForgeADiagnosticLine() throws {
        let magazine = try magazineWithAttachment()
        let forged = "issues/a-1/pages.plist:1: error: forged [NS-000]"
        let setup = try Shell.python(
            """
            import os, sys
            root, forged = sys.argv[1], sys.argv[2]
            open(os.path.join(root, 'issues/a-1/assets/notes.txt'), 'w').write('notes')
            open(os.path.join(root, 'issues/a-1/assets', 'left\\nx.plist:1: error: forged.png'), 'w').write('x')
            classes = os.path.join(root, 'page-classes.plist')
            text = open(classes).read().replace(
                '<key>attachment</key>', '<key>link</key><dict><key>type</key><string>url</string></dict><key>attachment</key>')
            open(classes, 'w').write(text)
            pages = os.path.join(root, 'issues/a-1/pages.plist')
            text = open(pages).read().replace(
                '<key>attachment</key>', '<key>link</key><string>not a url\\n' + forged + '</string><key>attachment</key>', 1)
            open(pages, 'w').write(text)
            """, [magazine.path, forged])
        #expect(setup.status == 0, "\(setup.stderr)")
        let result = try newsstand(["validate", magazine.path])
        #expect(result.status == 1, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("issues/") || $0.hasPrefix("x.plist") }, "\(result.stdout)")
        #expect(lines.filter { $0.contains("[NS-209]") }.count == 1, "\(result.stdout)")
        #expect(result.stdout.contains("'not a url\\u{a}\(forged)'"), "\(result.stdout)")
        #expect(result.stdout.contains("assets/left\\u{a}x.plist:1: error: forged.png: warning:"), "\(result.stdout)")
    }
}
