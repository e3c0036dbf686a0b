import Foundation
import NewsstandTestSupport
import Testing

/// `make test-fast` skips the suites tagged `.needsServer` or `.needsTools`; this keeps the tags
/// true. A test file that uses a helper which starts a process (nginx, a Python server or
/// script, aria2, Java, Chromium, bsdtar, the release binary…) must tag every top-level suite
/// it declares, or the fast tier would start that process (or fail where it is not installed).
/// Whether the fast tier starts nothing is also checked from outside: `strace -f -e
/// trace=execve make test-fast` shows only the test binary and swift-build (see
/// CONTRIBUTING.md).
@Suite struct TestTierTests {
    /// What a test source says when it starts a process, through our helpers or directly.
    static let processStarters = [
        "Nginx(", "Testbed", "PythonServer", "LyingServer", "RecordingProxy", "Aria2Bed", "ServedSite", "IndexedIssues", "aria2c",
        "Shell.run", "Shell.python", "ZipFixture.", "JavaZipStream", "BackgroundProcess", "ChildProcess", "ReleaseTarball",
        "ChannelChecks", "ImportFixtures", "TinyDisk", "BundleIndexFixture", "LibraryInvariants", "Process()", "OffPool.",
        "Fixtures.", "RendererProcess(", "rclone:", "RcloneDestination", "TestChild.start", "MotoS3(", "Varnish(",
    ]

    /// Starters that are whole names only: Foundation's `Process()`, not the end of a test
    /// named `…AcrossInstancesOfOneProcess()`; the imaging tests' `Fixtures` (which run vips and
    /// Python), not `PreviewFixtures`, which runs the preview in process.
    static let wholeNameStarters: Set<String> = ["Process()", "Fixtures."]

    /// Whether `text` says `starter` (as a whole name when it is one of `wholeNameStarters`).
    static func says(_ starter: String, in text: String) -> Bool {
        guard wholeNameStarters.contains(starter) else { return text.contains(starter) }
        var rest = Substring(text)
        while let found = rest.range(of: starter) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            if !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false) { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// The test files of every test target, in subfolders too (not the Support folders).
    static func testFiles() throws -> [URL] {
        let tests = Shell.repositoryRoot.appendingPathComponent("Tests")
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            let parts = url.path.dropFirst(tests.path.count + 1).split(separator: "/")
            guard url.pathExtension == "swift", parts.count >= 2, parts[0].hasSuffix("Tests"), !parts.contains("Support") else {
                continue
            }
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The top-level `@Suite(…)` attributes of a source (they may span lines), or nil when it
    /// holds tests outside any declared suite. A file with no suite at the margin may declare
    /// them one level in, inside an `#if`.
    static func topLevelSuites(in text: String) -> [String]? {
        let text = "\n" + text
        for margin in ["\n@Suite", "\n    @Suite"] {
            var suites: [String] = []
            var rest = Substring(text)
            while let start = rest.range(of: margin) {
                let attribute = rest[start.upperBound...].prefix { $0 != "{" }
                suites.append("@Suite" + attribute)
                rest = rest[attribute.endIndex...]
            }
            if !suites.isEmpty { return suites }
        }
        return text.contains("@Test") ? nil : []
    }

    @Test func everySuiteThatStartsAProcessIsTaggedOutOfTheFastTier() throws {
        let files = try Self.testFiles()
        #expect(files.count > 100, "the test files were not found under \(Shell.repositoryRoot.path)")
        var untagged: [String] = []
        for file in files where file.lastPathComponent != "TestTierTests.swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard let starter = Self.processStarters.first(where: { Self.says($0, in: text) }) else { continue }
            let name = file.path.dropFirst(Shell.repositoryRoot.path.count + 1)
            guard let suites = Self.topLevelSuites(in: text) else {
                untagged.append("\(name) (uses \(starter); its tests are in no @Suite to tag)")
                continue
            }
            for suite in suites where !(suite.contains(".tags(.needsServer") || suite.contains(".tags(.needsTools")) {
                untagged.append("\(name) (uses \(starter)): \(suite.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
        }
        #expect(untagged.isEmpty, "tag these .needsServer or .needsTools:\n\(untagged.joined(separator: "\n"))")
    }

    /// The check itself tells a tagged suite from an untagged one.
    @Test func theCheckSeesUntaggedAndMultiLineSuites() {
        #expect(Self.says("Process()", in: "let p = Process()\n"))
        #expect(Self.says("Process()", in: "Process()"))
        #expect(!Self.says("Process()", in: "@Test func oneOwnerAcrossInstancesOfOneProcess() {}"))
        #expect(Self.says("Fixtures.", in: "try Fixtures.png(url, width: 2, height: 2)"))
        #expect(!Self.says("Fixtures.", in: "let (_, output) = try PreviewFixtures.preview(sample)"))
        #expect(Self.topLevelSuites(in: "@Suite struct A { @Test func a() {} }") == ["@Suite struct A "])
        #expect(Self.topLevelSuites(in: "struct A { @Test func a() {} }") == nil)
        let multiLine = "import Testing\n@Suite(\n    \"A\", .tags(.needsTools)\n)\nstruct A {\n}\n"
        #expect(Self.topLevelSuites(in: multiLine)?.first?.contains(".tags(.needsTools") == true)
    }
}
