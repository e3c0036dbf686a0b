import Foundation
import NewsstandArchive
import NewsstandTestSupport
import Testing

#if canImport(Glibc)
    import Glibc

    /// A program that never calls `setlocale` runs in the C locale, where libarchive cannot
    /// convert a UTF-8 entry name. Names are UTF-8 in our bundles whatever the locale of the
    /// build that writes them (the reader's side is `ZipNameTests`, in NewsstandCoreTests).
    @Suite("Entry names written whatever the caller's locale", .timeLimit(.minutes(1)), .tags(.needsTools))
    struct LocaleIndependenceTests {
        /// Runs `body` on this thread in the plain C locale, restoring the thread's locale after.
        private func inCLocale<T>(_ body: () throws -> T) throws -> T {
            let c = try #require(newlocale(LC_CTYPE_MASK, "C", nil))
            let previous = uselocale(c)
            defer {
                uselocale(previous)
                freelocale(c)
            }
            #expect(String(cString: nl_langinfo(nl_item(CODESET))) == "ANSI_X3.4-1968")
            return try body()
        }

        @Test func namesOutsideASCIIAreWrittenInTheCLocale() throws {
            let folder = try Shell.temporaryFolder("locale")
            defer { try? FileManager.default.removeItem(at: folder) }
            let archive = folder.appendingPathComponent("w.zip")
            try inCLocale {
                let writer = try ZipWriter(url: archive) { _ in }
                try writer.addData(
                    Data("x".utf8), as: "assets/été-日本.png", modified: Date(timeIntervalSince1970: 1_772_352_000),
                    compression: .store)
                _ = try writer.close()
            }
            let python = try Shell.python(
                "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).namelist()[0])", [archive.path])
            #expect(python.status == 0, "\(python.stderr)")
            #expect(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "assets/été-日本.png")
        }
    }
#endif
