import Foundation
import NewsstandTestSupport
import Testing

/// Every property list in a bundle is one the readers parse: Foundation's
/// `PropertyListSerialization` (the reader library's parser) and Python's `plistlib`, whatever
/// XML quirks libxml2 accepted in the source.
@Suite(.tags(.needsTools)) struct BundlePlistTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")

    /// Builds `magazine`, unpacks every bundle and returns (bundle, plist file) for every plist in them.
    private func bundlePlists(of magazine: URL) async throws -> [(bundle: String, file: URL)] {
        let work = try Shell.temporaryFolder("bundle-plists")
        let output = work.appendingPathComponent("out")
        let build = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        var found: [(String, URL)] = []
        for issue in try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        where !issue.hasSuffix(".plist") && !issue.hasPrefix(".") {
            // Bundles are named by content (a-1.3fa9c1e2.zip); called here a-1.zip and a-1@2x.zip.
            let zips = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent(issue).path)
                .filter { $0.hasSuffix(".zip") }.sorted()
            #expect(zips.count == 2, "\(zips)")
            for file in zips {
                let bundle = file.hasSuffix("@2x.zip") ? issue + "@2x.zip" : issue + ".zip"
                let unpacked = work.appendingPathComponent("unpacked/\(bundle)")
                try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
                let unzip = try Shell.run(
                    "unzip", ["-q", output.appendingPathComponent("\(issue)/\(file)").path, "-d", unpacked.path])
                #expect(unzip.status == 0)
                for name in try FileManager.default.contentsOfDirectory(atPath: unpacked.path).sorted()
                where name.hasSuffix(".plist") {
                    found.append((bundle, unpacked.appendingPathComponent(name)))
                }
            }
        }
        return found
    }

    /// Parses each file with Foundation and with plistlib; returns plistlib's view as JSON-ish text per file.
    private func expectBothParse(_ plists: [(bundle: String, file: URL)]) throws -> [String: String] {
        for (bundle, file) in plists {
            let data = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(bundle)/\(file.lastPathComponent): Foundation cannot parse it") {
                _ = try PropertyListSerialization.propertyList(from: data, format: nil)
            }
        }
        let check = try Shell.python(
            """
            import json, plistlib, sys
            for path in sys.argv[1:]:
                value = plistlib.load(open(path, 'rb'))
                print(path + '\\t' + json.dumps(value, default=str, ensure_ascii=False))
            """, plists.map(\.file.path))
        #expect(check.status == 0, "plistlib: \(check.stderr)")
        var views: [String: String] = [:]
        for line in check.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if parts.count == 2 { views[parts[0]] = parts[1] }
        }
        return views
    }

    @Test func everyPlistInTheSampleBundlesParsesWithFoundationAndPlistlib() async throws {
        let plists = try await bundlePlists(of: sample)
        #expect(plists.count == 12)  // 3 issues × 2 bundles × (issue.plist, pages.plist)
        let views = try expectBothParse(plists)
        #expect(views.count == 12)
    }

    @Test func xmlQuirksLibxml2AcceptsReachTheBundlesInAFormBothReadersParse() async throws {
        let magazine = try Shell.temporaryFolder("bundle-plists").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        // a-1's issue.plist in UTF-16 with comments, a processing instruction, CDATA and
        // character references; a-2's in ISO-8859-1 with an external DOCTYPE.
        let issue1 = """
            <?xml version="1.0" encoding="UTF-16"?>
            <!-- a comment before the root -->
            <?editor keep-this?>
            <plist version="1.0">
            <dict>
                <key>Title</key><!-- between --><string>Caf&#xE9; <![CDATA[<&>]]> &#x263A;</string>
                <key>Date</key><date>2026-03-01T08:00:00Z</date>
                <key>Cover</key><string>co<!-- inside -->ver.png</string>
            </dict>
            </plist>
            """
        try issue1.data(using: .utf16)!.write(to: magazine.appendingPathComponent("issues/a-1/issue.plist"))
        let issue2 = """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <!DOCTYPE plist SYSTEM "file:///etc/passwd">
            <plist version="1.0">
            <dict>
                <key>Title</key><string>Été</string>
                <key>Date</key><date>2026-06-01T08:00:00Z</date>
                <key>Cover</key><string>cover.png</string>
            </dict>
            </plist>
            """
        try issue2.data(using: .isoLatin1)!.write(to: magazine.appendingPathComponent("issues/a-2/issue.plist"))
        // a-3's page config: a comment inside a string, a CDATA section, a character reference.
        let pages = magazine.appendingPathComponent("issues/a-3/pages.plist")
        var text = try String(contentsOf: pages, encoding: .utf8)
        let names = try #require(
            try NSRegularExpression(pattern: "<string>([^<]*\\.png)</string>").firstMatch(
                in: text, range: NSRange(text.startIndex..., in: text)))
        let first = String(text[Range(names.range(at: 1), in: text)!])
        text = text.replacingOccurrences(
            of: "<string>\(first)</string>", with: "<string>\(first.prefix(1))<!-- c --><![CDATA[\(first.dropFirst())]]></string>"
        )
        try Data(text.utf8).write(to: pages)

        let plists = try await bundlePlists(of: magazine)
        #expect(plists.count == 12)
        let views = try expectBothParse(plists)
        let a1 = try #require(plists.first { $0.bundle == "a-1.zip" && $0.file.lastPathComponent == "issue.plist" })
        let foundation = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: a1.file), format: nil) as? [String: Any])
        #expect(foundation["Title"] as? String == "Café <&> ☺")
        #expect(foundation["Cover"] as? String == "cover.png")
        #expect(views[a1.file.path]?.contains("\"Title\": \"Café <&> ☺\"") == true, "\(views[a1.file.path] ?? "")")
        let a2 = try #require(plists.first { $0.bundle == "a-2@2x.zip" && $0.file.lastPathComponent == "issue.plist" })
        #expect(views[a2.file.path]?.contains("\"Title\": \"Été\"") == true)
        let a3 = try #require(plists.first { $0.bundle == "a-3.zip" && $0.file.lastPathComponent == "pages.plist" })
        #expect(views[a3.file.path]?.contains("\"\(first)\"") == true)
        #expect(try String(contentsOf: a3.file, encoding: .utf8).contains("<string>\(first)</string>"))
    }

    /// A binary page config whose number property holds a signalling NaN (what FuzzPlist
    /// found): it validates and builds, and the bundle's `pages.plist` says `nan`, which both
    /// readers parse (the writer once wrote `snan(0x…)`, which neither does).
    @Test func aSignallingNaNInABinaryPageConfigReachesTheBundleAsNaN() async throws {
        let magazine = try Shell.temporaryFolder("bundle-plists").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>ZoomPage</key>
                <dict>
                    <key>inherits</key><string>SimplePage</string>
                    <key>properties</key>
                    <dict><key>scale</key><dict><key>type</key><string>number</string></dict></dict>
                </dict>
            </dict>
            </plist>
            """.utf8
        ).write(to: magazine.appendingPathComponent("page-classes.plist"))
        // Written by plistlib with 1234.5 as the scale, whose eight bytes then become a
        // signalling NaN's (plistlib would quiet one on the way).
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        let make = try Shell.python(
            """
            import plistlib, struct, sys
            path = sys.argv[1]
            pages = plistlib.load(open(path, 'rb'))
            pages[0][0]['class'] = 'ZoomPage'
            pages[0][0]['properties']['scale'] = 1234.5
            data = plistlib.dumps(pages, fmt=plistlib.FMT_BINARY)
            placeholder = struct.pack('>d', 1234.5)
            assert data.count(placeholder) == 1
            open(path, 'wb').write(data.replace(placeholder, bytes.fromhex('7ff4000000000000')))
            """, [pages.path])
        #expect(make.status == 0, "\(make.stderr)")
        let validate = await InProcess.newsstand(["validate", magazine.path])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let plists = try await bundlePlists(of: magazine)
        let views = try expectBothParse(plists)
        for bundle in ["a-1.zip", "a-1@2x.zip"] {
            let file = try #require(plists.first { $0.bundle == bundle && $0.file.lastPathComponent == "pages.plist" })
            let text = try String(contentsOf: file.file, encoding: .utf8)
            #expect(text.contains("<key>scale</key>\n\t\t\t\t<real>nan</real>"), "\(text)")
            #expect(!text.contains("snan"))
            #expect(views[file.file.path]?.contains("\"scale\": NaN") == true, "\(views[file.file.path] ?? "")")
        }
    }
}
