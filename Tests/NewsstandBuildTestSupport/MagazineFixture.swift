import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport

/// A small valid magazine in a temporary folder, for tests to break one thing at a time.
/// Issue `f-1` has a SimplePage and a PhotoPage; every image exists in both sizes.
public final class MagazineFixture {
    public let root: URL
    /// The marks of each file written from text, by path.
    private var marks: [String: [String: Int]] = [:]

    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    public static var builtInSchema: URL { repositoryRoot.appendingPathComponent("templates/page-classes.plist") }

    public init(issues: [String] = ["f-1"]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try write(
            "magazine.plist",
            Self.plist(
                """
                <dict>
                    <key>Title</key>
                    <string>Fixture</string>
                    <key>BaseURL</key>
                    <string>https://example.com/mag/</string>
                </dict>
                """))
        for (index, name) in issues.enumerated() {
            try addIssue(name, day: index + 1)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Adds issue `name`; its issue.plist marks the cover's line `⟦cover⟧` (`line(of:in:)`).
    public func addIssue(_ name: String, day: Int = 1) throws {
        try write(
            "issues/\(name)/issue.plist",
            Self.plist(
                """
                <dict>
                    <key>Title</key>
                    <string>Issue \(name)</string>
                    <key>Date</key>
                    <date>2026-01-\(String(format: "%02d", day))T08:00:00Z</date>
                    <key>Cover</key>
                    <string>cover.png</string>⟦cover⟧
                    <key>Summary</key>
                    <string>The \(name) issue.</string>
                </dict>
                """))
        try write("issues/\(name)/pages.plist", Self.defaultPages)
        for file in ["cover.png", "1-0.png", "2-0.png", "2-1.png", "2-1t.png"] {
            try image(name, file, width: 10, height: 20)
        }
    }

    /// The default page config. Its marks (`line(of:in:)` on `issues/<name>/pages.plist`):
    /// `⟦page-1⟧` and `⟦page-2⟧` (each page's dict), `⟦page-1-properties⟧`, `⟦1-0⟧` (page 1's
    /// image), `⟦page-2-class⟧`, `⟦2-0⟧`, `⟦photos⟧` (the photos array), `⟦photo-0⟧` (its first
    /// dict), `⟦2-1⟧`, `⟦2-1t⟧`.
    public static let defaultPages = plist(
        """
        <array>
            <array>
                <dict>⟦page-1⟧
                    <key>class</key>
                    <string>SimplePage</string>
                    <key>properties</key>
                    <dict>⟦page-1-properties⟧
                        <key>baseImage</key>
                        <string>1-0.png</string>⟦1-0⟧
                    </dict>
                </dict>
            </array>
            <array>
                <dict>⟦page-2⟧
                    <key>class</key>
                    <string>PhotoPage</string>⟦page-2-class⟧
                    <key>properties</key>
                    <dict>
                        <key>baseImage</key>
                        <string>2-0.png</string>⟦2-0⟧
                        <key>photos</key>
                        <array>⟦photos⟧
                            <dict>⟦photo-0⟧
                                <key>photo</key>
                                <string>2-1.png</string>⟦2-1⟧
                                <key>thumbnail</key>
                                <string>2-1t.png</string>⟦2-1t⟧
                            </dict>
                        </array>
                    </dict>
                </dict>
            </array>
        </array>
        """)

    /// The line of `⟦mark⟧` in `defaultPages` as written.
    public static func defaultPagesLine(of mark: String) -> Int { MarkedText(defaultPages).line(of: mark) }

    /// Wraps a plist body in the XML header; the body starts on line 4.
    public static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }

    public func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// Writes `text` with its `⟦mark⟧`s stripped (`MarkedText`); `line(of:in:)` then gives
    /// each mark's line in the file as written.
    public func write(_ path: String, _ text: String) throws {
        let marked = MarkedText(text)
        marks[path] = marked.lines
        try write(path, Data(marked.text.utf8))
    }

    /// The line of `⟦mark⟧` in the text last written at `path` (0 when it had no such mark).
    public func line(of mark: String, in path: String) -> Int { marks[path]?[mark] ?? 0 }

    public func write(_ path: String, _ data: Data) throws {
        let url = url(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    public func remove(_ path: String) throws { try FileManager.default.removeItem(at: url(path)) }

    /// Writes `name` and its @2x twin (twice the size unless `retinaScale` says otherwise).
    public func image(_ issue: String, _ name: String, width: Int, height: Int, retinaScale: Int = 2) throws {
        try write("issues/\(issue)/assets/\(name)", Self.png(width: width, height: height, seed: name))
        try write(
            "issues/\(issue)/assets/\(RetinaName.of(name))",
            Self.png(width: width * retinaScale, height: height * retinaScale, seed: name + "@2x"))
    }

    /// A PNG signature and IHDR chunk with the given size, followed by some bytes that differ
    /// by `seed` (the validator reads headers only).
    public static func png(width: Int, height: Int, seed: String = "") -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        data.append(contentsOf: Array("IHDR".utf8))
        for value in [width, height] {
            data.append(contentsOf: [
                UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
            ])
        }
        data.append(contentsOf: [8, 2, 0, 0, 0, 0, 0, 0, 0])
        data.append(Data(("payload " + seed).utf8))
        return data
    }

    /// Validates the whole magazine (with the rules of `feeds`); returns every diagnostic.
    public func validate(issues: [String] = [], feeds: Set<Feed> = []) -> [Diagnostic] {
        let opening = MagazineValidator(folder: root, builtInSchema: Self.builtInSchema, selectedIssues: issues).open()
        var all = opening.diagnostics
        for name in opening.issueNames {
            all += IssueValidator.validate(issue: name, in: opening.magazine, feeds: feeds).diagnostics
        }
        return all
    }

    /// Opens the magazine and validates it into build plans (failing if there are errors).
    public func plans() throws -> (Magazine, [IssuePlan]) {
        let opening = MagazineValidator(folder: root, builtInSchema: Self.builtInSchema).open()
        var plans: [IssuePlan] = []
        for name in opening.issueNames {
            let result = IssueValidator.validate(issue: name, in: opening.magazine)
            guard let plan = result.plan else { throw FixtureError(diagnostics: result.diagnostics) }
            plans.append(plan)
        }
        return (opening.magazine, plans)
    }
}

/// The diagnostics of a fixture that does not validate.
public struct FixtureError: Error { public var diagnostics: [Diagnostic] }

extension Array where Element == Diagnostic {
    /// The diagnostics with `code`.
    public func with(_ code: DiagnosticCode) -> [Diagnostic] { filter { $0.code == code } }
}
