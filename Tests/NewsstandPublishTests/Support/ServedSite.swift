import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport

/// A fixture magazine whose BaseURL is a real nginx, built into a folder of its own, and
/// published to that nginx's document root (as a folder, or through `/dav/`): what readers
/// are served can then be fetched and checked as a reader would (`ServedMagazine`).
final class ServedSite {
    let nginx: Nginx
    let fixture: MagazineFixture
    let built: URL
    let versioned: Bool

    init(issues: [String] = ["f-1", "f-2", "f-3"], versioned: Bool) throws {
        nginx = try Nginx()
        fixture = try MagazineFixture(issues: issues)
        try fixture.write(
            "magazine.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>Title</key>
                    <string>Fixture</string>
                    <key>BaseURL</key>
                    <string>\(nginx.baseURL.absoluteString)</string>
                </dict>
                """))
        built = try Shell.temporaryFolder("built")
        self.versioned = versioned
        try build()
    }

    func stop() { nginx.stop() }

    /// Builds the fixture into `built`, with a shelf feed (a second catalog to replace).
    func build() throws {
        let (magazine, plans) = try fixture.plans()
        _ = try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: built, jobs: 2, feeds: [.shelf], versioned: versioned)
        ).build(plans)
    }

    /// A new version of the magazine: two issues changed, one removed (so a prune has work).
    func changeMagazine() throws {
        try fixture.image("f-1", "1-0.png", width: 12, height: 20)
        try fixture.image("f-2", "2-0.png", width: 12, height: 20)
        try fixture.remove("issues/f-3")
        try build()
    }

    /// The served catalog's URL.
    var catalogURL: URL { nginx.baseURL.appendingPathComponent("issues.plist") }

    /// The document root's files, by relative path, with their contents' SHA-256.
    func servedFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        let root = nginx.root.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return files
        }
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = String(url.resolvingSymlinksInPath().path.dropFirst(root.path.count + 1))
            files[path] = try SHA256.hex(ofFileAt: url)
        }
        return files
    }

    /// Copies the document root aside, to put it back with `restore(_:)`.
    func snapshot() throws -> URL {
        let copy = try Shell.temporaryFolder("snapshot").appendingPathComponent("root")
        try FileManager.default.copyItem(at: nginx.root, to: copy)
        return copy
    }

    /// Makes the document root exactly the snapshot again.
    func restore(_ snapshot: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: nginx.root.path) {
            try FileManager.default.removeItem(at: nginx.root.appendingPathComponent(name))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: snapshot.path) {
            try FileManager.default.copyItem(
                at: snapshot.appendingPathComponent(name), to: nginx.root.appendingPathComponent(name))
        }
    }

    /// The names in the built catalog.
    func builtNames() throws -> [String] {
        try Catalog.decode(Data(contentsOf: built.appendingPathComponent("issues.plist"))).entries.map(\.name)
    }
}

/// A destination that fails its `n`th operation (reads, uploads, moves, copies and deletes,
/// counted from 1) and passes everything else to a real one: a failure at each step of a
/// publish to a real folder.
final class FaultyDestination: PublishDestination {
    let wrapped: any PublishDestination
    private let failAt: Int?
    /// Every operation so far, in order (its count is the number of the next one, less one).
    private let steps = Locked<[String]>([])
    /// What each operation was, in order (`upload a-1/a-1.zip`).
    var operations: [String] { steps.current }

    init(wrapped: any PublishDestination, failAt: Int?) {
        self.wrapped = wrapped
        self.failAt = failAt
    }

    var description: String { wrapped.description }
    var supportsAtomicMove: Bool { wrapped.supportsAtomicMove }

    private func step(_ name: String) throws(PublishError) {
        let fails = steps.withLock { steps in
            steps.append(name)
            return steps.count == failAt
        }
        if fails { throw PublishError(step: "injected", target: name, reason: .network("injected failure")) }
    }

    func read(_ path: String, limit: Int64) async throws(PublishError) -> Data? {
        try step("read \(path)")
        return try await wrapped.read(path, limit: limit)
    }
    func upload(_ source: UploadSource, to path: String) async throws(PublishError) {
        try step("upload \(path)")
        try await wrapped.upload(source, to: path)
    }
    func move(_ source: String, to destination: String) async throws(PublishError) {
        try step("move \(source) \(destination)")
        try await wrapped.move(source, to: destination)
    }
    func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool {
        try step("copy \(source) \(destination)")
        return try await wrapped.copy(source, to: destination)
    }
    func delete(_ path: String) async throws(PublishError) {
        try step("delete \(path)")
        try await wrapped.delete(path)
    }
    func lock() async throws(PublishError) -> PublishLock? { try await wrapped.lock() }
    func modificationTime(of path: String) async throws(PublishError) -> Double? {
        try step("stat \(path)")
        return try await wrapped.modificationTime(of: path)
    }
    func upload(_ source: UploadSource, to path: String, modified: Int) async throws(PublishError) {
        try step("upload \(path)")
        try await wrapped.upload(source, to: path, modified: modified)
    }
}

extension Publisher {
    /// Plans and runs a publish of `built`.
    static func publish(_ built: URL, to destination: any PublishDestination, prune: Bool = false) async throws(PublishError)
        -> PublishReport
    {
        let publisher = Publisher(destination: destination, prune: prune)
        return try await publisher.run(try await publisher.plan(builtFolder: built))
    }
}
