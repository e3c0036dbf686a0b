import Foundation
import NewsstandTestSupport
import Testing

/// `build --feed opds`: `opds.json`, validated against the OPDS 2.0 JSON Schema's rules (with
/// Readium's schemas under it) and read back with Python's json, not our code.
@Suite(.tags(.needsTools)) struct OPDSChannelTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")
    /// 2026-09-21T14:13:20Z: when the entries' metadata is first seen (the build's clock).
    let epoch = ["SOURCE_DATE_EPOCH": "1790000000"]

    private func copyOfSample() throws -> URL {
        let magazine = try Shell.temporaryFolder("opds").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        return magazine
    }

    private func build(_ magazine: URL, _ output: URL, _ feeds: [String] = ["opds", "epub"]) async throws -> Shell.Result {
        let result = await InProcess.newsstand(
            ["build", magazine.path, "--output", output.path] + feeds.flatMap { ["--feed", $0] }, environment: epoch)
        guard result.status == 0 else { throw TestFailure("build failed: \(result.stdout)\(result.stderr)") }
        return result
    }

    private func python(_ script: String, _ arguments: [String]) async throws -> Shell.Result {
        try await offPool { try Shell.python(script, arguments) }
    }

    @Test func theSampleFeedIsValidOPDS2AndLinksWhatWasBuilt() async throws {
        let output = try Shell.temporaryFolder("opds").appendingPathComponent("out")
        _ = try await build(sample, output)
        let feed = output.appendingPathComponent("opds.json")
        let schema = try await ChannelChecks.opds([feed])
        #expect(schema.status == 0 && schema.stdout == "\(feed.path): valid\n", "\(schema.stdout)\(schema.stderr)")

        let read = try await python(
            """
            import sys, os, json, struct, plistlib
            out = sys.argv[1]
            feed = json.load(open(os.path.join(out, 'opds.json')))
            catalog = {e['Name']: e for e in plistlib.load(open(os.path.join(out, 'issues.plist'), 'rb'))}
            base = 'http://localhost:8080/aurora/'
            assert [(l['rel'], l['href'], l['type']) for l in feed['links']] == [
                ('self', base + 'opds.json', 'application/opds+json'), ('start', base + 'opds.json', 'application/opds+json')]
            assert feed['metadata'] == {'identifier': 'tag:localhost,2026-11-30:/aurora/', 'title': 'Aurora',
                                        'modified': '2026-09-21T14:13:20Z'}, feed['metadata']
            def local(href):
                assert href.startswith(base), href
                return os.path.join(out, href[len(base):])
            for publication in feed['publications']:
                m = publication['metadata']
                name = m['identifier'].rsplit('/', 1)[1]
                entry = catalog[name]
                assert m['identifier'] == 'tag:localhost,2026-11-30:/aurora/' + name
                assert m['title'] == entry['Title'] and m['description'] == entry['Summary']
                assert m['published'] == entry['Date'].strftime('%Y-%m-%dT%H:%M:%SZ'), m['published']
                assert m['modified'] == '2026-09-21T14:13:20Z' and m['publisher'] == 'Aurora Press'
                assert m['belongsTo'] == {'magazine': 'Aurora'} and m['layout'] == 'fixed' and 'altIdentifier' not in m
                epub, bundle = publication['links']
                assert [l['rel'] for l in (epub, bundle)] == ['http://opds-spec.org/acquisition/open-access'] * 2
                assert epub['type'] == 'application/epub+zip' and epub['href'].endswith('.epub')
                assert bundle['type'] == 'application/zip' and bundle['href'] == entry['Content']
                for link in (epub, bundle):
                    assert link['size'] == os.path.getsize(local(link['href'])), link
                retina, normal = publication['images']
                assert normal['href'] == entry['Cover'] and retina['href'] == entry['Cover'].replace('.png', '@2x.png')
                for image in (retina, normal):
                    head = open(local(image['href']), 'rb').read(24)
                    assert image['type'] == 'image/png' and head[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
                    assert (image['width'], image['height']) == struct.unpack('>II', head[16:24]), image
                print(name)
            """, [output.path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == "a-3\na-2\na-1\n", "newest first")

        // Built again with nothing changed, a day later: the feed is left as it is.
        let before = try FileManager.default.attributesOfItem(atPath: feed.path)[.modificationDate] as? Date
        let bytes = try Data(contentsOf: feed)
        let again = await InProcess.newsstand(
            ["build", sample.path, "--output", output.path, "--feed", "opds", "--feed", "epub"],
            environment: ["SOURCE_DATE_EPOCH": "1790086400"])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: feed) == bytes)
        #expect(try FileManager.default.attributesOfItem(atPath: feed.path)[.modificationDate] as? Date == before)

        // Without EPUBs, the bundle is each publication's only acquisition, and the feed still valid.
        let plain = try Shell.temporaryFolder("opds").appendingPathComponent("out")
        _ = try await build(sample, plain, ["opds"])
        let links = try await python(
            "import sys, json\nfor p in json.load(open(sys.argv[1]))['publications']: print([l['type'] for l in p['links']])",
            [plain.appendingPathComponent("opds.json").path])
        #expect(links.stdout == String(repeating: "['application/zip']\n", count: 3))
        #expect(try await ChannelChecks.opds([plain.appendingPathComponent("opds.json")]).status == 0)
    }

    /// The checks bite: feeds each broken in one way the schema forbids are refused, each with
    /// the member at fault.
    @Test func theSchemaCheckRefusesBrokenFeeds() async throws {
        let output = try Shell.temporaryFolder("opds").appendingPathComponent("out")
        _ = try await build(sample, output, ["opds"])
        let broken = try await python(
            """
            import sys, os, json, copy
            feed = json.load(open(sys.argv[1]))
            def case(name, change):
                f = copy.deepcopy(feed)
                change(f)
                path = os.path.join(sys.argv[2], name + '.json')
                json.dump(f, open(path, 'w'))
                print(path)
            case('no-self-link', lambda f: f.update(links=[l for l in f['links'] if l['rel'] != 'self']))
            case('no-acquisition', lambda f: [l.update(rel='alternate') for l in f['publications'][0]['links']])
            case('bad-modified', lambda f: f['publications'][1]['metadata'].update(modified='2026-02-30T08:00:00Z'))
            case('no-href', lambda f: f['publications'][2]['images'][0].pop('href'))
            case('identifier-not-a-uri', lambda f: f['publications'][0]['metadata'].update(identifier='a 3'))
            case('no-title', lambda f: f['metadata'].pop('title'))
            case('no-publications', lambda f: f.update(publications=[]))
            case('bad-language', lambda f: f['publications'][0]['metadata'].update(language='not a tag'))
            """, [output.appendingPathComponent("opds.json").path, try Shell.temporaryFolder("opds").path])
        #expect(broken.status == 0, "\(broken.stderr)")
        let feeds = broken.stdout.split(separator: "\n").map { URL(fileURLWithPath: String($0)) }
        #expect(feeds.count == 8)
        let check = try await ChannelChecks.opds(feeds)
        #expect(check.status == 1)
        for (feed, member) in zip(
            feeds,
            [
                ": links:", ": publications/0/links:", ": publications/1/metadata/modified:", ": publications/2/images/0:",
                ": publications/0/metadata/identifier:", ": metadata:", ": publications:", ": publications/0/metadata/language:",
            ])
        {
            #expect(check.stdout.contains(feed.path + member), "\(feed.lastPathComponent): \(check.stdout)")
            #expect(!check.stdout.contains(feed.path + ": valid"))
        }
    }

    @Test func aPaidIssueIsBoughtWithItsProductAndAFreeOneIsOpenAccess() async throws {
        let magazine = try copyOfSample()
        let issue = magazine.appendingPathComponent("issues/a-2/issue.plist")
        try String(contentsOf: issue, encoding: .utf8)
            .replacingOccurrences(
                of: "</dict>\n</plist>",
                with:
                    "    <key>Access</key>\n    <string>paid</string>\n    <key>ProductID</key>\n    <string>com.aurora.a2</string>\n</dict>\n</plist>"
            )
            .write(to: issue, atomically: true, encoding: .utf8)
        let output = try Shell.temporaryFolder("opds").appendingPathComponent("out")
        _ = try await build(magazine, output)
        let feed = output.appendingPathComponent("opds.json")
        #expect(try await ChannelChecks.opds([feed]).status == 0)
        let read = try await python(
            """
            import sys, json
            for p in json.load(open(sys.argv[1]))['publications']:
                m = p['metadata']
                print(m['identifier'].rsplit('/', 1)[1], sorted(set(l['rel'].rsplit('/', 1)[1] for l in p['links'])), m.get('altIdentifier'))
            """, [feed.path])
        #expect(
            read.stdout == """
                a-3 ['open-access'] None
                a-2 ['buy'] [{'scheme': 'https://developer.apple.com/documentation/storekit/product/id', 'value': 'com.aurora.a2'}]
                a-1 ['open-access'] None

                """, "\(read.stdout)\(read.stderr)")
    }

    /// The same hostile title and publisher as the EPUB test: JSONEncoder escapes them
    /// (`</script>` as `<\/script>`, control characters as `\u` escapes), Python reads them
    /// back exactly, and the feed stays valid.
    @Test func hostileTextIsEscapedInTheJSON() async throws {
        let magazine = try copyOfSample()
        let issue = magazine.appendingPathComponent("issues/a-1/issue.plist")
        try String(contentsOf: issue, encoding: .utf8)
            .replacingOccurrences(
                of: "<string>Aurora — Spring 2026</string>",
                with:
                    "<string>&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &apos;q&apos;&#9;&#x85;&#x1F600;</string>"
            )
            .write(to: issue, atomically: true, encoding: .utf8)
        let settings = magazine.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8)
            .replacingOccurrences(
                of: "<string>Aurora Press</string>", with: "<string>Press \\ &quot;&lt;/script&gt;&quot;</string>"
            )
            .write(to: settings, atomically: true, encoding: .utf8)
        let output = try Shell.temporaryFolder("opds").appendingPathComponent("out")
        _ = try await build(magazine, output, ["opds"])
        let feed = output.appendingPathComponent("opds.json")
        let raw = try String(contentsOf: feed, encoding: .utf8)
        #expect(!raw.contains("</script>") && raw.contains(#"<\/script>"#))
        #expect(!raw.contains("\t") && raw.contains(#"\t"#), "a tab inside a JSON string is escaped")
        #expect(try await ChannelChecks.opds([feed]).status == 0)
        let read = try await python(
            """
            import sys, json
            feed = json.load(open(sys.argv[1]))
            titles = {p['metadata']['identifier'].rsplit('/', 1)[1]: p['metadata'] for p in feed['publications']}
            assert titles['a-1']['title'] == '</script><img src=x onerror="alert(1)"> & \\'q\\'\\t\\u0085\\U0001F600', repr(titles['a-1']['title'])
            assert titles['a-1']['publisher'] == 'Press \\\\ "</script>"', repr(titles['a-1']['publisher'])
            print('ok')
            """, [feed.path])
        #expect(read.status == 0 && read.stdout == "ok\n", "\(read.stderr)")
    }

    /// A catalog of no issues is still a valid feed: OPDS needs a collection, so it has a
    /// navigation link back to itself. And `catalog --feed epub` is a usage error: only a build
    /// writes EPUBs.
    @Test func aFeedWithoutIssuesIsValidAndCatalogWritesNoEPUBs() async throws {
        let output = try Shell.temporaryFolder("opds").appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let result = await InProcess.newsstand(
            ["catalog", output.path, "--magazine", sample.path, "--feed", "opds"], environment: epoch)
        #expect(result.status == 0, "\(result.stderr)")
        let feed = output.appendingPathComponent("opds.json")
        #expect(try await ChannelChecks.opds([feed]).status == 0)
        let navigation = try await python("import sys, json; print(json.load(open(sys.argv[1]))['navigation'])", [feed.path])
        #expect(
            navigation.stdout
                == "[{'href': 'http://localhost:8080/aurora/opds.json', 'rel': 'start', 'title': 'Aurora', 'type': 'application/opds+json'}]\n"
        )
        let epub = await InProcess.newsstand(["catalog", output.path, "--magazine", sample.path, "--feed", "epub"])
        #expect(epub.status == 2)
        // The usage offers only what it accepts.
        #expect(epub.stderr.contains("unknown feed 'epub'; expected shelf, atom or opds"), "\(epub.stderr)")
        #expect(epub.stderr.contains("[--feed shelf|atom|opds]"), "\(epub.stderr)")
    }
}
