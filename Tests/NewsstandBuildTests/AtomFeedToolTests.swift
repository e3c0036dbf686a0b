import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// The Atom feed read by a parser we did not write (Python's xml.etree): its author, ids and
/// links. Its entry times and rules are in `AtomFeedTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct AtomFeedToolTests {
    let feed = AtomFeedTests()
    var t1: Date { feed.t1 }

    private func build(_ fixture: MagazineFixture, into output: URL, now: Date) async throws {
        _ = try await feed.build(fixture, into: output, now: now)
    }

    private func python(_ script: String, _ arguments: [String]) async throws -> Shell.Result {
        try await offPool { try Shell.python(script, arguments) }
    }

    @Test func theAuthorIsThePublisherElseTheTitle() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        let authorAndIDs = """
            import sys, xml.etree.ElementTree as ET
            A = '{http://www.w3.org/2005/Atom}'
            root = ET.parse(sys.argv[1]).getroot()
            print(root.find(A + 'author/' + A + 'name').text, root.find(A + 'id').text, root.find(A + 'entry/' + A + 'id').text)
            """
        _ = try await build(fixture, into: output, now: t1)
        let atom = output.appendingPathComponent("atom.xml").path
        #expect(
            try await python(authorAndIDs, [atom]).stdout
                == "Fixture tag:example.com,2026-11-30:/mag/ tag:example.com,2026-11-30:/mag/f-1\n")
        let settings = try String(contentsOf: fixture.url("magazine.plist"), encoding: .utf8)
        try fixture.write(
            "magazine.plist",
            settings.replacingOccurrences(
                of: "<key>Title</key>",
                with: "<key>Publisher</key>\n    <string>Fixture &amp; Sons</string>\n    <key>Title</key>"))
        _ = try await build(fixture, into: output, now: t1)
        #expect(try await python(authorAndIDs, [atom]).stdout.hasPrefix("Fixture & Sons tag:example.com,"))
    }

    @Test func entriesLinkTheirPreviewPageWhenThePreviewIsPublished() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        let links = """
            import sys, xml.etree.ElementTree as ET
            A = '{http://www.w3.org/2005/Atom}'
            for l in ET.parse(sys.argv[1]).getroot().find(A + 'entry').findall(A + 'link'):
                print(l.get('rel'), l.get('type'), l.get('href'), l.get('length'))
            """
        _ = try await build(fixture, into: output, now: t1)
        let atom = output.appendingPathComponent("atom.xml").path
        let size =
            try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("f-1/f-1.zip").path)[.size] as? Int
        #expect(
            try await python(links, [atom]).stdout
                == "alternate application/zip https://example.com/mag/f-1/f-1.zip \(size ?? -1)\n")
        let settings = try String(contentsOf: fixture.url("magazine.plist"), encoding: .utf8)
        try fixture.write(
            "magazine.plist",
            settings.replacingOccurrences(
                of: "<key>Title</key>",
                with: "<key>PreviewURL</key>\n    <string>https://example.com/preview</string>\n    <key>Title</key>"))
        _ = try await build(fixture, into: output, now: t1)
        #expect(
            try await python(links, [atom]).stdout == """
                alternate text/html https://example.com/preview/f-1/ None
                enclosure application/zip https://example.com/mag/f-1/f-1.zip \(size ?? -1)

                """)
        try fixture.write(
            "magazine.plist",
            settings.replacingOccurrences(
                of: "<key>Title</key>", with: "<key>PreviewURL</key>\n    <string>/preview/</string>\n    <key>Title</key>"))
        let found = fixture.validate().with(.magazinePreviewURL)
        #expect(found.map(\.location) == [SourceLocation(file: "magazine.plist", line: 6)])
        #expect(
            found.map(\.message) == [
                "PreviewURL, when given, must be an absolute http(s) URL such as 'https://example.com/magazine/preview/'; found '/preview/'"
            ])
    }
}
