// swift-tools-version:6.0
import Foundation
import PackageDescription

// The module graph and what each module may import are described in ARCHITECTURE.md.
let package = Package(
    name: "Newsstand",
    // What an app embeds (NewsstandReader and what it depends on) builds for these; the floor is
    // the first release with URLSession's async API and the concurrency runtime in the OS
    // (ARCHITECTURE.md, "The reader on Apple platforms"). Linux builds are not affected.
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .executable(name: "newsstand", targets: ["newsstand"]),
        .library(name: "NewsstandCore", targets: ["NewsstandCore"]),
        .library(name: "NewsstandFormat", targets: ["NewsstandFormat"]),
        .library(name: "NewsstandBuild", targets: ["NewsstandBuild"]),
        .library(name: "NewsstandPublish", targets: ["NewsstandPublish"]),
        .library(name: "NewsstandPreview", targets: ["NewsstandPreview"]),
        .library(name: "NewsstandReader", targets: ["NewsstandReader"]),
        .library(name: "NewsstandReaderObservation", targets: ["NewsstandReaderObservation"]),
        .library(name: "NewsstandImaging", targets: ["NewsstandImaging"]),
    ],
    targets: [
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libcurl's headers (libcurl4-openssl-dev); on Linux the library itself is opened on first
        // use, not linked (CCurl.h says why), on Apple platforms linked.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl", .when(platforms: [.macOS]))]),
        // XXH3-128: the build records' change detector for inputs (not a cryptographic hash; the
        // catalog keeps SHA-256).
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        // The reader's state on Linux; Apple platforms have the same library as `SQLite3`.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // What the reader and the build share: catalog model, names, plist values, SHA-256, files.
        // Foundation only; SHA-256 from CryptoKit on Apple platforms, libcrypto on Linux.
        // zlib: in every Apple SDK and on Linux. A plain C target (not a pkg-config system
        // library, which cannot be built for iOS) whose header wraps the macros Swift cannot
        // import (`inflateInit2`); the reader's zip code inflates with it.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(
            name: "NewsstandCore",
            dependencies: ["CZlib", .target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        // libvips' headers are in /usr/include/vips and need only GLib's: pkg-config for "vips"
        // also lists every private dependency's flags, among them -pthread, which SwiftPM warns
        // about on every build. gobject-2.0 gives exactly the GLib include paths (and links GLib).
        .systemLibrary(name: "CGObject", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        // libvips through dlopen, when an image is first worked on (CVips.h says why).
        .target(name: "CVips", dependencies: ["CGObject"]),
        // Lossless JPEG rewriting needs libjpeg's setjmp/longjmp error handling: plain C.
        .target(name: "CJPEGLossless", linkerSettings: [.linkedLibrary("jpeg")]),
        // The zip writer's CRC-32: zlib's value, with carry-less multiplication on x86-64 (plain C).
        .target(name: "CCRC32", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "NewsstandArchive", dependencies: ["CArchive", "CCRC32"]),
        .target(name: "NewsstandFormat", dependencies: ["CXML2", "NewsstandCore"]),
        // NewsstandImaging: normal sizes derived from @2x masters and `build --optimize`.
        .target(
            name: "NewsstandBuild",
            dependencies: ["NewsstandFormat", "NewsstandArchive", "NewsstandCore", "CXXHash", "NewsstandImaging"]),
        // Publishing drives WebDAV with libcurl directly, on every platform (see HTTPExchange).
        .target(name: "NewsstandPublish", dependencies: ["NewsstandBuild", "NewsstandCore", "NewsstandProcess", "CCurl"]),
        // Running programs (posix_spawnp, a process group, deadlines): the build and publish side
        // only; an app embedding the reader never starts a process (iOS does not allow it).
        .target(name: "NewsstandProcess", dependencies: ["NewsstandCore"]),
        .target(name: "NewsstandPreview", dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandCore"]),
        // What an app embeds: never NewsstandFormat, NewsstandBuild, libarchive or libxml2.
        .target(
            name: "NewsstandReader",
            dependencies: [
                "NewsstandCore", .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ],
            // The privacy manifest App Store Connect asks of an SDK using required-reason APIs:
            // file timestamps (stat, in the reader and NewsstandCore, on files in the app's or its
            // group's container: C617.1) and free disk space (before a download: E174.1).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // Background downloads on Linux: an aria2c daemon behind the reader's public `TransferEngine`
        // protocol, as a third party would write an engine. The CLI owns it; an app never links it.
        .target(name: "NewsstandAria2", dependencies: ["NewsstandReader", "NewsstandCore"]),
        // The reader's requests on libcurl, which the CLI uses on Linux (FoundationNetworking's
        // URLSession has no back-pressure there); an app keeps URLSession and never links it.
        .target(
            name: "NewsstandCurl",
            dependencies: ["NewsstandReader", "NewsstandCore", .target(name: "CCurl", condition: .when(platforms: [.linux]))]),
        // The shelf as an @Observable model for SwiftUI (iOS 17, macOS 14): a module of its own, so
        // that an app on an older system links the reader without the Observation framework.
        .target(name: "NewsstandReaderObservation", dependencies: ["NewsstandReader", "NewsstandCore"]),
        // The imaging engine (libvips): derived normal sizes, lossless optimisation, PDF pages.
        .target(name: "NewsstandImaging", dependencies: ["CVips", "CJPEGLossless"]),
        // What the import's page renderer process needs from C: glibc functions Swift cannot see,
        // prctl, and the allocation watch, which replaces malloc in any program linking it.
        .target(name: "CChildProcess"),
        // `newsstand import`: a print PDF or a folder of page images into a new issue.
        .target(
            name: "NewsstandImport",
            dependencies: ["NewsstandImaging", "NewsstandBuild", "NewsstandFormat", "NewsstandCore", "CChildProcess"]),
        .target(
            name: "NewsstandCLI",
            dependencies: [
                "NewsstandCore", "NewsstandFormat", "NewsstandBuild", "NewsstandPublish", "NewsstandPreview", "NewsstandReader",
                "NewsstandAria2", "NewsstandCurl", "NewsstandImport", "NewsstandProcess",
            ]),
        .executableTarget(name: "newsstand", dependencies: ["NewsstandCLI", "NewsstandImaging", "NewsstandImport"]),
        // Times the reader library's operations for bench/reader; also the program that shows
        // what an app using only the reader links (ReaderOnlyLinkTests).
        .executableTarget(name: "ReaderBench", dependencies: ["NewsstandReader", "NewsstandCurl"], path: "bench/ReaderBench"),
        // The fuzz targets' checks: one entry point per parser, bytes in, a broken invariant out.
        // The fuzzers (below, with NEWSSTAND_FUZZ) and FuzzRegressionTests both run them.
        .target(
            name: "FuzzChecks",
            dependencies: ["NewsstandCore", "NewsstandFormat", "NewsstandArchive", "NewsstandBuild", "NewsstandPublish"],
            path: "Fuzz/FuzzChecks"),
        // Runs the imaging engine over folders for bench/imaging and the determinism tests.
        .executableTarget(name: "ImagingBench", dependencies: ["NewsstandImaging"], path: "bench/ImagingBench"),
        // Starts an aria2 job and waits to be killed: the daemon must outlive it (Aria2RecoveryTests).
        .executableTarget(name: "Aria2Probe", dependencies: ["NewsstandReader", "NewsstandAria2"], path: "Tests/Aria2Probe"),
        // The app the stand-in OS transfer service launches, kills and wakes (StandInServiceTests).
        .executableTarget(
            name: "StandInApp", dependencies: ["NewsstandReader", "NewsstandCurl", "NewsstandCore"], path: "Tests/StandInApp"),
        // The exec wrapper every child a test starts goes through (TestChild): the parent-death signal;
        // for a server (nginx, Python), the parent that kills its process group when the test process ends.
        .executableTarget(name: "TestChildGuard", path: "Tests/TestChildGuard"),
        // A test process to kill (KilledTestRunTests): its servers and folder must not outlive it.
        .executableTarget(name: "TestRunProbe", dependencies: ["NewsstandTestSupport"], path: "Tests/TestRunProbe"),
        .target(
            name: "NewsstandTestSupport", dependencies: ["NewsstandCore", "NewsstandProcess"], path: "Tests/NewsstandTestSupport",
            exclude: ["Scripts"]),
        .target(
            name: "NewsstandBuildTestSupport",
            dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandCore", "NewsstandTestSupport"],
            path: "Tests/NewsstandBuildTestSupport"),
        .testTarget(name: "NewsstandCoreTests", dependencies: ["NewsstandCore", "NewsstandProcess", "NewsstandTestSupport"]),
        .testTarget(name: "NewsstandFormatTests", dependencies: ["NewsstandFormat", "NewsstandCore", "NewsstandTestSupport"]),
        .testTarget(
            name: "NewsstandArchiveTests",
            dependencies: ["NewsstandArchive", "NewsstandCore", "NewsstandTestSupport", "CCRC32", "CZlib"],
            exclude: ["ZipStreamCheck.java"]
        ),
        .testTarget(
            name: "NewsstandBuildTests",
            dependencies: [
                "NewsstandBuild", "NewsstandFormat", "NewsstandCore", "NewsstandTestSupport", "NewsstandBuildTestSupport",
                "NewsstandImaging", "CZlib",
            ]
        ),
        .testTarget(
            name: "NewsstandPublishTests",
            dependencies: [
                "NewsstandPublish", "NewsstandBuild", "NewsstandCore", "NewsstandPreview", "NewsstandTestSupport",
                "NewsstandBuildTestSupport",
            ]),
        .testTarget(
            name: "NewsstandPreviewTests",
            dependencies: [
                "NewsstandPreview", "NewsstandBuild", "NewsstandFormat", "NewsstandCore", "NewsstandTestSupport",
                "NewsstandBuildTestSupport",
            ],
            exclude: ["browser_check.py"]
        ),
        .testTarget(
            name: "NewsstandReaderTests",
            dependencies: [
                "NewsstandReader", "NewsstandReaderObservation", "NewsstandAria2", "NewsstandCurl", "NewsstandCore",
                "NewsstandTestSupport",
            ],
            exclude: ["Scripts", "docc_check.py"]
        ),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzChecks"]),
        .testTarget(
            name: "NewsstandImportTests",
            dependencies: ["NewsstandImport", "NewsstandImaging", "NewsstandCore", "NewsstandTestSupport"]),
        .testTarget(
            name: "NewsstandImagingTests", dependencies: ["NewsstandImaging", "NewsstandTestSupport"], exclude: ["Scripts"]
        ),
        .testTarget(
            name: "NewsstandCLITests",
            dependencies: [
                "NewsstandCLI", "NewsstandCore", "NewsstandFormat", "NewsstandImport", "NewsstandProcess", "NewsstandTestSupport",
            ],
            exclude: ["pipeline_runner.py", "zsh_completion_probe.zsh", "Channels", "Scripts"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer executables (`make fuzz`), declared only when NEWSSTAND_FUZZ is set: they link
// libFuzzer's driver, which a normal build does not have (see Fuzz/README.md).
if ProcessInfo.processInfo.environment["NEWSSTAND_FUZZ"] != nil {
    for name in [
        "FuzzPlist", "FuzzPageConfig", "FuzzImageHeader", "FuzzCatalog", "FuzzZipExtract", "FuzzZipRecord", "FuzzRecords",
        "FuzzBundleStream",
    ] {
        package.targets.append(.executableTarget(name: name, dependencies: ["FuzzChecks"], path: "Fuzz/\(name)"))
    }
}
