import Foundation
import NewsstandCore
import NewsstandImaging
import NewsstandTestSupport
import Testing

@testable import NewsstandImport

/// Imports of PDFs and folders written to hurt: a page drawing an image of 20,000 × 20,000
/// pixels in a 60 KB file, a drawing nested eight forms deep, pages of impossible proportions,
/// a page tree naming a page that is not there, syntax errors, names that are not UTF-8. Each
/// fails with the page named and leaves the magazine as it was, or imports with the libraries'
/// complaints as warnings; no renderer outlives its import.
@Suite(.tags(.needsTools)) struct HostileImportTests {
    struct Setup {
        let magazine: URL
        let work: URL
        let before: FolderSnapshot

        init() throws {
            work = try Shell.temporaryFolder("hostile-import")
            magazine = work.appendingPathComponent("mag")
            try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
            before = FolderSnapshot(magazine)
        }

        func request(
            _ source: URL, jobs: Int = 1, width: Int = 600, memory: Int = ImportRequest.defaultPageMemoryLimit, timeout: Int = 60
        ) -> ImportRequest {
            ImportRequest(
                source: source, magazine: magazine, issueName: "hostile", title: "Hostile", date: Date(timeIntervalSince1970: 0),
                width: width, jobs: jobs,
                builtInSchema: Shell.repositoryRoot.appendingPathComponent("templates/page-classes.plist"),
                pageMemoryLimit: memory, pageTimeout: timeout)
        }

        /// Imports off the cooperative pool; the error, or nil and the summary.
        func run(_ request: ImportRequest) async -> Result<ImportSummary, ImportError> {
            await BlockingWork.run { () -> Result<ImportSummary, ImportError> in
                do throws(ImportError) {
                    return .success(try IssueImporter(request).run())
                } catch {
                    return .failure(error)
                }
            }
        }

        /// The import failed with `error`, nothing changed in the magazine, and no renderer of
        /// `source` is left.
        func expectFailure(
            _ result: Result<ImportSummary, ImportError>, _ error: ImportError, source: URL,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            if case .failure(let failure) = result {
                #expect(failure == error, sourceLocation: sourceLocation)
            } else {
                Issue.record("imported: \(result)", sourceLocation: sourceLocation)
            }
            #expect(FolderSnapshot(magazine).differences(from: before) == [], sourceLocation: sourceLocation)
            #expect(ProcessTable.renderers(of: source).isEmpty, "a renderer was left", sourceLocation: sourceLocation)
        }
    }

    /// 60 KB asking for 1.6 GB: without the limit the import peaked at 1.6 GB (3.2 GB with two
    /// such pages and --jobs 2) and wrote a page. Under the sanitizers, which replace malloc,
    /// there is no limit to test.
    @Test(.enabled(if: PageRenderer.limitsMemory, "no memory limit under a sanitizer (see ARCHITECTURE.md)"))
    func aPageNeedingMoreMemoryThanItsLimitIsStoppedAndNamed() async throws {
        let setup = try Setup()
        let pdf = setup.work.appendingPathComponent("huge-image.pdf")
        try HandMadePDF.hugeImage().write(to: pdf)
        let result = await setup.run(setup.request(pdf))
        setup.expectFailure(result, .pageNeedsMoreMemory(page: 1, source: pdf.path, limit: 1 << 30), source: pdf)

        try HandMadePDF.hugeImage(pages: 2).write(to: pdf)
        let both = await setup.run(setup.request(pdf, jobs: 2))
        guard case .failure(.pageNeedsMoreMemory(let page, pdf.path, 1 << 30)) = both else {
            Issue.record("\(both)")
            return
        }
        #expect(page == 1 || page == 2)
        setup.expectFailure(both, .pageNeedsMoreMemory(page: page, source: pdf.path, limit: 1 << 30), source: pdf)
    }

    /// The limit stops what needs more, not pages of a magazine: text at 1536 wide renders
    /// within 256 MiB.
    @Test func ordinaryPagesRenderWellWithinALowLimit() async throws {
        let setup = try Setup()
        let pdf = setup.work.appendingPathComponent("text.pdf")
        try HandMadePDF(pages: [.text("one", mediaBox: "0 0 595 842"), .text("two", mediaBox: "0 0 842 595")]).write(to: pdf)
        let result = await setup.run(setup.request(pdf, jobs: 2, width: 1536, memory: 256 << 20))
        #expect(try result.get().pages == 2)
        #expect(try result.get().warnings == [])
    }

    /// Ten million boxes: minutes of poppler a page, which nothing in a process can interrupt.
    /// (The deadline is the page's, and opening the PDF's, which takes a fraction of a second
    /// even on a machine as loaded as CI's.)
    @Test func aPagePastItsDeadlineIsStoppedAndNamed() async throws {
        let setup = try Setup()
        let pdf = setup.work.appendingPathComponent("nested.pdf")
        try HandMadePDF.nestedForms(levels: 8).write(to: pdf)
        let result = await setup.run(setup.request(pdf, timeout: 10))
        setup.expectFailure(result, .pageTimedOut(page: 1, source: pdf.path, seconds: 10), source: pdf)
    }

    /// A 1 × 200,000 point page and a 10 × 100,000 point second page were imported as strips
    /// 1536 pixels wide and 2 high, with exit 0.
    @Test func aPageOfImpossibleProportionsIsRefusedWithItsNumber() async throws {
        let setup = try Setup()
        let strip = setup.work.appendingPathComponent("strip.pdf")
        try HandMadePDF(pages: [.text("strip", mediaBox: "0 0 1 200000")]).write(to: strip)
        setup.expectFailure(
            await setup.run(setup.request(strip, width: 1536)),
            .imaging(.tooLarge(path: "\(strip.path), page 1", width: 1536, height: 307_200_000, limit: 16_777_216), page: 1),
            source: strip)
        let second = setup.work.appendingPathComponent("second.pdf")
        try HandMadePDF(pages: [.text("one", mediaBox: "0 0 595 842"), .text("two", mediaBox: "0 0 10 100000")]).write(to: second)
        setup.expectFailure(
            await setup.run(setup.request(second, jobs: 2, width: 1536)),
            .imaging(.tooLarge(path: "\(second.path), page 2", width: 1536, height: 15_360_000, limit: 16_777_216), page: 2),
            source: second)
    }

    /// A page taller than libvips can hold even at scale 1 makes GLib refuse the height, which
    /// used to reach standard error raw; now it is the import's error.
    @Test func aGLibWarningFailsTheImportInsteadOfReachingStandardError() async throws {
        let setup = try Setup()
        let pdf = setup.work.appendingPathComponent("tall.pdf")
        try HandMadePDF(pages: [.text("tall", mediaBox: "0 0 595 20000000")]).write(to: pdf)
        let message = LibraryMessage(
            domain: "GLib-GObject", level: .warning,
            text: "value \"20000000\" of type 'gint' is invalid or out of range for property 'height' of type 'gint'")
        setup.expectFailure(
            await setup.run(setup.request(pdf)), .libraryFailure(page: nil, source: pdf.path, message: message), source: pdf)
    }

    /// libvips said "unable to load page 1" for the second page.
    @Test func aMissingPageIsNamedCountingFromOne() async throws {
        let setup = try Setup()
        let pdf = setup.work.appendingPathComponent("gap.pdf")
        var file = HandMadePDF(pages: [.text("one")])
        file.missingKids = 1
        try file.write(to: pdf)
        setup.expectFailure(
            await setup.run(setup.request(pdf, jobs: 2)),
            .imaging(.damagedPDF(path: pdf.path, reason: "poppler cannot read page 2"), page: 2),
            source: pdf)
    }

    /// poppler's complaints about a page it rendered anyway are warnings with the page, the
    /// first few of them and how many more; nothing reaches standard error.
    @Test func popplersComplaintsBecomeWarningsOfTheirPage() async throws {
        let setup = try Setup()
        let pdf = setup.work.appendingPathComponent("syntax.pdf")
        let broken = "BT /F1 24 Tf 20 40 Td (ok) Tj ET " + String(repeating: "zz ", count: 8) + "0 0 1 rg 10 10 50 20 re f"
        try HandMadePDF(pages: [.text("fine"), .init(mediaBox: "0 0 300 400", content: broken)]).write(to: pdf)
        let summary = try await setup.run(setup.request(pdf)).get()
        #expect(summary.pages == 2)
        #expect(summary.warnings.count == 6, "\(summary.warnings)")
        #expect(summary.warnings.first?.hasPrefix("page 2: poppler: Syntax error at position ") == true, "\(summary.warnings)")
        #expect(summary.warnings.first?.hasSuffix(": Unknown operator 'zz'") == true, "\(summary.warnings)")
        #expect(summary.warnings.last == "page 2: 3 more message(s) like these", "\(summary.warnings)")
    }

    /// A page image whose name is not UTF-8 was skipped with a note and the issue imported one
    /// page short, while a linked one was refused: now both are refused.
    @Test func aPageImageWhoseNameIsNotUTF8IsRefusedNotDropped() async throws {
        let setup = try Setup()
        let folder = setup.work.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = try Shell.run("vips", ["black", folder.appendingPathComponent("p1.png").path, "40", "50"])
        #expect(png.status == 0, "\(png.stderr)")
        let bytes = try Data(contentsOf: folder.appendingPathComponent("p1.png"))
        // A file that is no page image may have any name: it is skipped with a note.
        try Self.create(folder, Array("notes".utf8) + [0xFF] + Array(".txt".utf8), bytes)
        let ok = await setup.run(setup.request(folder))
        #expect(try ok.get().notes == ["skipped 'notes\\xFF.txt': not a page image (PNG, JPEG, WebP or HEIF)"])
        try FileManager.default.removeItem(at: setup.magazine.appendingPathComponent("issues/hostile"))

        try Self.create(folder, Array("p2".utf8) + [0xFF] + Array(".png".utf8), bytes)
        setup.expectFailure(
            await setup.run(setup.request(folder)),
            .refusedEntry(
                path: folder.path + "/p2\\xFF.png",
                reason: "its name is not UTF-8; rename it (a page image is imported or the import fails, never skipped)"),
            source: folder)
    }

    /// A file in `folder` whose name is `name`'s bytes, whatever they are.
    private static func create(_ folder: URL, _ name: [UInt8], _ bytes: Data) throws {
        let path = Array(folder.path.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// `newsstand import` killed (SIGKILL, SIGTERM) while a renderer works on a page that
    /// takes minutes: the renderer dies with it.
    @Test(arguments: [SIGKILL, SIGTERM])
    func noRendererOutlivesAKilledImport(signal: Int32) async throws {
        let setup = try Setup()
        let pdf = setup.work.appendingPathComponent("nested-\(signal).pdf")
        try HandMadePDF.nestedForms(levels: 8).write(to: pdf)
        // Through Python, which unblocks every signal and leaves the process group Foundation
        // made before it becomes newsstand: Foundation starts its children with signals blocked
        // (SIGTERM among them) and, once one has ended, kills what is left of its group, which
        // would hide a renderer left running.
        let process = try BackgroundProcess(
            "python3",
            [
                "-c",
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.setpgid(0, 0); os.execv(sys.argv[1], sys.argv[1:])",
                Shell.newsstand, "import", pdf.path, setup.magazine.path, "--issue", "killed", "--title", "Killed", "--date",
                "2026-01-01",
                "--width", "600", "--page-timeout", "900",
            ])
        defer { process.kill() }
        // The page's renderer (not the one that counted the pages, which ends by itself) is found
        // by its job, which names the PDF and the work, once it renders: libvips has started its
        // worker thread ("libvips worker"). (Killed before, a renderer finds itself orphaned and ends at once.)
        let started = try await offPool {
            BackgroundProcess.poll(timeout: 30) {
                ProcessTable.renderers(of: pdf, doing: "renderPDFPage").contains {
                    ProcessTable.threadNames(of: $0).contains("libvips worker")
                }
            }
        }
        #expect(started, "no renderer started: \(process.errors)")
        #expect(Glibc.kill(process.processIdentifier, signal) == 0)
        let status = process.wait()
        #expect(status != 1, "it ran to its own end (the renderer's deadline) instead of being killed: \(process.errors)")
        let gone = try await offPool { BackgroundProcess.poll(timeout: 10) { ProcessTable.renderers(of: pdf).isEmpty } }
        #expect(gone, "a renderer outlived the import: \(ProcessTable.renderers(of: pdf))")
        for left in ProcessTable.renderers(of: pdf) { Glibc.kill(left, SIGKILL) }
    }
}
