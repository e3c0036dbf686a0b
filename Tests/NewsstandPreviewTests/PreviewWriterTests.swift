import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat
import NewsstandPreview
import NewsstandTestSupport
import Testing

/// `PreviewWriter`, in process, on the sample and on a magazine with a page class of its own.
@Suite struct PreviewWriterTests {
    let fileManager = FileManager.default

    @Test func sampleIndexListsIssuesNewestFirstWithCovers() throws {
        let (report, output) = try PreviewFixtures.preview(PreviewFixtures.sample)
        #expect(report.issues == ["a-3", "a-2", "a-1"])
        #expect(report.index == output.appendingPathComponent("index.html"))
        let index = try PreviewFixtures.read(report.index)
        let positions = report.issues.map { index.range(of: "data-issue=\"\($0)\"")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "issues are not newest first")
        for name in report.issues {
            #expect(index.contains("href=\"\(name)/index.html\""))
            #expect(index.contains("src=\"\(name)/cover.png\" srcset=\"\(name)/cover.png 1x, \(name)/cover@2x.png 2x\""))
            for file in ["cover.png", "cover@2x.png", "index.html"] {
                #expect(fileManager.fileExists(atPath: output.appendingPathComponent("\(name)/\(file)").path), "\(name)/\(file)")
            }
        }
        #expect(index.contains("<title>Aurora</title>"))
        #expect(index.contains("Аврора — лето 2026"))
        #expect(index.contains("<time class=\"shelf__date\" datetime=\"2026-09-01T08:00:00Z\">1 September 2026</time>"))
        for file in ["preview.css", "preview.js"] {
            #expect(fileManager.fileExists(atPath: output.appendingPathComponent(file).path))
        }
        #expect(!fileManager.fileExists(atPath: output.appendingPathComponent("README.md").path))
        // Written through a temporary name: none is left behind; the one hidden entry is the
        // record that makes the folder a web edition `publish` takes (`WebEditionRecord`).
        let leftovers = try fileManager.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix(".") }
        #expect(leftovers == [".newsstand"])
        #expect(
            try fileManager.contentsOfDirectory(atPath: output.appendingPathComponent(".newsstand").path) == ["web-edition.json"])
        let record = try Data(contentsOf: output.appendingPathComponent(WebEditionRecord.path))
        #expect(WebEditionRecord.decode(record) == WebEditionRecord(previewURL: nil))
        #expect(String(decoding: record, as: UTF8.self) == "{\n  \"previewURL\" : null\n}\n")
    }

    @Test func samplePagesAreRenderedByClassWithBothSizes() throws {
        let (report, output) = try PreviewFixtures.preview(PreviewFixtures.sample)
        var total = 0
        for name in report.issues {
            let html = try PreviewFixtures.read(output.appendingPathComponent("\(name)/index.html"))
            let root = try PlistReader.read(
                contentsOf: PreviewFixtures.sample.appendingPathComponent("issues/\(name)/pages.plist"),
                displayPath: "pages.plist")
            for (a, article) in (root.array ?? []).enumerated() {
                #expect(html.contains("<section class=\"article\" id=\"article-\(a + 1)\" data-article=\"\(a + 1)\""))
                for (p, page) in (article.array ?? []).enumerated() {
                    total += 1
                    let className = page["class"]?.string ?? ""
                    let kind = className == "PhotoPage" ? "photo" : "simple"
                    #expect(
                        html.contains(
                            "<div class=\"page page--\(kind)\" id=\"p\(a + 1)-\(p + 1)\" data-article=\"\(a + 1)\" data-page=\"\(p + 1)\""
                        ),
                        "\(name) p\(a + 1)-\(p + 1)")
                    let base = page["properties"]?["baseImage"]?.string ?? ""
                    #expect(html.contains("src=\"\(base)\" srcset=\"\(base) 1x, \(RetinaName.of(base)) 2x\""))
                    for photo in page["properties"]?["photos"]?.array ?? [] {
                        let full = photo["photo"]?.string ?? ""
                        let thumb = photo["thumbnail"]?.string ?? ""
                        #expect(html.contains("href=\"\(full)\" data-srcset=\"\(full) 1x, \(RetinaName.of(full)) 2x\""))
                        #expect(html.contains("src=\"\(thumb)\" srcset=\"\(thumb) 1x, \(RetinaName.of(thumb)) 2x\""))
                    }
                }
            }
            #expect(!html.contains("page--generic"))
            #expect(html.contains("href=\"../index.html\"") && html.contains("src=\"../preview.js\""))
            // Every local link resolves to a copied file: the folder works on its own and from file://.
            for link in try PreviewFixtures.localLinks(in: html) {
                let path = output.appendingPathComponent(name).appendingPathComponent(link.removingPercentEncoding ?? link)
                    .standardized.path
                #expect(fileManager.fileExists(atPath: path), "\(name)/index.html links to missing \(link)")
            }
            // Only what the pages and the cover use is copied: not the unreferenced draft.png of a-2.
            #expect(!fileManager.fileExists(atPath: output.appendingPathComponent("\(name)/draft.png").path))
        }
        #expect(report.pages == total)
        let index = try PreviewFixtures.read(report.index)
        for link in try PreviewFixtures.localLinks(in: index) {
            #expect(
                fileManager.fileExists(atPath: output.appendingPathComponent(link).path), "index.html links to missing \(link)")
        }
    }

    /// The sample's a-3 keeps only @2x masters: its preview has every normal size, derived
    /// (exactly half the master, as PNG), next to the master it came from.
    @Test func aMastersOnlyIssuePreviewsWithItsDerivedNormalSizes() throws {
        let assets = PreviewFixtures.sample.appendingPathComponent("issues/a-3/assets")
        let masters = try fileManager.contentsOfDirectory(atPath: assets.path).filter { $0.hasSuffix("@2x.png") }.sorted()
        #expect(masters.count == 19)
        #expect(try fileManager.contentsOfDirectory(atPath: assets.path).allSatisfy { RetinaName.isRetina($0) })
        let (_, output) = try PreviewFixtures.preview(PreviewFixtures.sample)
        func size(_ url: URL) throws -> [Int] {
            let head = [UInt8](try Data(contentsOf: url).prefix(24))
            #expect(head.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(url.path) is not a PNG")
            return [16, 20].map { o in head[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
        }
        for master in masters {
            let normal = try #require(RetinaName.normalName(of: master))
            let derived = output.appendingPathComponent("a-3/\(normal)")
            let full = try size(assets.appendingPathComponent(master))
            #expect(try size(derived) == full.map { $0 / 2 }, "\(normal)")
            #expect(
                try Data(contentsOf: output.appendingPathComponent("a-3/\(master)"))
                    == Data(contentsOf: assets.appendingPathComponent(master)))
        }
    }

    @Test func unknownClassIsALabelledPlaceholderWithItsImages() throws {
        let magazine = try PreviewFixtures.customMagazine()
        let (_, output) = try PreviewFixtures.preview(magazine)
        let html = try PreviewFixtures.read(output.appendingPathComponent("a-1/index.html"))
        #expect(
            html.contains(
                "<div class=\"page page--generic\" id=\"p2-1\" data-article=\"2\" data-page=\"1\" data-class=\"QuotePage\">"))
        #expect(html.contains("<p class=\"placeholder__label\">QuotePage</p>"))
        for property in ["baseImage", "quote", "rating", "featured", "link", "trap", "portraits", "image", "credit"] {
            #expect(html.contains("<dt>\(property) "), "property \(property) is not listed")
        }
        // Images found through the schema, also inside arrays of dicts, in both sizes.
        #expect(html.contains("<img src=\"2-0.png\" srcset=\"2-0.png 1x, 2-0@2x.png 2x\""))
        #expect(html.contains("<img src=\"2-1-p1.png\" srcset=\"2-1-p1.png 1x, 2-1-p1@2x.png 2x\""))
        for file in ["2-0.png", "2-0@2x.png", "2-1-p1.png", "2-1-p1@2x.png"] {
            #expect(fileManager.fileExists(atPath: output.appendingPathComponent("a-1/\(file)").path), "\(file)")
        }
        #expect(html.contains("<span class=\"props__type\">array of dict</span>"))
        #expect(html.contains(">5</span>") && html.contains(">true</span>") && html.contains(">K. Berg</span>"))
        // Escaped user text; an http(s) URL becomes a link, any other scheme stays text.
        #expect(html.contains("&lt;b&gt;Dark&lt;/b&gt; skies &amp; &quot;quiet&quot; nights"))
        #expect(!html.contains("<b>Dark"))
        #expect(html.contains("<a class=\"props__url\" href=\"https://example.com/?a=1&amp;b=2\">"))
        #expect(!html.contains("href=\"javascript:"))
        #expect(html.contains(">javascript:alert(1)</span>"))
        // The page before it is still a SimplePage.
        #expect(html.contains("<div class=\"page page--simple\" id=\"p1-1\""))
    }

    @Test func userTextIsEscapedAndFileNamesAreURLEncoded() throws {
        let magazine = try PreviewFixtures.customMagazine()
        let (report, output) = try PreviewFixtures.preview(magazine)
        let index = try PreviewFixtures.read(report.index)
        let issue = try PreviewFixtures.read(output.appendingPathComponent("a-1/index.html"))
        let title = "&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; Spring &amp; Co"
        for html in [index, issue] {
            #expect(html.contains(title))
            #expect(!html.contains("<script>alert"))
        }
        #expect(index.contains("Summary with &lt;i&gt;tags&lt;/i&gt; &amp; &#39;quotes&#39;"))
        #expect(issue.contains("<title>\(title) · Aurora</title>"))
        #expect(index.contains("src=\"a-1/cover%20art.png\" srcset=\"a-1/cover%20art.png 1x, a-1/cover%20art@2x.png 2x\""))
        #expect(fileManager.fileExists(atPath: output.appendingPathComponent("a-1/cover art@2x.png").path))
    }

    /// The sample's a-2 is in Russian (its `Language` is `ru`): its page is `lang="ru"`, not
    /// `en`; an issue that gives none is in the magazine's language, else `en`, as the shelf is.
    @Test func eachPageIsTaggedWithItsIssuesLanguage() throws {
        let magazine = try Shell.temporaryFolder("preview-language").appendingPathComponent("aurora")
        try fileManager.copyItem(at: PreviewFixtures.sample, to: magazine)
        let lang = { (html: String) in
            html.firstRange(of: /<html lang="([^"]*)">/).map { String(html[$0].dropFirst(12).dropLast(2)) } ?? "none"
        }
        func pages(_ output: URL) throws -> [String] {
            try ["index.html", "a-1/index.html", "a-2/index.html", "a-3/index.html"].map {
                lang(try PreviewFixtures.read(output.appendingPathComponent($0)))
            }
        }
        var (report, output) = try PreviewFixtures.preview(magazine)
        #expect(try pages(output) == ["en", "en", "ru", "en"])
        let shelf = try PreviewFixtures.read(report.index)
        #expect(shelf.contains(#"data-issue="a-2" lang="ru">"#))
        #expect(shelf.contains(#"data-issue="a-1" lang="en">"#))

        let settings = magazine.appendingPathComponent("magazine.plist")
        let plist = try String(contentsOf: settings, encoding: .utf8)
        try plist.replacingOccurrences(of: "</dict>", with: "    <key>Language</key>\n    <string>nb-NO</string>\n</dict>")
            .write(to: settings, atomically: true, encoding: .utf8)
        (report, output) = try PreviewFixtures.preview(magazine, into: output)
        #expect(try pages(output) == ["nb-NO", "nb-NO", "ru", "nb-NO"])
    }

    @Test func rewritingReplacesTheIndexInPlace() throws {
        let (_, output) = try PreviewFixtures.preview(PreviewFixtures.sample)
        try Data("stale".utf8).write(to: output.appendingPathComponent("index.html"))
        let (report, _) = try PreviewFixtures.preview(PreviewFixtures.sample, into: output)
        #expect(try PreviewFixtures.read(report.index).contains("data-issue=\"a-3\""))
    }

    @Test func missingTemplateOrUnknownPlaceholderIsAClearError() throws {
        let opening = MagazineValidator(folder: PreviewFixtures.sample, builtInSchema: PreviewFixtures.builtInSchema).open()
        let plan = try #require(IssueValidator.validate(issue: "a-1", in: opening.magazine).plan)
        let templates = try Shell.temporaryFolder("preview-templates").appendingPathComponent("preview")
        try fileManager.copyItem(at: PreviewFixtures.templates, to: templates)
        let output = try Shell.temporaryFolder("preview").appendingPathComponent("web")
        let card = templates.appendingPathComponent("issue-card.html")
        try Data("<li>{{titel}}</li>".utf8).write(to: card)
        let writer = PreviewWriter(magazine: opening.magazine, output: output, templates: templates)
        #expect {
            try writer.write([plan])
        } throws: { error in
            "\(error)".contains("issue-card.html") && "\(error)".contains("{{titel}}")
        }
        #expect(!fileManager.fileExists(atPath: output.appendingPathComponent("index.html").path))
        try fileManager.removeItem(at: card)
        #expect(throws: PreviewError.templateMissing(path: card.path)) { try writer.write([plan]) }
    }

    @Test func anIssueNamedLikeAPreviewFileIsRefused() throws {
        let opening = MagazineValidator(folder: PreviewFixtures.sample, builtInSchema: PreviewFixtures.builtInSchema).open()
        var plan = try #require(IssueValidator.validate(issue: "a-1", in: opening.magazine).plan)
        plan.name = "preview.css"
        let output = try Shell.temporaryFolder("preview").appendingPathComponent("web")
        let writer = PreviewWriter(magazine: opening.magazine, output: output, templates: PreviewFixtures.templates)
        #expect(throws: PreviewError.self) { try writer.write([plan]) }
    }
}
