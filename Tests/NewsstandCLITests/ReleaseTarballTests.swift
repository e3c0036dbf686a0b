import Foundation
import NewsstandTestSupport
import Testing

/// `make dist`'s tarball, unpacked into an empty folder, runs where Swift is not installed:
/// `env -i`, no Swift on PATH, LD_LIBRARY_PATH empty, and no Swift library it links.
@Suite(.tags(.needsTools)) struct ReleaseTarballTests {
    /// The system libraries the binary names (`readelf -d`), as docs/installing.md lists them (and the
    /// dynamic loader, `ld-linux-<arch>`, also from libc6).
    static let neededLibraries: Set<String> = [
        "libarchive.so.13", "libxml2.so.2", "libcrypto.so.3", "libstdc++.so.6", "libm.so.6",
        "libgcc_s.so.1", "libc.so.6", "libxxhash.so.0", "libsqlite3.so.0", "libgobject-2.0.so.0",
        "libglib-2.0.so.0", "libjpeg.so.62", "libz.so.1",
    ]
    /// The libraries it opens when first needed (`dlopen`), also listed in docs/installing.md.
    static let openedLibraries: Set<String> = ["libvips.so.42", "libcurl.so.4"]

    @Test func theTarballHoldsTheBinaryTemplatesManPageAndCompletionsWithItsChecksum() async throws {
        let root = try await ReleaseTarball.unpacked()
        let version = try await Shell.runOffPool(root.appendingPathComponent("bin/newsstand").path, ["--version"])
        let name = root.lastPathComponent
        #expect(name.hasPrefix("newsstand-") && name.contains("-linux-"), "\(name)")
        #expect(
            name
                == "newsstand-\(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("newsstand ".count))-linux-\(try await Shell.runOffPool("uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))"
        )
        for file in [
            "bin/newsstand", "share/newsstand/templates/page-classes.plist", "share/newsstand/templates/ci/github.yml",
            "share/newsstand/templates/ci/gitlab.yml", "share/newsstand/templates/preview/index.html",
            "share/man/man1/newsstand.1", "share/bash-completion/completions/newsstand",
            "share/zsh/site-functions/_newsstand", "share/fish/vendor_completions.d/newsstand.fish",
        ] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file) is missing")
        }
        let tarball = URL(fileURLWithPath: try ReleaseTarball.path())
        let sums = try await Shell.runOffPool(
            "sha256sum", ["--check", "--strict", "SHA256SUMS"], in: tarball.deletingLastPathComponent())
        #expect(sums.status == 0 && sums.stdout == "\(tarball.lastPathComponent): OK\n", "\(sums.stdout)\(sums.stderr)")
    }

    @Test func theBinaryLinksNoSwiftLibraryAndOnlyTheListedSystemOnes() async throws {
        let binary = try await ReleaseTarball.unpacked().appendingPathComponent("bin/newsstand").path
        let ldd = try await ReleaseTarball.runIsolated("/usr/bin/ldd", [binary], in: try Shell.temporaryFolder("ldd"))
        #expect(ldd.status == 0, "\(ldd.stderr)")
        #expect(!ldd.stdout.contains("swift") && !ldd.stdout.contains("/opt/"), "\(ldd.stdout)")
        #expect(!ldd.stdout.contains("not found"), "\(ldd.stdout)")
        let readelf = try await Shell.runOffPool("readelf", ["-d", binary])
        let needed = Set(
            readelf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line -> String? in
                guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            })
        #expect(needed.filter { !$0.hasPrefix("ld-linux") } == Self.neededLibraries, "NEEDED: \(needed.sorted())")
        let readme = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("docs/installing.md"), encoding: .utf8)
        for library in Self.neededLibraries.union(Self.openedLibraries) {
            #expect(readme.contains("`\(library)`"), "docs/installing.md does not list \(library)")
        }
    }

    /// libcurl is opened when a command first makes a request (CCurl), not at start: with a file
    /// that is no library first on the library path as `libcurl.so.4`, validation runs, and a
    /// command that makes a request fails with the loader's reason instead of crashing. (Not a
    /// build of the sample: its derived images open libvips, whose own dependencies link libcurl.)
    @Test func libcurlIsOpenedOnlyByACommandThatMakesARequest() async throws {
        let binary = try await ReleaseTarball.unpacked().appendingPathComponent("bin/newsstand").path
        let work = try Shell.temporaryFolder("lazy-curl")
        let libraries = work.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: libraries.appendingPathComponent("libcurl.so.4"))
        let environment = ["LD_LIBRARY_PATH": libraries.path]
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        let validate = try await ReleaseTarball.runIsolated(binary, ["validate", sample], environment: environment, in: work)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let refresh = try await ReleaseTarball.runIsolated(
            binary, ["library", "shelf", "refresh", "http://127.0.0.1:9/issues.plist"], environment: environment, in: work)
        #expect(refresh.status != 0, "\(refresh.stdout)\(refresh.stderr)")
        #expect(
            (refresh.stdout + refresh.stderr).contains("libcurl could not be opened: \(libraries.path)/libcurl.so.4"),
            "\(refresh.stdout)\(refresh.stderr)")
    }

    @Test func initValidateBuildAndPreviewRunWithoutSwift() async throws {
        let binary = try await ReleaseTarball.unpacked().appendingPathComponent("bin/newsstand").path
        let work = try Shell.temporaryFolder("no-swift")
        let before = FolderSnapshot(Shell.repositoryRoot.appendingPathComponent("Samples"))
        // import renders each page in the binary started again: it must find itself.
        try HandMadePDF(pages: [.text("one"), .text("two")]).write(to: work.appendingPathComponent("print.pdf"))
        let steps: [[String]] = [
            ["init", "magazine"],
            ["import", "print.pdf", "magazine", "--issue", "imported", "--title", "Imported", "--date", "2026-12-01"],
            ["validate", "magazine"],
            ["build", "magazine", "--output", "out"],
            ["preview", "magazine", "--output", "site"],
            [
                "build", Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path, "--output", "sample-out", "--feed",
                "atom",
            ],
        ]
        for arguments in steps {
            let result = try await ReleaseTarball.runIsolated(binary, arguments, in: work)
            #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
        }
        for file in ["out/issues.plist", "site/index.html", "sample-out/issues.plist", "sample-out/atom.xml"] {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(file).path), "\(file) was not written")
        }
        let imported = try BuiltIssue("imported", in: work.appendingPathComponent("out"))
        let pages = try await Shell.runOffPool(
            "unzip", ["-Z1", work.appendingPathComponent("out/imported/\(imported.bundle)").path])
        #expect(
            pages.stdout.split(separator: "\n").sorted() == ["1-0.png", "2-0.png", "issue.plist", "pages.plist"],
            "\(pages.stdout)")
        let built = try BuiltIssue("a-1", in: work.appendingPathComponent("sample-out"))
        let unzip = try await Shell.runOffPool(
            "unzip", ["-tq", work.appendingPathComponent("sample-out/a-1/\(built.bundle)").path])
        #expect(unzip.status == 0, "\(unzip.stdout)")
        #expect(FolderSnapshot(Shell.repositoryRoot.appendingPathComponent("Samples")) == before, "the sample changed")
    }
}
