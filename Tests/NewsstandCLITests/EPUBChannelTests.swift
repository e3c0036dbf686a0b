import Foundation
import NewsstandCLI
import NewsstandTestSupport
import Testing

/// `build --feed epub`: a fixed-layout EPUB 3 per issue, checked by EPUBCheck (no error, no
/// warning) and read back with Python's zipfile and xml.etree, not our code.
@Suite(.tags(.needsTools)) struct EPUBChannelTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")
    let epoch = ["SOURCE_DATE_EPOCH": "1790000000"]

    func copyOfSample() throws -> URL {
        let magazine = try Shell.temporaryFolder("epub").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        return magazine
    }

    func build(_ magazine: URL, _ output: URL, _ extra: [String] = [], environment: [String: String]? = nil) async throws
        -> Shell.Result
    {
        let result = await InProcess.newsstand(
            ["build", magazine.path, "--output", output.path, "--feed", "epub"] + extra, environment: environment ?? epoch)
        guard result.status == 0 else { throw TestFailure("build failed: \(result.stdout)\(result.stderr)") }
        return result
    }

    func epubs(in output: URL) throws -> [String: URL] {
        var found: [String: URL] = [:]
        for name in ["a-1", "a-2", "a-3"] {
            found[name] = try ChannelChecks.file(endingIn: ".epub", in: output.appendingPathComponent(name))
        }
        return found
    }

    /// The sample's a-2 is in Russian (its `Language` is `ru`): its EPUB says so in
    /// `dc:language` and every document's `xml:lang`; the others, which give none, are in `en`.
    /// EPUBCheck still finds nothing.
    @Test func eachEPUBIsInItsIssuesLanguage() async throws {
        let magazine = try copyOfSample()
        let output = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        _ = try await build(magazine, output)
        let books = try epubs(in: output)
        let check = try await ChannelChecks.epubcheck(books.values.sorted { $0.path < $1.path })
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.components(separatedBy: ": 0 fatal, 0 errors, 0 warnings, 0 infos\n").count == 4, "\(check.stdout)")
        let read = try await offPool {
            try Shell.python(
                """
                import sys, zipfile, xml.etree.ElementTree as ET
                XML = '{http://www.w3.org/XML/1998/namespace}lang'
                for book in sys.argv[1:]:
                    z = zipfile.ZipFile(book)
                    package = ET.fromstring(z.read('EPUB/package.opf'))
                    language = package.find('{http://www.idpf.org/2007/opf}metadata').find('{http://purl.org/dc/elements/1.1/}language').text
                    tags = {package.get(XML)}
                    for name in z.namelist():
                        if name.endswith('.xhtml'):
                            page = ET.fromstring(z.read(name))
                            tags |= {page.get(XML), page.get('lang')}
                    print(language, ' '.join(sorted(tags)))
                """, ["a-1", "a-2", "a-3"].map { books[$0]?.path ?? "" })
        }
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == "en en\nru ru\nen en\n")
    }

    @Test func theSampleIssuesAreFixedLayoutEPUBsThatEPUBCheckPasses() async throws {
        let output = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        let result = try await build(sample, output)
        // The sample's PhotoPages keep only their base image, and the summary says so.
        #expect(
            result.stdout.contains("wrote 3 EPUB(s), 8 page(s) shown as their base image only (PhotoPage 8)"), "\(result.stdout)")
        let books = try epubs(in: output)
        for (name, book) in books {
            #expect(book.lastPathComponent.range(of: #"^\#(name)\.[0-9a-f]{8}\.epub$"#, options: .regularExpression) != nil)
        }
        let check = try await ChannelChecks.epubcheck(books.values.sorted { $0.path < $1.path })
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.components(separatedBy: ": 0 fatal, 0 errors, 0 warnings, 0 infos\n").count == 4, "\(check.stdout)")
        #expect(!check.stderr.contains("ERROR") && !check.stderr.contains("WARNING"), "\(check.stderr)")

        // The package as the issue says it, read with tools we did not write.
        let read = try await offPool {
            try Shell.python(
                """
                import sys, os, re, struct, zipfile, xml.etree.ElementTree as ET
                book, assets = sys.argv[1], sys.argv[2]
                raw = open(book, 'rb').read()
                # OCF: the mimetype first, stored, no extra field, its content at byte 38.
                assert raw[:4] == b'PK\\x03\\x04' and raw[8:10] == b'\\x00\\x00', raw[:30]
                assert raw[26:30] == b'\\x08\\x00\\x00\\x00' and raw[30:58] == b'mimetypeapplication/epub+zip', raw[:60]
                z = zipfile.ZipFile(book)
                assert z.testzip() is None
                assert z.infolist()[0].filename == 'mimetype' and z.infolist()[0].compress_type == zipfile.ZIP_STORED
                OPF = '{http://www.idpf.org/2007/opf}'
                DC = '{http://purl.org/dc/elements/1.1/}'
                X = '{http://www.w3.org/1999/xhtml}'
                E = '{http://www.idpf.org/2007/ops}'
                package = ET.fromstring(z.read('EPUB/package.opf'))
                meta = package.find(OPF + 'metadata')
                props = {m.get('property'): m.text for m in meta.findall(OPF + 'meta')}
                print(meta.find(DC + 'identifier').text, meta.find(DC + 'title').text, meta.find(DC + 'date').text,
                      meta.find(DC + 'publisher').text, meta.find(DC + 'language').text)
                print(props['dcterms:modified'], props['rendition:layout'], props['rendition:spread'])
                items = {i.get('id'): i for i in package.find(OPF + 'manifest')}
                cover = [i for i in items.values() if i.get('properties') == 'cover-image']
                assert len(cover) == 1 and z.read('EPUB/' + cover[0].get('href')) == open(os.path.join(assets, 'cover@2x.png'), 'rb').read()
                spine = [items[r.get('idref')].get('href') for r in package.find(OPF + 'spine')]
                print(' '.join(spine))
                # Each page: its viewport and image at the @2x master's pixels, the master's bytes.
                pages = []
                for href in spine:
                    page = ET.fromstring(z.read('EPUB/' + href))
                    viewport = [m.get('content') for m in page.iter(X + 'meta') if m.get('name') == 'viewport'][0]
                    img = page.find(X + 'body').find(X + 'img')
                    data = z.read('EPUB/' + img.get('src'))
                    w, h = struct.unpack('>II', data[16:24])
                    assert viewport == 'width=%d, height=%d' % (w, h), (href, viewport)
                    assert (img.get('width'), img.get('height')) == (str(w), str(h)), href
                    pages.append(data)
                masters = sorted(n for n in os.listdir(assets) if re.match(r'^\\d+-\\d+@2x\\.png$', n))
                assert pages == [open(os.path.join(assets, n), 'rb').read() for n in masters], 'pages are the @2x masters in order'
                nav = ET.fromstring(z.read('EPUB/nav.xhtml'))
                tocs = [n for n in nav.iter(X + 'nav') if n.get(E + 'type') == 'toc']
                print(' '.join(a.get('href') for a in tocs[0].iter(X + 'a')))
                """, [books["a-3"]?.path ?? "", sample.appendingPathComponent("issues/a-3/assets").path])
        }
        #expect(read.status == 0, "\(read.stderr)")
        #expect(
            read.stdout == """
                tag:localhost,2026-11-30:/aurora/a-3 Aurora — Autumn 2026 2026-09-01T08:00:00Z Aurora Press en
                2026-09-01T08:00:00Z pre-paginated none
                1-1.xhtml 1-2.xhtml 2-1.xhtml 2-2.xhtml 2-3.xhtml 3-1.xhtml 3-2.xhtml 4-1.xhtml
                1-1.xhtml 2-1.xhtml 3-1.xhtml 4-1.xhtml

                """)
    }

    @Test func editingOneIssueRebuildsOneEPUBAndMagazineSettingsRebuildThemAll() async throws {
        let magazine = try copyOfSample()
        let output = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        _ = try await build(magazine, output)
        let first = try epubs(in: output)
        let identity = { (url: URL) throws -> [FileAttributeKey: Any] in
            try FileManager.default.attributesOfItem(atPath: url.path)
        }
        let inodes = try first.mapValues { try identity($0)[.systemFileNumber] as? Int }

        // Nothing changed: nothing built, every EPUB the same file.
        var result = try await build(magazine, output)
        #expect(result.stdout.contains("built 0 issue(s)") && result.stdout.contains("3 up to date"), "\(result.stdout)")
        #expect(try epubs(in: output).mapValues { try identity($0)[.systemFileNumber] as? Int } == inodes)

        // One page of a-2 edited: a-2 alone is built, its EPUB replaced (the old one removed).
        let page = magazine.appendingPathComponent("issues/a-2/pages.plist")
        let pages = try String(contentsOf: page, encoding: .utf8)
        try pages.replacingOccurrences(of: "<string>3-1.png</string>", with: "<string>3-0.png</string>")
            .write(to: page, atomically: true, encoding: .utf8)
        result = try await build(magazine, output)
        #expect(result.stdout.contains("built 1 issue(s)") && result.stdout.contains("2 up to date"), "\(result.stdout)")
        #expect(result.stdout.contains("wrote 1 EPUB(s)"))
        let second = try epubs(in: output)
        #expect(second["a-2"] != first["a-2"])
        #expect(!FileManager.default.fileExists(atPath: try #require(first["a-2"]).path), "the replaced EPUB is removed")
        for name in ["a-1", "a-3"] {
            let inode = try identity(try #require(second[name]))[.systemFileNumber] as? Int
            #expect(second[name] == first[name] && inode == inodes[name], "\(name) was written again")
        }

        // The magazine's Publisher is in every EPUB: changing it makes them all again.
        let settings = magazine.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8).replacingOccurrences(of: "Aurora Press", with: "Aurora Books")
            .write(to: settings, atomically: true, encoding: .utf8)
        result = try await build(magazine, output)
        #expect(result.stdout.contains("built 3 issue(s)") && result.stdout.contains("wrote 3 EPUB(s)"), "\(result.stdout)")
        let opf = try await offPool { [third = try epubs(in: output)] in
            try Shell.python(
                "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('EPUB/package.opf').decode())",
                [third["a-1"]?.path ?? ""])
        }
        #expect(opf.stdout.contains("<dc:publisher>Aurora Books</dc:publisher>"))

        // Without --feed epub the EPUBs go, as every output a build recorded and no longer makes.
        let plain = await InProcess.newsstand(["build", magazine.path, "--output", output.path], environment: epoch)
        #expect(plain.status == 0)
        for name in ["a-1", "a-2", "a-3"] {
            let left = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent(name).path)
            #expect(!left.contains { $0.hasSuffix(".epub") }, "\(left)")
        }
    }

    /// A title, summary and publisher with markup, `</script>`, quotes, an ampersand and
    /// control characters: escaped in every XHTML and XML file, read back exactly, and the
    /// EPUB still passes EPUBCheck.
    @Test func hostileTextIsEscapedAndTheEPUBStillPasses() async throws {
        let magazine = try copyOfSample()
        let hostile = #"</script><script>alert("x")</script> & 'quoted' <b>bold</b>"#
        let issue = magazine.appendingPathComponent("issues/a-1/issue.plist")
        var text = try String(contentsOf: issue, encoding: .utf8)
        // In the plist: entities for the markup and the tab, C1 controls (U+0085, U+009F) as references.
        let inPlist =
            "Title &lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;quoted&apos; &lt;b&gt;bold&lt;/b&gt;&#9;&#x85;&#x9F;"
        text = text.replacingOccurrences(of: "<string>Aurora — Spring 2026</string>", with: "<string>\(inPlist)</string>")
        try text.write(to: issue, atomically: true, encoding: .utf8)
        let settings = magazine.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8)
            .replacingOccurrences(
                of: "<string>Aurora Press</string>", with: "<string>Press &lt;/script&gt; &amp; &quot;Co&quot;</string>"
            )
            .write(to: settings, atomically: true, encoding: .utf8)
        let output = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        _ = try await build(magazine, output)
        let book = try #require(try epubs(in: output)["a-1"])
        let check = try await ChannelChecks.epubcheck([book])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let read = try await offPool {
            try Shell.python(
                """
                import sys, zipfile, xml.etree.ElementTree as ET
                z = zipfile.ZipFile(sys.argv[1])
                title = 'Title ' + sys.argv[2] + '\\t\\u0085\\u009f'
                X = '{http://www.w3.org/1999/xhtml}'
                DC = '{http://purl.org/dc/elements/1.1/}'
                for name in z.namelist():
                    if not name.endswith(('.xhtml', '.opf')):
                        continue
                    raw = z.read(name).decode('utf-8')
                    assert '</script>' not in raw and '<script' not in raw and '<b>' not in raw, name
                    root = ET.fromstring(raw)
                    if name.endswith('.opf'):
                        meta = root.find('{http://www.idpf.org/2007/opf}metadata')
                        assert meta.find(DC + 'title').text == title, repr(meta.find(DC + 'title').text)
                        assert meta.find(DC + 'publisher').text == 'Press </script> & "Co"'
                    else:
                        assert root.find(X + 'head').find(X + 'title').text.startswith(title), (name, root.find(X + 'head').find(X + 'title').text)
                        img = root.find(X + 'body').find(X + 'img')
                        if img is not None:
                            assert img.get('alt').startswith(title.replace('\\t', ' ')), repr(img.get('alt'))
                print('ok')
                """, [book.path, hostile])
        }
        #expect(read.status == 0 && read.stdout == "ok\n", "\(read.stderr)")
    }

    /// Values the validator once accepted and EPUBCheck refuses (issue 35): a Title of only
    /// whitespace (an empty `dc:title`, `<title>` and `<h1>`) is refused as a blank Publisher is,
    /// for an issue (NS-502) and for the magazine (NS-102), and nothing is built.
    @Test(arguments: ["issue", "magazine"])
    func aBlankTitleIsRefused(_ whose: String) async throws {
        let magazine = try copyOfSample()
        let file =
            whose == "issue"
            ? magazine.appendingPathComponent("issues/a-1/issue.plist") : magazine.appendingPathComponent("magazine.plist")
        let original = whose == "issue" ? "<string>Aurora — Spring 2026</string>" : "<string>Aurora</string>"
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(original))
        try text.replacingOccurrences(of: original, with: "<string> &#9;\n  </string>").write(
            to: file, atomically: true, encoding: .utf8)
        let output = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        let result = await InProcess.newsstand(
            ["build", magazine.path, "--output", output.path, "--feed", "epub"], environment: epoch)
        #expect(result.status != 0, "\(result.stdout)")
        let code = whose == "issue" ? "NS-502" : "NS-102"
        #expect((result.stdout + result.stderr).contains(code), "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("Title must be a non-empty string; it is blank"))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("a-1").path), "nothing is built")
    }

    /// An empty or blank Summary is left out of the package (an empty `dc:description` is an
    /// EPUBCheck error), and the EPUB passes.
    @Test(arguments: ["", "   "])
    func anEmptySummaryIsLeftOut(_ summary: String) async throws {
        let magazine = try copyOfSample()
        let issue = magazine.appendingPathComponent("issues/a-1/issue.plist")
        let text = try String(contentsOf: issue, encoding: .utf8)
        let original = try #require(text.range(of: #"<string>Northern lights[^<]*</string>"#, options: .regularExpression))
        try text.replacingCharacters(in: original, with: "<string>\(summary)</string>").write(
            to: issue, atomically: true, encoding: .utf8)
        let output = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        _ = try await build(magazine, output)
        let book = try #require(try epubs(in: output)["a-1"])
        let check = try await ChannelChecks.epubcheck([book])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(!check.stderr.contains("ERROR") && !check.stderr.contains("WARNING"), "\(check.stderr)")
        let read = try await offPool {
            try Shell.python(
                """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                opf = [n for n in z.namelist() if n.endswith('.opf')][0]
                print('description' in z.read(opf).decode('utf-8'))
                """, [book.path])
        }
        #expect(read.stdout == "False\n", "\(read.stdout)\(read.stderr)")
    }
}
