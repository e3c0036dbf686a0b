import Foundation
import NewsstandTestSupport
import Testing

/// The sample's feeds and Baker books, checked with tools we did not write: Python's
/// xml.etree, json, zipfile and html.parser, unzip, bsdtar and Java's ZipInputStream.
@Suite(.tags(.needsTools)) struct FeedOutputTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
    /// 2026-09-21T14:13:20Z: the time entries are given (the build's SOURCE_DATE_EPOCH).
    let epoch = ["SOURCE_DATE_EPOCH": "1790000000"]

    private func build(_ arguments: [String], output: URL? = nil) async throws -> (Shell.Result, URL) {
        let output = try output ?? Shell.temporaryFolder().appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", sample, "--output", output.path] + arguments, environment: epoch)
        return (result, output)
    }

    private func python(_ script: String, _ arguments: [String]) async throws -> Shell.Result {
        try await offPool { try Shell.python(script, arguments) }
    }

    private func run(_ tool: String, _ arguments: [String]) async throws -> Shell.Result {
        try await offPool { try Shell.run(tool, arguments) }
    }

    @Test func theSampleAtomFeedPassesRFC4287AndNewsstandRules() async throws {
        let (result, output) = try await build(["--feed", "atom"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("NS-60"), "the sample passes the Newsstand rules: \(result.stdout)")
        let check = try await python(
            """
            import sys, os, re, struct, xml.etree.ElementTree as ET
            from datetime import datetime
            out = sys.argv[1]
            A = '{http://www.w3.org/2005/Atom}'
            N = '{http://itunes.apple.com/2011/Newsstand}'
            feed = ET.parse(os.path.join(out, 'atom.xml')).getroot()
            assert feed.tag == A + 'feed', feed.tag
            # RFC 4151 tag URIs (absolute IRIs): tag:authority,date:specific
            TAG = re.compile(r'^tag:[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*,\\d{4}(-\\d{2}(-\\d{2})?)?:[A-Za-z0-9/?:@!$&\\'()*+,;=._~%-]*$')
            RFC3339 = re.compile(r'^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$')
            def one(parent, name):
                found = parent.findall(A + name)
                assert len(found) == 1, (name, len(found))
                return found[0]
            def date(element):
                assert RFC3339.match(element.text), element.text
                return datetime.fromisoformat(element.text.replace('Z', '+00:00'))
            # 4.1.1: the feed's id, title, updated; an author (no entry has its own); a self link.
            feed_id = one(feed, 'id').text
            assert TAG.match(feed_id), feed_id
            assert one(feed, 'title').text
            feed_updated = date(one(feed, 'updated'))
            author = one(feed, 'author')
            assert one(author, 'name').text == 'Aurora Press', one(author, 'name').text
            selfs = [l for l in feed.findall(A + 'link') if l.get('rel') == 'self']
            assert len(selfs) == 1 and selfs[0].get('href') == 'http://localhost:8080/aurora/atom.xml'
            ids = {feed_id}
            latest = None
            for entry in feed.findall(A + 'entry'):
                # 4.1.2: id, title, updated once each; an alternate link or content.
                entry_id = one(entry, 'id').text
                assert TAG.match(entry_id), entry_id
                assert entry_id not in ids, entry_id
                ids.add(entry_id)
                assert one(entry, 'title').text
                updated = date(one(entry, 'updated'))
                published = date(one(entry, 'published'))
                latest = max(latest or updated, updated)
                alternates = [l for l in entry.findall(A + 'link') if l.get('rel', 'alternate') == 'alternate']
                assert len(alternates) == 1 or entry.find(A + 'content') is not None, entry_id
                href = alternates[0].get('href')
                name = entry_id.rsplit('/', 1)[1]
                assert href.startswith('http://localhost:8080/aurora/%s/%s.' % (name, name)) and href.endswith('.zip'), href
                local = os.path.join(out, name, href.rsplit('/', 1)[1])
                assert int(alternates[0].get('length')) == os.path.getsize(local)
                # Newsstand: updated is when the metadata changed (the build's time), not the issue's date.
                assert updated.isoformat() == '2026-09-21T14:13:20+00:00' and updated != published, (updated, published)
                summary = one(entry, 'summary').text
                assert 10 <= len(summary.encode('utf-8')) <= 2000, len(summary.encode('utf-8'))
                icons = entry.findall(N + 'cover_art_icons/' + N + 'cover_art_icon')
                source = [i for i in icons if i.get('size') == 'SOURCE']
                assert len(source) == 1
                cover = os.path.join(out, name, source[0].get('src').rsplit('/', 1)[1])
                head = open(cover, 'rb').read(24)
                assert head[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
                w, h = struct.unpack('>II', head[16:24])
                assert max(w, h) >= 1024 and min(w, h) * 2 >= max(w, h), (w, h)
                print(entry_id)
            assert feed_updated == latest
            """, [output.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout == """
                tag:localhost,2026-11-30:/aurora/a-3
                tag:localhost,2026-11-30:/aurora/a-2
                tag:localhost,2026-11-30:/aurora/a-1

                """)

        // A rebuild with nothing changed, later and forced, gives the same feed to the byte.
        let first = try Data(contentsOf: output.appendingPathComponent("atom.xml"))
        let later = await InProcess.newsstand(
            ["build", sample, "--output", output.path, "--feed", "atom", "--force"],
            environment: ["SOURCE_DATE_EPOCH": "1800000000"])
        #expect(later.status == 0)
        #expect(try Data(contentsOf: output.appendingPathComponent("atom.xml")) == first)
    }

    @Test func everyIssueGetsABakerBookThatBakersParserAccepts() async throws {
        let (result, output) = try await build(["--feed", "shelf"])
        #expect(result.status == 0, "\(result.stderr)")
        var books: [URL] = []
        for name in ["a-1", "a-2", "a-3"] {
            let folder = output.appendingPathComponent(name)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".hpub") }
            #expect(files.count == 1 && files[0].hasPrefix("\(name).") && files[0].count == "\(name).12345678.hpub".count)
            let book = folder.appendingPathComponent(files[0])
            books.append(book)
            let unzip = try await run("unzip", ["-t", book.path])
            #expect(unzip.status == 0 && unzip.stdout.contains("No errors detected"), "\(unzip.stdout)")
            let bsdtar = try await run("bsdtar", ["-tf", book.path])
            #expect(bsdtar.status == 0 && bsdtar.stdout.hasPrefix("book.json\nbook.css\n1-1.html\n"))
        }
        // Streamable like the bundles.
        let java = try await offPool { [books] in try JavaZipStream.read(books) }
        #expect(java.result.status == 0, "\(java.result.stderr)")
        // book.json as Baker's BakerBook.m validates it (loadBookData, validateBookJSON,
        // validateArray/String/Number), every page's links, and shelf.json's url.
        let check = try await python(
            """
            import sys, os, json, zipfile
            from html.parser import HTMLParser
            out = sys.argv[1]
            SHOULD_BE_ARRAY = {'author', 'creator', 'contents'}
            SHOULD_BE_STRING = {'title', 'date', 'author', 'creator', 'publisher', 'url', 'cover', 'orientation',
                '-baker-background', '-baker-background-image-portrait', '-baker-background-image-landscape',
                '-baker-page-numbers-color', '-baker-page-screenshots', '-baker-rendering'}
            SHOULD_BE_NUMBER = {'hpub', 'zoomable', '-baker-page-numbers-alpha', '-baker-vertical-bounce',
                '-baker-vertical-pagination', '-baker-page-turn-tap', '-baker-page-turn-swipe', '-baker-media-autoplay',
                '-baker-index-width', '-baker-index-height', '-baker-index-bounce', '-baker-start-at-page'}
            class Links(HTMLParser):
                def __init__(self):
                    super().__init__()
                    self.urls = []
                def handle_starttag(self, tag, attrs):
                    for k, v in attrs:
                        if k in ('src', 'href'):
                            self.urls.append(v)
                        elif k in ('srcset', 'data-srcset'):
                            self.urls += [part.strip().split(' ')[0] for part in v.split(',')]
            shelf = json.load(open(os.path.join(out, 'shelf.json')))
            for item in shelf:
                name = item['name']
                assert item['url'].startswith('http://localhost:8080/aurora/%s/%s.' % (name, name)), item['url']
                assert item['url'].endswith('.hpub'), item['url']
                z = zipfile.ZipFile(os.path.join(out, name, item['url'].rsplit('/', 1)[1]))
                assert z.testzip() is None
                names = set(z.namelist())
                book = json.loads(z.read('book.json'))
                for key in ('title', 'author', 'url', 'contents'):
                    assert key in book, key
                for key, value in book.items():
                    if isinstance(value, list):
                        assert key in SHOULD_BE_ARRAY and value, key
                        assert all(isinstance(v, str) and v for v in value), key
                    elif isinstance(value, str):
                        assert key in SHOULD_BE_STRING, key
                        if key in ('title', 'author', 'url'):
                            assert value, key
                    elif isinstance(value, (bool, int, float)):
                        assert key in SHOULD_BE_NUMBER, key
                    else:
                        raise AssertionError('unexpected %s: %r' % (key, value))
                assert book['title'] == item['title'] and book['date'] == item['date'][:10], book
                assert book['author'] == ['Aurora Press'] and book['publisher'] == 'Aurora Press'
                assert book['orientation'] in ('both', 'portrait', 'landscape')
                assert book['cover'] in names, book['cover']
                pages = 0
                for page in book['contents']:
                    assert page in names, page
                    links = Links()
                    links.feed(z.read(page).decode('utf-8'))
                    assert links.urls, page
                    for url in links.urls:
                        assert url in names, (page, url)
                    assert any(u.endswith('@2x.png') for u in links.urls), page
                    pages += 1
                print(name, pages, book['url'])
            """, [output.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout == """
                a-3 8 book://localhost/aurora/a-3
                a-2 10 book://localhost/aurora/a-2
                a-1 10 book://localhost/aurora/a-1

                """)

        // Reproducible: a second build elsewhere gives the same books to the byte.
        let (again, other) = try await build(["--feed", "shelf", "--jobs", "1"])
        #expect(again.status == 0)
        for book in books {
            let twin = other.appendingPathComponent(book.deletingLastPathComponent().lastPathComponent).appendingPathComponent(
                book.lastPathComponent)
            #expect(try Data(contentsOf: twin) == Data(contentsOf: book))
        }
        // Without --feed shelf the books go, as files a build recorded as its own.
        let plain = await InProcess.newsstand(["build", sample, "--output", output.path])
        #expect(plain.status == 0)
        for book in books { #expect(!FileManager.default.fileExists(atPath: book.path)) }
    }
}
