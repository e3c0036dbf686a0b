import Foundation
import NewsstandTestSupport
import Testing

/// A program that uses only the reader and its Linux transport (`ReaderBench`: `NewsstandReader`
/// and `NewsstandCurl`, built by `swift build`) carries neither libarchive, libxml2 nor the build
/// side: what an app embedding `NewsstandReader` gets (libcurl is `NewsstandCurl`'s, opened when
/// its first request runs; the reader's own closure never reaches it, which `PlatformTests` checks). No Apple SDK has libarchive; the
/// reader reads zips with its own code over zlib, which every SDK has. `ldd` must not find
/// libarchive or libxml2 through the program's `NEEDED` entries either.
@Suite(.tags(.needsTools)) struct ReaderOnlyLinkTests {
    static var program: String {
        URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().appendingPathComponent("ReaderBench").path
    }

    @Test func aReaderOnlyProgramLinksNeitherLibarchiveNorLibxml2() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.program), "build ReaderBench first (swift build)")
        let elf = try Shell.run("readelf", ["-d", Self.program])
        #expect(elf.status == 0, "\(elf.stderr)")
        let needed = elf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libz.so") }, "\(needed)")
        #expect(!needed.contains { $0.contains("libarchive") }, "the reader links libarchive: \(needed)")
        #expect(!needed.contains { $0.contains("libxml2") }, "the reader links libxml2 itself: \(needed)")
        let ldd = try Shell.run("ldd", [Self.program])
        #expect(ldd.status == 0, "\(ldd.stderr)")
        #expect(!ldd.stdout.contains("libarchive"), "libarchive is loaded through a dependency: \(ldd.stdout)")
        #expect(!ldd.stdout.contains("libxml2"), "libxml2 is loaded through a dependency: \(ldd.stdout)")
    }

    @Test func aReaderOnlyProgramHoldsNoBuildCode() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.program), "build ReaderBench first (swift build)")
        let symbols = try Shell.run("nm", [Self.program])
        #expect(symbols.status == 0, "\(symbols.stderr)")
        // Swift mangles a module's name with its length: 15NewsstandReader, 14NewsstandBuild, …
        #expect(symbols.stdout.contains("15NewsstandReader"), "the reader's code is in the program")
        for module in ["NewsstandFormat", "NewsstandBuild", "NewsstandPublish", "NewsstandPreview", "NewsstandCLI"] {
            #expect(!symbols.stdout.contains("\(module.count)\(module)"), "\(module) is linked into a reader-only program")
        }
    }
}
