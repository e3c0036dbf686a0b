// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Newsstand",
    products: [
        .executable(name: "newsstand", targets: ["newsstand"]),
        .library(name: "NewsstandFormat", targets: ["NewsstandFormat"]),
        .library(name: "NewsstandBuild", targets: ["NewsstandBuild"]),
    ],
    targets: [
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "NewsstandFormat", dependencies: ["CXML2", "CCrypto"]),
        .target(name: "NewsstandArchive", dependencies: ["CArchive"]),
        .target(name: "NewsstandBuild", dependencies: ["NewsstandFormat", "NewsstandArchive"]),
        .target(name: "NewsstandCLI", dependencies: ["NewsstandFormat", "NewsstandBuild"]),
        .executableTarget(name: "newsstand", dependencies: ["NewsstandCLI"]),
        .testTarget(name: "NewsstandFormatTests", dependencies: ["NewsstandFormat"]),
        .testTarget(
            name: "NewsstandBuildTests",
            dependencies: ["NewsstandBuild", "NewsstandFormat", "NewsstandArchive"],
            resources: []
        ),
        .testTarget(name: "NewsstandCLITests", dependencies: ["NewsstandFormat"]),
    ],
    swiftLanguageModes: [.v6]
)
