import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandImport

/// `newsstand import` on hostile PDFs, as a user sees it: the one line that names the page and
/// the option to change, nothing a library printed, the magazine as it was; `--page-memory` and
/// `--page-timeout` taken from the command line.
@Suite(.tags(.needsTools)) struct ImportLimitsCommandTests {
    let environment = ["NEWSSTAND_TEMPLATES": Shell.repositoryRoot.appendingPathComponent("templates").path, "NO_COLOR": "1"]

    private func importing(_ source: URL, _ magazine: URL, _ extra: [String] = []) async -> Shell.Result {
        await InProcess.newsstand(
            ["import", source.path, magazine.path, "--issue", "im-1", "--title", "Hostile", "--date", "2026-12-01"] + extra,
            environment: environment)
    }

    /// Exit 1, exactly this line on standard error (no GLib or poppler line beside it) and
    /// nothing changed.
    private func expectRefused(
        _ pdf: HandMadePDF, _ extra: [String] = [], message: (URL) -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let magazine = try ImportFixtures.magazine()
        let file = magazine.deletingLastPathComponent().appendingPathComponent("hostile.pdf")
        try pdf.write(to: file)
        let before = FolderSnapshot(magazine)
        let result = await importing(file, magazine, extra)
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(
            result.stderr == "newsstand import: error: \(message(file)); nothing was written\n", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(FolderSnapshot(magazine).differences(from: before) == [], sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: PageRenderer.limitsMemory, "no memory limit under a sanitizer (see ARCHITECTURE.md)"))
    func aPageNeedingMoreThanPageMemoryIsNamed() async throws {
        try await expectRefused(.hugeImage(), ["--page-memory", "512"]) { _ in
            "page 1 needs more than 512 MiB of memory (--page-memory) and was stopped"
        }
    }

    @Test func aPageTakingLongerThanPageTimeoutIsNamed() async throws {
        try await expectRefused(.nestedForms(levels: 8), ["--page-timeout", "10"]) { _ in
            "page 1 took longer than 10 s (--page-timeout) and was stopped"
        }
    }

    @Test func aPageOfImpossibleProportionsIsNamedWithoutGLibsWarning() async throws {
        try await expectRefused(
            HandMadePDF(pages: [.text("one", mediaBox: "0 0 595 842"), .text("two", mediaBox: "0 0 1 200000")])
        ) {
            "page 2: '\($0.path), page 2' is 1536x307200000 pixels, more than the limit of 16777216 pixels"
        }
        try await expectRefused(HandMadePDF(pages: [.text("tall", mediaBox: "0 0 595 20000000")])) {
            "opening '\($0.path)' went wrong in GLib-GObject: value \"20000000\" of type 'gint' is invalid or out of range for property 'height' of type 'gint'"
        }
    }

    @Test func popplersComplaintsAreWarningsOfTheirPage() async throws {
        let magazine = try ImportFixtures.magazine()
        let pdf = magazine.deletingLastPathComponent().appendingPathComponent("syntax.pdf")
        let broken = "BT /F1 24 Tf 20 40 Td (ok) Tj ET zz 0 0 1 rg 10 10 50 20 re f"
        try HandMadePDF(pages: [.text("fine"), .init(mediaBox: "0 0 300 400", content: broken)]).write(to: pdf)
        let result = await importing(pdf, magazine, ["--width", "300"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix("newsstand import: warning: page 2: poppler: Syntax error at position ") == true,
            "\(result.stderr)")
        #expect(lines.first?.hasSuffix(": Unknown operator 'zz'") == true, "\(result.stderr)")

        let json = await importing(pdf, magazine, ["--width", "300", "--format", "json", "--issue", "im-2"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [String: Any]])
        #expect(
            (document["import"]?["warnings"] as? [String])?.map { "newsstand import: warning: " + $0 } == lines.map(String.init))
    }
}
