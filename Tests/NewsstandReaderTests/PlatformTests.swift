import Foundation
import NewsstandTestSupport
import Testing

/// The reader stays an Apple-platform library: for iOS its target closure (as `swift package
/// dump-package` resolves it) reaches no C library an Apple SDK lacks, its sources name nothing
/// Linux-only and no API above the declared platforms outside the islands ARCHITECTURE.md lists
/// (one `#if` each), and its public API speaks only its own and the core's types. None of this
/// compiles anything for Apple platforms (there is no SDK here): it keeps what a Mac would refuse
/// from coming back unseen.
@Suite("Apple platforms", .tags(.needsTools))
struct PlatformTests {
    /// The modules an app embeds.
    static let roots = ["NewsstandReader", "NewsstandReaderObservation"]

    /// A target of `Package.swift`, as `swift package dump-package` gives it.
    struct Target {
        var name: String
        var type: String
        var path: String?
        var pkgConfig: String?
        /// Dependencies with the platforms they are limited to (nil: every platform).
        var dependencies: [(name: String, platforms: [String]?)]
        var linkedLibraries: [String]
    }

    static func package() throws -> (targets: [String: Target], platforms: [String: String]) {
        // A scratch folder of its own: `swift test` holds the package's `.build` lock while it runs.
        let scratch = try Shell.temporaryFolder("dump-package")
        let dump = try Shell.run(
            "swift", ["package", "--package-path", Shell.repositoryRoot.path, "--scratch-path", scratch.path, "dump-package"])
        try #require(dump.status == 0, "\(dump.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var targets: [String: Target] = [:]
        for target in json["targets"] as? [[String: Any]] ?? [] {
            let name = try #require(target["name"] as? String)
            var dependencies: [(String, [String]?)] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                guard let reference = (dependency["byName"] ?? dependency["target"] ?? dependency["product"]) as? [Any],
                    let dependencyName = reference.first as? String
                else { continue }
                let condition = reference.dropFirst().first as? [String: Any]
                dependencies.append((dependencyName, condition?["platformNames"] as? [String]))
            }
            let libraries = (target["settings"] as? [[String: Any]] ?? []).compactMap {
                (($0["kind"] as? [String: Any])?["linkedLibrary"] as? [String: Any])?["_0"] as? String
            }
            targets[name] = Target(
                name: name, type: target["type"] as? String ?? "", path: target["path"] as? String,
                pkgConfig: target["pkgConfig"] as? String, dependencies: dependencies, linkedLibraries: libraries)
        }
        var platforms: [String: String] = [:]
        for platform in json["platforms"] as? [[String: Any]] ?? [] {
            if let name = platform["platformName"] as? String { platforms[name] = platform["version"] as? String }
        }
        return (targets, platforms)
    }

    /// Every target `roots` reach on `platform`.
    static func closure(on platform: String, in targets: [String: Target]) -> [Target] {
        var seen: Set<String> = []
        var pending = roots
        var reached: [Target] = []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let target = targets[name] else { continue }
            reached.append(target)
            pending += target.dependencies.filter { $0.platforms?.contains(platform) ?? true }.map(\.name)
        }
        return reached.sorted { $0.name < $1.name }
    }

    @Test func onIOSTheReaderReachesNoCLibraryAnAppleSDKLacks() throws {
        let (targets, platforms) = try Self.package()
        #expect(platforms == ["ios": "15.0", "macos": "12.0"])
        // What Apple's SDKs have besides their frameworks: zlib, SQLite (as the SQLite3 module),
        // the C++ runtime.
        let sdkLibraries: Set<String> = ["z", "sqlite3", "c++"]
        for platform in ["ios", "macos"] {
            for target in Self.closure(on: platform, in: targets) {
                let foreign: [String] =
                    (target.type == "system" ? [target.pkgConfig ?? target.name] : [])
                    + target.linkedLibraries.filter { !sdkLibraries.contains($0) }
                guard !foreign.isEmpty else { continue }
                Issue.record("on \(platform) the reader reaches \(target.name), which needs \(foreign): no Apple SDK has it")
            }
        }
        let linux = Set(Self.closure(on: "linux", in: targets).map(\.name))
        #expect(linux.isSuperset(of: ["CSQLite", "CCrypto"]), "the Linux build keeps its own libraries")
        #expect(!linux.contains("CCurl"), "the reader reaches libcurl: only the CLI's NewsstandCurl may")
    }

    /// A file of the closure's sources with its text.
    struct Source {
        var path: String
        var text: String
    }

    static func closureSources() throws -> [Source] {
        let (targets, _) = try package()
        let root = Shell.repositoryRoot
        var sources: [Source] = []
        for target in closure(on: "ios", in: targets) where target.type == "regular" {
            let folder = root.appendingPathComponent(target.path ?? "Sources/\(target.name)")
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let relative = String(url.path.dropFirst(root.appendingPathComponent("Sources").path.count + 1))
                sources.append(Source(path: relative, text: try String(contentsOf: url, encoding: .utf8)))
            }
        }
        return sources.sorted { $0.path < $1.path }
    }

    /// The island files, from ARCHITECTURE.md's table (`| NewsstandReader/Platform/… | …`).
    static func islands() throws -> Set<String> {
        let text = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        return Set(
            text.split(separator: "\n").filter { $0.hasPrefix("| Newsstand") && $0.contains(".swift |") }.compactMap {
                $0.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) }
            })
    }

    /// Names that exist only on Linux (glibc, our Linux-only system libraries) or only above the
    /// reader's floor (iOS 15, macOS 12), each with why it is refused.
    static let refused: [(pattern: String, why: String)] = [
        (#"\bst_[mca]tim\b"#, "glibc's stat field name (Darwin: st_mtimespec)"),
        (#"UInt64\(\w+\.st_(dev|ino)\)"#, "dev_t is a signed 32-bit number on Darwin: UInt64(_:) traps on a negative one"),
        (
            #"\b(posix_fadvise|O_TMPFILE|renameat2|statx|fallocate|sendfile|copy_file_range|syncfs|pipe2|SOCK_CLOEXEC|fdatasync|uselocale|newlocale|malloc_trim|mallopt|prctl|epoll_\w+|inotify_\w+|O_PATH|AT_EMPTY_PATH|MSG_NOSIGNAL)\b"#,
            "Linux-only (or with Linux-only semantics)"
        ),
        (
            #"\b(import|canImport\()\s*(Glibc|Musl|CSQLite|CCurl|CCrypto|CArchive|CXML2|FoundationNetworking|SQLite3|CryptoKit|os)\b"#,
            "a platform's own module"
        ),
        (#"\bcsqlite_\w+"#, "the Linux shim's function"),
        (#"String\(validating:"#, "iOS 18 / macOS 15"),
        (#"\b(Mutex|Atomic)<|import Synchronization"#, "iOS 18 / macOS 15"),
        (#"Task\.sleep\(for:|\bDuration\b|\b(ContinuousClock|SuspendingClock)\b"#, "iOS 16 / macOS 13"),
        (
            #"URL\(filePath:|\.appending\((path|component|components):|URL\.(documentsDirectory|temporaryDirectory|homeDirectory)"#,
            "iOS 16 / macOS 13"
        ),
        (#"\.formatted\(|\bRegex\b|import RegexBuilder|\.firstRange\(of:|\.ranges\(of:|\.trimmingPrefix\("#, "iOS 16 / macOS 13"),
        (#"withDiscardingTaskGroup|withThrowingDiscardingTaskGroup"#, "iOS 17 / macOS 14"),
        (#"Task\.immediate|\bInlineArray\b|\bSpan<"#, "iOS 26 / macOS 26"),
        // Language features newer than the `swift-tools-version` Package.swift declares (6.0):
        // Xcode 16's Swift 6.0 and 6.1 would refuse them.
        (#"\bweak\s+let\b"#, "Swift 6.2 (SE-0481), above the declared tools version 6.0"),
        (#"nonisolated\(nonsending\)|@concurrent\b"#, "Swift 6.2 (SE-0461), above the declared tools version 6.0"),
        (#"\bisolated\s+deinit\b"#, "Swift 6.2 (SE-0371), above the declared tools version 6.0"),
        (#"@abi\("#, "Swift 6.2 (SE-0476), above the declared tools version 6.0"),
    ]

    /// The privacy manifest App Store Connect asks of an SDK that uses required-reason APIs: read
    /// with Python's `plistlib`, it declares file timestamps and disk space with reasons Apple
    /// lists for them, no tracking, no collected data; and the reader's target copies it.
    @Test func thePrivacyManifestDeclaresTheRequiredReasonAPIsAndShipsWithTheReader() throws {
        let manifest = Shell.repositoryRoot.appendingPathComponent("Sources/NewsstandReader/PrivacyInfo.xcprivacy")
        let read = try Shell.python(
            """
            import json, plistlib, sys
            with open(sys.argv[1], "rb") as f:
                print(json.dumps(plistlib.load(f)))
            """, [manifest.path])
        try #require(read.status == 0, "\(read.stderr)")
        let plist = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false)
        #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        var reasons: [String: [String]] = [:]
        for entry in plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? [] {
            if let type = entry["NSPrivacyAccessedAPIType"] as? String {
                reasons[type] = entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []
            }
        }
        // Apple's reasons: files in the app's or its group's container; enough space to write.
        #expect(reasons["NSPrivacyAccessedAPICategoryFileTimestamp"] == ["C617.1"])
        #expect(reasons["NSPrivacyAccessedAPICategoryDiskSpace"] == ["E174.1"])
        #expect(reasons.count == 2, "\(reasons)")

        let scratch = try Shell.temporaryFolder("dump-package")
        let dump = try Shell.run(
            "swift", ["package", "--package-path", Shell.repositoryRoot.path, "--scratch-path", scratch.path, "dump-package"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let reader = (json["targets"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "NewsstandReader" }
        let resources = (reader?["resources"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(resources == ["PrivacyInfo.xcprivacy"])
    }

    @Test func theReadersSourcesNameNothingLinuxOnlyOrTooNewOutsideItsIslands() throws {
        let sources = try Self.closureSources()
        let islands = try Self.islands()
        #expect(sources.count > 50, "the closure's sources were found: \(sources.count)")
        #expect(
            !islands.isEmpty && islands.isSubset(of: Set(sources.map(\.path))),
            "every island is a file of the closure: \(islands.subtracting(sources.map(\.path)))")
        let conditional = try NSRegularExpression(
            pattern: #"^\s*#(if|elseif)\b.*\b(os|canImport|arch|targetEnvironment)\("#, options: .anchorsMatchLines)
        let checks = try Self.refused.map { (try NSRegularExpression(pattern: $0.pattern), $0.why) }
        let comments = try NSRegularExpression(pattern: #"//[^\n]*|/\*[\s\S]*?\*/"#)
        // Where URLSession lives on Linux: a file using its types imports FoundationNetworking
        // there, and nothing else may follow the condition (ARCHITECTURE.md says so under the table).
        let networkingImport = try NSRegularExpression(
            pattern: #"#if canImport\(FoundationNetworking\)\s*\n\s*import FoundationNetworking\s*\n\s*#endif"#)
        for var source in sources {
            // Code only: a comment may name what it avoids.
            for expression in [comments, networkingImport] {
                source.text = expression.stringByReplacingMatches(
                    in: source.text, range: NSRange(source.text.startIndex..., in: source.text), withTemplate: "")
            }
            let range = NSRange(source.text.startIndex..., in: source.text)
            let conditionals = conditional.numberOfMatches(in: source.text, range: range)
            if islands.contains(source.path) {
                #expect(conditionals == 1, "\(source.path) is an island: one #if, not \(conditionals)")
                continue
            }
            #expect(conditionals == 0, "\(source.path) has a platform #if outside the islands (ARCHITECTURE.md)")
            for (expression, why) in checks {
                for match in expression.matches(in: source.text, range: range) {
                    let found = (source.text as NSString).substring(with: match.range)
                    Issue.record("\(source.path): '\(found)': \(why); keep it in an island")
                }
            }
            if source.text.contains("@Observable") {
                #expect(source.text.contains("@available(iOS 17, macOS 14"), "\(source.path): Observation is iOS 17 / macOS 14")
            }
        }
    }

    /// The reader's public declarations (its symbol graph, from the built modules) name types of
    /// the standard library, Foundation, the reader and the core only: an app never has to import
    /// another of our modules to call it.
    @Test func theReadersPublicAPIUsesReaderAndCoreTypesOnly() throws {
        let modules = URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().appendingPathComponent("Modules")
        try #require(
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("NewsstandReader.swiftmodule").path),
            "build first")
        let output = try Shell.temporaryFolder("symbol-graph")
        // CZlib is a C target: SwiftPM writes its module map into the build folder.
        let cModules =
            ["CSQLite", "CCurl", "CCrypto"].flatMap {
                ["-I", Shell.repositoryRoot.appendingPathComponent("Sources/\($0)").path]
            } + ["-I", modules.deletingLastPathComponent().appendingPathComponent("CZlib.build").path]
        let machine = try Shell.run("uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed: Set<String> = [
            "Foundation", "FoundationEssentials", "_Concurrency", "Dispatch", "NewsstandReader", "NewsstandCore",
            "NewsstandReaderObservation", "Observation",
        ]
        for module in Self.roots {
            let extract = try Shell.run(
                "swift-symbolgraph-extract",
                ["-module-name", module, "-I", modules.path] + cModules
                    + ["-target", "\(machine)-unknown-linux-gnu", "-minimum-access-level", "public", "-output-dir", output.path])
            try #require(extract.status == 0, "\(extract.stderr)")
            let graph = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("\(module).symbols.json")))
                    as? [String: Any])
            for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let signature = symbol["functionSignature"] as? [String: Any]
                let fragments =
                    (symbol["declarationFragments"] as? [[String: Any]] ?? [])
                    + ((signature?["parameters"] as? [[String: Any]]) ?? []).flatMap {
                        $0["declarationFragments"] as? [[String: Any]] ?? []
                    }
                    + (signature?["returns"] as? [[String: Any]] ?? [])
                for fragment in fragments where fragment["kind"] as? String == "typeIdentifier" {
                    guard let identifier = fragment["preciseIdentifier"] as? String, let owner = Self.module(of: identifier)
                    else { continue }
                    if allowed.contains(owner) { continue }
                    Issue.record("\(module).\(path) names \(fragment["spelling"] ?? "?") of \(owner)")
                }
            }
        }
    }

    /// The module a Swift symbol's mangled identifier belongs to (`s:15NewsstandReader…`), nil
    /// for the standard library's (`s:S…`, `s:s…`) and for C declarations (`c:…`).
    static func module(of identifier: String) -> String? {
        guard identifier.hasPrefix("s:") else { return nil }
        let rest = identifier.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        guard let length = Int(digits) else { return nil }
        return String(rest.dropFirst(digits.count).prefix(length))
    }
}
