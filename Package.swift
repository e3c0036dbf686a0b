// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Newsstand",
    products: [
        .executable(name: "newsstand", targets: ["newsstand"]),
        .library(name: "NewsstandCore", targets: ["NewsstandCore"]),
        .library(name: "NewsstandFormat", targets: ["NewsstandFormat"]),
        .library(name: "NewsstandBuild", targets: ["NewsstandBuild"]),
        .library(name: "NewsstandReader", targets: ["NewsstandReader"]),
    ],
    targets: [
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // What the reader and the build share: catalog model, names, plist values, SHA-256, files.
        // Foundation only; SHA-256 from CryptoKit on Apple platforms, libcrypto on Linux.
        .target(
            name: "NewsstandCore",
            dependencies: [.target(name: "CCrypto", condition: .when(platforms: [.linux]))]),
        .target(name: "NewsstandFormat", dependencies: ["CXML2", "NewsstandCore"]),
        .target(name: "NewsstandArchive", dependencies: ["CArchive"]),
        // Publishing drives WebDAV with libcurl directly, on every platform (see HTTPExchange).
        .target(name: "NewsstandBuild", dependencies: ["NewsstandFormat", "NewsstandArchive", "NewsstandCore", "CCurl"]),
        .target(
            name: "NewsstandReader",
            dependencies: ["NewsstandCore", "NewsstandArchive", .target(name: "CCurl", condition: .when(platforms: [.linux]))]
        ),
        .target(name: "NewsstandCLI", dependencies: ["NewsstandCore", "NewsstandFormat", "NewsstandBuild", "NewsstandReader"]),
        .executableTarget(name: "newsstand", dependencies: ["NewsstandCLI"]),
        // Times the reader library's operations for bench/reader.
        .executableTarget(name: "ReaderBench", dependencies: ["NewsstandReader", "NewsstandArchive"], path: "bench/ReaderBench"),
        .target(name: "NewsstandTestSupport", path: "Tests/NewsstandTestSupport"),
        .testTarget(name: "NewsstandCoreTests", dependencies: ["NewsstandCore", "NewsstandTestSupport"]),
        .testTarget(name: "NewsstandFormatTests", dependencies: ["NewsstandFormat", "NewsstandCore"]),
        .testTarget(
            name: "NewsstandBuildTests",
            dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandCore", "NewsstandArchive", "NewsstandTestSupport"]
        ),
        .testTarget(
            name: "NewsstandReaderTests",
            dependencies: ["NewsstandReader", "NewsstandCore", "NewsstandArchive", "NewsstandTestSupport"]
        ),
        .testTarget(name: "NewsstandCLITests", dependencies: ["NewsstandCore", "NewsstandFormat", "NewsstandTestSupport"]),
        .testTarget(
            name: "NewsstandPreviewTests",
            dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandCore", "NewsstandTestSupport"],
            exclude: ["browser_check.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
