import Foundation
import NewsstandCLI
import NewsstandCore
import NewsstandTestSupport
import Testing

/// `newsstand import`, in process, on PDFs and folders the tests make; outputs checked with the
/// vips tool, Python's plistlib, and the tool's own validate and build.
@Suite(.tags(.needsTools)) struct ImportCommandTests {
    let environment = ["NEWSSTAND_TEMPLATES": Shell.repositoryRoot.appendingPathComponent("templates").path, "NO_COLOR": "1"]

    private func importing(_ source: URL, _ magazine: URL, issue: String = "im-1", _ extra: [String] = []) async -> Shell.Result {
        await InProcess.newsstand(
            [
                "import", source.path, magazine.path, "--issue", issue, "--title", "Imported — print edition", "--date",
                "2026-12-01",
            ]
                + extra, environment: environment)
    }

    /// A failed import leaves the magazine exactly as it was (and prints why, with exit 1).
    private func expectNothingLeft(
        _ result: Shell.Result, _ magazine: URL, before: FolderSnapshot, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == "newsstand import: error: \(message); nothing was written\n", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(FolderSnapshot(magazine).differences(from: before) == [], sourceLocation: sourceLocation)
    }

    @Test func aPDFWithTextAndALandscapePageBecomesAnIssueThatValidatesAndBuilds() async throws {
        let magazine = try ImportFixtures.magazine(deriveNormalSize: false)
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(595, 842), (842, 595), (595, 842)])
        let result = await importing(pdf, magazine, ["--width", "1024"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no progress bar and no notes when standard error is not a terminal")
        let issue = magazine.appendingPathComponent("issues/im-1")
        #expect(
            result.stdout.hasPrefix("imported 3 page(s) in 3 article(s) into \(issue.path): 3 PNG, 0 JPEG, @2x and normal sizes"))
        let assets = issue.appendingPathComponent("assets")
        #expect(
            try ImportFixtures.names(assets) == [
                "1-0.png", "1-0@2x.png", "2-0.png", "2-0@2x.png", "3-0.png", "3-0@2x.png", "cover.png", "cover@2x.png",
            ])
        // A4 portrait at 1024 wide: poppler renders 1449 rows, made even with one more. The
        // landscape page is wider than high.
        #expect(try ImportFixtures.size(assets.appendingPathComponent("1-0@2x.png")) == [1024, 1450])
        #expect(try ImportFixtures.size(assets.appendingPathComponent("1-0.png")) == [512, 725])
        #expect(try ImportFixtures.size(assets.appendingPathComponent("2-0@2x.png")) == [1024, 724])
        #expect(try ImportFixtures.size(assets.appendingPathComponent("2-0.png")) == [512, 362])
        #expect(
            try Data(contentsOf: assets.appendingPathComponent("cover@2x.png"))
                == Data(contentsOf: assets.appendingPathComponent("1-0@2x.png")))
        let info = try #require(try ImportFixtures.plist(issue.appendingPathComponent("issue.plist")) as? [String: String])
        #expect(
            info == ["Name": "im-1", "Title": "Imported — print edition", "Date": "2026-12-01T00:00:00Z", "Cover": "cover.png"])
        let pages = try #require(try ImportFixtures.plist(issue.appendingPathComponent("pages.plist")) as? [[[String: Any]]])
        #expect(pages.map { $0.map { $0["class"] as? String } } == [["SimplePage"], ["SimplePage"], ["SimplePage"]])
        #expect(
            pages.map { $0.map { ($0["properties"] as? [String: String])?["baseImage"] } } == [
                ["1-0.png"], ["2-0.png"], ["3-0.png"],
            ])
        #expect(try Shell.run("plutil", ["-lint", issue.appendingPathComponent("pages.plist").path]).status == 0)

        let validation = await InProcess.newsstand(
            ["validate", magazine.path, "--issue", "im-1", "--strict"], environment: environment)
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        #expect(validation.stdout.contains("no problems found in 1 issue"), "\(validation.stdout)")
        let output = magazine.deletingLastPathComponent().appendingPathComponent("out")
        let build = await InProcess.newsstand(
            ["build", magazine.path, "-o", output.path, "--issue", "im-1", "--fixed-names"], environment: environment)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let listing = try ImportFixtures.run("unzip", ["-Z1", output.appendingPathComponent("im-1/im-1@2x.zip").path])
        #expect(
            listing.split(separator: "\n").sorted() == ["1-0@2x.png", "2-0@2x.png", "3-0@2x.png", "issue.plist", "pages.plist"])
    }

    @Test func withDerivationOnOnlyTheMastersAreWritten() async throws {
        // DeriveNormalSize absent (on, the default) and true: the build makes the normal sizes.
        for setting in [nil, true] as [Bool?] {
            let magazine = try ImportFixtures.magazine(deriveNormalSize: setting)
            let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
            try ImportFixtures.pdf(pdf, pages: [(400, 600), (400, 600)])
            let result = await importing(pdf, magazine)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("@2x masters only (the build derives normal sizes)"), "\(result.stdout)")
            let assets = magazine.appendingPathComponent("issues/im-1/assets")
            #expect(
                try ImportFixtures.names(assets) == ["1-0@2x.png", "2-0@2x.png", "cover@2x.png"], "\(String(describing: setting))"
            )
            #expect(try ImportFixtures.size(assets.appendingPathComponent("1-0@2x.png")) == [1536, 2304], "the default width")
        }
    }

    @Test func articlesGroupPageRanges() async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: Array(repeating: (300, 400), count: 6))
        let result = await importing(pdf, magazine, ["--articles", "1,2-4,5-", "--width", "300", "-j", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported 6 page(s) in 3 article(s)"), "\(result.stdout)")
        let issue = magazine.appendingPathComponent("issues/im-1")
        let pages = try #require(try ImportFixtures.plist(issue.appendingPathComponent("pages.plist")) as? [[[String: Any]]])
        #expect(
            pages.map { $0.map { ($0["properties"] as? [String: String])?["baseImage"] } } == [
                ["1-0.png"], ["2-0.png", "2-1.png", "2-2.png"], ["3-0.png", "3-1.png"],
            ])
        let validation = await InProcess.newsstand(
            ["validate", magazine.path, "--issue", "im-1", "--strict"], environment: environment)
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
    }

    @Test(arguments: [
        ("1,3-", "--articles: page 2 is in no article; the ranges must cover every page, in order"),
        ("1-3,3-", "--articles: '3-' overlaps '1-3'; every page belongs to one article"),
        ("1-2,3-9", "--articles: '3-9' goes past the last page; the input has 4 page(s)"),
        ("1-2", "--articles: pages 3 to 4 are in no article; the ranges must cover every page, in order"),
        ("2-", "--articles: page 1 is in no article; the ranges must cover every page, in order"),
        (
            "1,x",
            "--articles: 'x' is not a page range; write N, N-M or N- (pages counted from 1), separated by commas, as in 1,2-5,6-"
        ),
    ])
    func aWrongArticleListIsAUsageErrorBeforeAnythingIsWritten(articles: String, message: String) async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: Array(repeating: (300, 400), count: 4))
        let before = FolderSnapshot(magazine)
        let result = await importing(pdf, magazine, ["--articles", articles])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("newsstand import: error: \(message)\n"), "\(result.stderr)")
        #expect(FolderSnapshot(magazine).differences(from: before) == [])
    }

    @Test func aBrokenPDFLeavesNothing() async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(300, 400), (300, 400)])
        // Cut in the middle: poppler finds neither the cross-reference table nor the pages.
        let bytes = try Data(contentsOf: pdf)
        try bytes.prefix(bytes.count / 2).write(to: pdf)
        let before = FolderSnapshot(magazine)
        let result = await importing(pdf, magazine)
        #expect(result.stderr.hasPrefix("newsstand import: error: '\(pdf.path)' is a damaged PDF: "), "\(result.stderr)")
        expectNothingLeft(result, magazine, before: before, message: String(result.stderr.dropFirst(25).dropLast(22)))
    }

    @Test func anEncryptedPDFLeavesNothing() async throws {
        let magazine = try ImportFixtures.magazine()
        let plain = magazine.deletingLastPathComponent().appendingPathComponent("plain.pdf")
        try ImportFixtures.pdf(plain, pages: [(300, 400)])
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.run("qpdf", ["--encrypt", "reader-secret", "owner-secret", "256", "--", plain.path, pdf.path])
        let before = FolderSnapshot(magazine)
        let result = await importing(pdf, magazine)
        expectNothingLeft(
            result, magazine, before: before, message: "'\(pdf.path)' is an encrypted PDF: it needs a password to be opened")
    }

    @Test func aFolderOfMixedFormatsIsImportedInNaturalOrder() async throws {
        let magazine = try ImportFixtures.magazine()
        let folder = magazine.deletingLastPathComponent().appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Each page's height tells it apart after scaling to one width; plain byte order would
        // put page10 before page2 and page9.
        let pages: [(String, Int)] = [
            ("page1.png", 100), ("page2.jpg", 120), ("Page9.webp", 140), ("page10.heic", 160), ("page11.PNG", 180),
        ]
        for (name, height) in pages { try ImportFixtures.image(folder.appendingPathComponent(name), width: 100, height: height) }
        try Data("notes for the printer".utf8).write(to: folder.appendingPathComponent("readme.txt"))
        try Data().write(to: folder.appendingPathComponent(".DS_Store"))
        let result = await importing(folder, magazine, ["--width", "200"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "newsstand import: note: skipped 'readme.txt': not a page image (PNG, JPEG, WebP or HEIF)\n")
        let assets = magazine.appendingPathComponent("issues/im-1/assets")
        let heights = try (1...5).map { article in
            let name = try #require(try ImportFixtures.names(assets).first { $0.hasPrefix("\(article)-0@2x.") })
            return try ImportFixtures.size(assets.appendingPathComponent(name))
        }
        #expect(heights == [[200, 200], [200, 240], [200, 280], [200, 320], [200, 360]])
        let validation = await InProcess.newsstand(
            ["validate", magazine.path, "--issue", "im-1", "--strict"], environment: environment)
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
    }

    /// One rule for a file with a page image's name: imported or the import fails, never
    /// skipped. A name that is not UTF-8 was skipped with a note, the issue one page short.
    @Test func aLinkedOrSpecialPageImageIsRefusedAndNothingIsWritten() async throws {
        for kind in ["link", "fifo", "not UTF-8"] {
            let magazine = try ImportFixtures.magazine()
            let folder = magazine.deletingLastPathComponent().appendingPathComponent("pages")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try ImportFixtures.image(folder.appendingPathComponent("page1.png"), width: 50, height: 50)
            let odd = folder.appendingPathComponent("page2.png")
            var shown = odd.path
            switch kind {
            case "link": try FileManager.default.createSymbolicLink(atPath: odd.path, withDestinationPath: "/etc/passwd")
            case "fifo": #expect(mkfifo(odd.path, 0o644) == 0)
            default:
                // A second name for page 1, page2\xFF.png: link(2) takes the bytes as they are.
                let from = Array(folder.appendingPathComponent("page1.png").path.utf8CString)
                let to =
                    Array((folder.path + "/page2").utf8).map { CChar(bitPattern: $0) } + [CChar(bitPattern: 0xFF)]
                    + Array(".png".utf8CString)
                #expect(link(from, to) == 0)
                shown = folder.path + "/page2\\xFF.png"
            }
            let before = FolderSnapshot(magazine)
            let result = await importing(folder, magazine)
            let reason =
                switch kind {
                case "link": "it is a symbolic link; a page image must be a regular file"
                case "fifo": "it is a FIFO; a page image must be a regular file"
                default: "its name is not UTF-8; rename it (a page image is imported or the import fails, never skipped)"
                }
            expectNothingLeft(result, magazine, before: before, message: "'\(shown)' is refused: \(reason)")
        }
    }

    @Test func aFolderWithoutImagesLeavesNothing() async throws {
        let magazine = try ImportFixtures.magazine()
        let folder = magazine.deletingLastPathComponent().appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("old"), withIntermediateDirectories: true)
        try Data("%PDF".utf8).write(to: folder.appendingPathComponent("layout.indd"))
        let before = FolderSnapshot(magazine)
        let result = await importing(folder, magazine)
        expectNothingLeft(
            result, magazine, before: before,
            message:
                "'\(folder.path)' has no page images (PNG, JPEG, WebP or HEIF: .png, .jpg, .jpeg, .webp, .heic, .heif); 2 other file(s) were skipped"
        )
    }

    @Test func aPageThatFailsHalfwayLeavesNothing() async throws {
        let magazine = try ImportFixtures.magazine(deriveNormalSize: false)
        let folder = magazine.deletingLastPathComponent().appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for page in 1...4 { try ImportFixtures.image(folder.appendingPathComponent("p\(page).png"), width: 60, height: 80) }
        // Page 3 is cut short: pages 1 and 2 are written (one at a time) before it fails.
        let third = folder.appendingPathComponent("p3.png")
        let bytes = try Data(contentsOf: third)
        try bytes.prefix(bytes.count - 40).write(to: third)
        let before = FolderSnapshot(magazine)
        let result = await importing(folder, magazine, ["--jobs", "1", "--width", "120"])
        #expect(
            result.stderr.hasPrefix("newsstand import: error: page 3: '\(third.path)': rendering failed: "), "\(result.stderr)")
        expectNothingLeft(result, magazine, before: before, message: String(result.stderr.dropFirst(25).dropLast(22)))
    }

    @Test func anExistingIssueIsNeverReplaced() async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(300, 400)])
        let before = FolderSnapshot(magazine)
        let result = await importing(pdf, magazine, issue: "a-2")
        let existing = magazine.appendingPathComponent("issues/a-2").path
        expectNothingLeft(
            result, magazine, before: before,
            message:
                "issue 'a-2' exists already ('\(existing)'); import never replaces an issue: remove it or choose another --issue")
        // Checked before the source is read: a damaged PDF is not even opened.
        try Data("%PDF-1.4 cut".utf8).write(to: pdf)
        let first = await importing(pdf, magazine, issue: "a-2")
        #expect(
            first.status == 1 && first.stderr.hasPrefix("newsstand import: error: issue 'a-2' exists already"), "\(first.stderr)")
        try ImportFixtures.pdf(pdf, pages: [(300, 400)])
        // An empty folder of that name counts too: it may be someone's issue in the making.
        try FileManager.default.createDirectory(
            at: magazine.appendingPathComponent("issues/new"), withIntermediateDirectories: false)
        let empty = await importing(pdf, magazine, issue: "new")
        #expect(empty.status == 1 && empty.stderr.contains("issue 'new' exists already"), "\(empty.stderr)")
    }

    @Test func whatAKilledImportLeftIsIgnoredByValidateAndRemovedByTheNextImport() async throws {
        let magazine = try ImportFixtures.magazine(deriveNormalSize: false)
        let issues = magazine.appendingPathComponent("issues")
        // A workspace as a killed import leaves it (its lock file free), and one of an import
        // still running (its lock held here).
        for name in [".newsstand-import-x-dead", ".newsstand-import-y-alive"] {
            try FileManager.default.createDirectory(
                at: issues.appendingPathComponent(name + "/assets"), withIntermediateDirectories: true)
            try Data("half a page".utf8).write(to: issues.appendingPathComponent(name + "/assets/1-0@2x.rendering"))
            try Data().write(to: issues.appendingPathComponent(name + ".lock"))
        }
        let held = try #require(try FileLock.acquire(".newsstand-import-y-alive.lock", in: OpenFolder.open(issues), timeout: 0))
        let validation = await InProcess.newsstand(["validate", magazine.path, "--strict"], environment: environment)
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        #expect(validation.stdout.contains("no problems found in 3 issues"), "\(validation.stdout)")

        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(300, 400)])
        let result = await importing(pdf, magazine, ["--width", "300"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "newsstand import: note: removed '.newsstand-import-x-dead' in issues/, left by an import that did not finish\n"
        )
        #expect(
            try ImportFixtures.names(issues) == [
                ".newsstand-import-y-alive", ".newsstand-import-y-alive.lock", "a-1", "a-2", "a-3", "im-1",
            ])
        held.release()
    }

    @Test func aMagazineWithoutAUsableSimplePageGetsNothing() async throws {
        let magazine = try ImportFixtures.magazine()
        // The magazine's own SimplePage replaces the built-in one and requires a caption.
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>SimplePage</key><dict><key>properties</key><dict>
            <key>baseImage</key><dict><key>type</key><string>image</string><key>required</key><true/></dict>
            <key>caption</key><dict><key>type</key><string>string</string><key>required</key><true/></dict>
            </dict></dict></dict></plist>
            """.utf8
        ).write(to: magazine.appendingPathComponent("page-classes.plist"))
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(300, 400)])
        let before = FolderSnapshot(magazine)
        let result = await importing(pdf, magazine)
        expectNothingLeft(
            result, magazine, before: before,
            message:
                "the magazine has no usable SimplePage page class: SimplePage requires 'caption' too, which an imported page cannot give"
        )
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root, which CI has"))
    func aFullDiskLeavesNothing() async throws {
        let mountPoint = try Shell.temporaryFolder("import-tinydisk")
        try ImportFixtures.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
        defer { _ = try? Shell.run("umount", [mountPoint.path]) }
        let magazine = mountPoint.appendingPathComponent("mag")
        try FileManager.default.createDirectory(at: magazine.appendingPathComponent("issues"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: ImportFixtures.magazine().appendingPathComponent("magazine.plist"),
            to: magazine.appendingPathComponent("magazine.plist"))
        let folder = try Shell.temporaryFolder("import-pages")
        // Pages of noise, about 1 MB each at 1536 wide (neither PNG nor JPEG compresses noise):
        // the first page does not fit.
        for page in 1...3 {
            try ImportFixtures.image(folder.appendingPathComponent("p\(page).png"), width: 400, height: 500, noise: true)
        }
        let before = FolderSnapshot(magazine)
        let result = await importing(folder, magazine, ["--jobs", "1"])
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        expectNothingLeft(result, magazine, before: before, message: String(result.stderr.dropFirst(25).dropLast(22)))
    }

    @Test func aTitleXMLCannotCarryIsRefusedBeforeRendering() async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(300, 400)])
        let before = FolderSnapshot(magazine)
        let result = await InProcess.newsstand(
            ["import", pdf.path, magazine.path, "--issue", "im-1", "--title", "Bell\u{07}", "--date", "2026-12-01"],
            environment: environment)
        #expect(result.stderr.hasPrefix("newsstand import: error: issue.plist cannot be written: "), "\(result.stderr)")
        expectNothingLeft(result, magazine, before: before, message: String(result.stderr.dropFirst(25).dropLast(22)))
    }

    @Test func jsonReport() async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(300, 400), (300, 400)])
        let result = await importing(pdf, magazine, ["--format", "json", "--width", "600"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let report = try #require(document["import"] as? [String: Any])
        #expect(report["written"] as? Bool == true)
        #expect(report["pages"] as? Int == 2 && report["articles"] as? Int == 2 && report["pngPages"] as? Int == 2)
        #expect(report["cover"] as? String == "cover@2x.png" && report["width"] as? Int == 600)
        #expect(report["normalSizesWritten"] as? Bool == true)
        #expect(try JSONDocument.decode(ImportJSON.self, from: result.stdout).import.imageBytes ?? 0 > 0)
        let again = await importing(pdf, magazine, ["--format", "json"])
        #expect(again.status == 1)
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: [String: Any]])
        #expect(failure["import"]?["written"] as? Bool == false)
        #expect((failure["import"]?["error"] as? String)?.hasPrefix("issue 'im-1' exists already") == true)
        #expect(try JSONDocument.decode(ImportJSON.self, from: again.stdout).import.pages == nil)
    }

    @Test func progressIsDrawnOnATerminalOnly() async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("print.pdf")
        try ImportFixtures.pdf(pdf, pages: [(300, 400), (300, 400)])
        let captured = CapturedOutput()
        let sink = captured.console
        let terminal = Console(isTerminal: true, errorIsTerminal: true) { stream, text in
            stream == .output ? sink.out(String(text.dropLast())) : sink.errRaw(text)
        }
        let arguments = ["import", pdf.path, magazine.path, "--issue", "im-1", "--title", "T", "--date", "2026-12-01", "-j", "1"]
        let environment = self.environment
        let status = await BlockingWork.run { NewsstandCommand.run(arguments, console: terminal, environment: environment) }
        #expect(status == 0)
        #expect(captured.stderr.contains("\rimporting [###############               ] 1/2"), "\(captured.stderr)")
        #expect(captured.stderr.hasSuffix("\r\u{1B}[2K"), "the bar is cleared at the end")
    }

    @Test(arguments: [
        (
            ["--width", "1535"],
            "newsstand import: error: --width must be even (the normal size is exactly half of it), got '1535'"
        ),
        (["--width", "8192"], "newsstand import: error: --width needs a whole number of pixels from 64 to 4096, got '8192'"),
        (["--date", "2026-02-30"], "newsstand import: error: --date needs a day as YYYY-MM-DD (2026-03-01), got '2026-02-30'"),
        (["--jobs", "33"], "newsstand import: error: --jobs needs a whole number from 1 to 32, got '33'"),
        (
            ["--page-memory", "64"],
            "newsstand import: error: --page-memory needs a whole number of MiB from 128 to 65536, got '64'"
        ),
        (
            ["--page-timeout", "0"],
            "newsstand import: error: --page-timeout needs a whole number of seconds from 1 to 86400, got '0'"
        ),
        (
            ["--issue", "../evil"],
            "newsstand import: error: '../evil' is not a valid issue name: letters, digits, '-', '_' and '.' only, not starting with '.', at most 128 bytes"
        ),
        (["--title", " "], "newsstand import: error: --title must not be empty"),
    ])
    func usageMistakes(extra: [String], message: String) async throws {
        let magazine = try ImportFixtures.magazine()
        let before = FolderSnapshot(magazine)
        let result = await importing(magazine.appendingPathComponent("missing.pdf"), magazine, extra)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
        #expect(FolderSnapshot(magazine).differences(from: before) == [])
    }
}
