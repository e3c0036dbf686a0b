// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Newsstand",
    products: [
        .executable(name: "newsstand", targets: ["newsstand"]),
        .library(name: "NewsstandFormat", targets: ["NewsstandFormat"]),
        .library(name: "NewsstandBuild", targets: ["NewsstandBuild"]),
        .library(name: "NewsstandReader", targets: ["NewsstandReader"]),
        .library(name: "NewsstandImaging", targets: ["NewsstandImaging"]),
    ],
    targets: [
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libvips' headers are in /usr/include/vips and need only GLib's: pkg-config for "vips"
        // also lists every private dependency's flags, among them -pthread, which SwiftPM warns
        // about on every build. gobject-2.0 gives exactly the GLib include paths.
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        // Lossless JPEG rewriting needs libjpeg's setjmp/longjmp error handling: plain C.
        .target(name: "CJPEGLossless", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "NewsstandFormat", dependencies: ["CXML2", "CCrypto"]),
        .target(name: "NewsstandArchive", dependencies: ["CArchive"]),
        // Publishing drives WebDAV with libcurl directly, on every platform (see HTTPExchange).
        .target(name: "NewsstandBuild", dependencies: ["NewsstandFormat", "NewsstandArchive", "CCurl"]),
        .target(
            name: "NewsstandReader",
            dependencies: ["NewsstandFormat", "NewsstandArchive", .target(name: "CCurl", condition: .when(platforms: [.linux]))]
        ),
        // The imaging engine (libvips): derived normal sizes, lossless optimisation, PDF pages.
        .target(name: "NewsstandImaging", dependencies: ["CVips", "CJPEGLossless"]),
        .target(name: "NewsstandCLI", dependencies: ["NewsstandFormat", "NewsstandBuild", "NewsstandReader"]),
        .executableTarget(name: "newsstand", dependencies: ["NewsstandCLI"]),
        // Times the reader library's operations for bench/reader.
        .executableTarget(name: "ReaderBench", dependencies: ["NewsstandReader", "NewsstandArchive"], path: "bench/ReaderBench"),
        // Runs the imaging engine over folders for bench/imaging and the determinism tests.
        .executableTarget(name: "ImagingBench", dependencies: ["NewsstandImaging"], path: "bench/ImagingBench"),
        .target(name: "NewsstandTestSupport", path: "Tests/NewsstandTestSupport"),
        .testTarget(name: "NewsstandFormatTests", dependencies: ["NewsstandFormat"]),
        .testTarget(
            name: "NewsstandBuildTests",
            dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandArchive", "NewsstandTestSupport"]
        ),
        .testTarget(
            name: "NewsstandReaderTests",
            dependencies: ["NewsstandReader", "NewsstandFormat", "NewsstandArchive", "NewsstandTestSupport"]
        ),
        .testTarget(
            name: "NewsstandImagingTests", dependencies: ["NewsstandImaging", "NewsstandTestSupport"], exclude: ["Scripts"]
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
