// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Newsstand",
    products: [
        .executable(name: "newsstand", targets: ["newsstand"]),
        .library(name: "NewsstandFormat", targets: ["NewsstandFormat"]),
        .library(name: "NewsstandBuild", targets: ["NewsstandBuild"]),
        .library(name: "NewsstandReader", targets: ["NewsstandReader"]),
    ],
    targets: [
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "NewsstandFormat", dependencies: ["CXML2", "CCrypto"]),
        .target(name: "NewsstandArchive", dependencies: ["CArchive"]),
        // Publishing drives WebDAV with libcurl directly, on every platform (see HTTPExchange).
        .target(name: "NewsstandBuild", dependencies: ["NewsstandFormat", "NewsstandArchive", "CCurl"]),
        .target(
            name: "NewsstandReader",
            dependencies: ["NewsstandFormat", "NewsstandArchive", .target(name: "CCurl", condition: .when(platforms: [.linux]))]
        ),
        .target(name: "NewsstandCLI", dependencies: ["NewsstandFormat", "NewsstandBuild", "NewsstandReader"]),
        .executableTarget(name: "newsstand", dependencies: ["NewsstandCLI"]),
        // Times the reader library's operations for bench/reader.
        .executableTarget(name: "ReaderBench", dependencies: ["NewsstandReader", "NewsstandArchive"], path: "bench/ReaderBench"),
        .target(name: "NewsstandTestSupport", path: "Tests/NewsstandTestSupport"),
        .testTarget(name: "NewsstandFormatTests", dependencies: ["NewsstandFormat"]),
        .testTarget(
            name: "NewsstandArchiveTests",
            dependencies: ["NewsstandArchive", "NewsstandTestSupport"],
            exclude: ["ZipStreamCheck.java"]
        ),
        .testTarget(
            name: "NewsstandBuildTests",
            dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandArchive", "NewsstandTestSupport"]
        ),
        .testTarget(
            name: "NewsstandReaderTests",
            dependencies: ["NewsstandReader", "NewsstandFormat", "NewsstandArchive", "NewsstandTestSupport"]
        ),
        .testTarget(name: "NewsstandCLITests", dependencies: ["NewsstandFormat", "NewsstandTestSupport"]),
        .testTarget(
            name: "NewsstandPreviewTests",
            dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandTestSupport"],
            exclude: ["browser_check.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
