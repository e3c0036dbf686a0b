import Foundation
import NewsstandCore
import Testing

/// The one rule for names read from manifests, state files and catalogs.
@Suite struct SafeRelativePathTests {
    @Test(arguments: [
        "issues.plist", "a-1/a-1.zip", "a-1/a-1.3fa9c1e2@2x.zip", "a-1/cover image.png", "a-1/обложка.png",
        "a-1/%2e%2e", "a-1/a..b.zip", "a-1/cover?.png",
    ])
    func acceptsRelativeNamesInside(path: String) throws {
        let safe = try #require(SafeRelativePath(path))
        #expect(safe.string == path)
        #expect(SafeRelativePath.problem(in: path) == nil)
    }

    @Test(arguments: [
        ("", SafeRelativePath.Problem.empty),
        ("/etc/passwd", .absolute),
        ("../etc/passwd", .parent),
        ("a-1/../../etc/passwd", .parent),
        ("a-1/..", .parent),
        ("a-1//a-1.zip", .emptyComponent),
        ("a-1/", .emptyComponent),
        ("./a-1.zip", .hidden),
        ("a-1/.", .hidden),
        (".newsstand-publish.json", .hidden),
        ("a-1/.newsstand/manifest.json", .hidden),
        (".htaccess", .hidden),
        ("a-1\\..\\..\\x", .backslash),
        ("..\\x", .hidden),
        ("http://evil.example/x", .colon),
        ("http:x", .colon),
        ("C:/Windows/x", .colon),
        ("a-1/a\u{0}b", .control),
        ("a-1/a\nb", .control),
        ("a-1/\u{1B}[2Ka", .control),
        ("a-1/cover\u{202E}gnp.exe", .control),
        (String(repeating: "a", count: 256), .tooLong),
        (Array(repeating: "a", count: 17).joined(separator: "/"), .tooLong),
        (Array(repeating: String(repeating: "b", count: 200), count: 6).joined(separator: "/"), .tooLong),
    ])
    func rejectsNamesThatLeaveTheFolder(path: String, problem: SafeRelativePath.Problem) {
        #expect(SafeRelativePath(path) == nil)
        #expect(SafeRelativePath.problem(in: path) == problem)
    }

    @Test func oneComponentAtATime() {
        #expect(SafeRelativePath.isSafeComponent("a-1.zip"))
        #expect(SafeRelativePath.componentProblem("a/b") == .separator)
        #expect(SafeRelativePath.componentProblem("..") == .parent)
        #expect(SafeRelativePath.componentProblem(".") == .hidden)
    }

    @Test func issueNamesAreSafeComponentsFirst() {
        // Every safe issue name is a safe component; the issue-name rule only narrows it.
        for name in ["f-2", "2013_11", "a.b", "A-1"] {
            #expect(IssueName.isSafe(name) && SafeRelativePath.isSafeComponent(name))
        }
        for name in ["..", ".", ".hidden", "a\\b", "a:b", "a\u{0}"] {
            #expect(!IssueName.isSafe(name) && !SafeRelativePath.isSafeComponent(name))
        }
        #expect(SafeRelativePath.isSafeComponent("a b") && !IssueName.isSafe("a b"))
        #expect(!IssueName.isSafe(String(repeating: "a", count: 129)))
    }

    @Test func quotesHostileNamesHarmlessly() {
        #expect(SafeRelativePath.quoted("a\u{1B}[2K\nb") == "'a\\u{1b}[2K\\u{a}b'")
        #expect(SafeRelativePath.quoted("it's") == "'it\\'s'")
    }
}
