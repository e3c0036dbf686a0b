import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport

/// A fixture magazine served from a bucket of a real S3 API (`MotoS3`), published through an
/// rclone remote configured by environment variables alone; its BaseURL is `base` (the
/// bucket's object URLs, or a cache in front of them).
struct S3Site {
    let moto: MotoS3
    let fixture: MagazineFixture
    let built: URL
    /// The magazine's folder in the bucket.
    static let folder = "aurora"

    /// Starts moto, writes a fixture of `issues` (those in `paid` with `Access` = `paid`) whose
    /// BaseURL is `base(moto)` (default: the bucket's object URLs), and builds it.
    init(issues: [String], paid: Set<String> = [], base: ((MotoS3) -> URL)? = nil) throws {
        moto = try MotoS3()
        fixture = try MagazineFixture(issues: issues)
        built = try Shell.temporaryFolder("s3-built")
        let baseURL = base?(moto) ?? moto.objectURL(Self.folder + "/")
        let settings = fixture.root.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8).replacingOccurrences(
            of: "https://example.com/mag/", with: baseURL.absoluteString
        ).write(to: settings, atomically: true, encoding: .utf8)
        for name in paid {
            let file = fixture.root.appendingPathComponent("issues/\(name)/issue.plist")
            try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
                of: "</dict>",
                with:
                    "    <key>Access</key>\n    <string>paid</string>\n    <key>ProductID</key>\n    <string>com.example.\(name)</string>\n</dict>"
            ).write(to: file, atomically: true, encoding: .utf8)
        }
        try build()
    }

    /// Builds the fixture again (content-named files unless `fixedNames`).
    func build(fixedNames: Bool = false) throws {
        let (magazine, plans) = try fixture.plans()
        _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: built, jobs: 2, versioned: !fixedNames))
            .build(plans)
    }

    /// The rclone destination of the magazine's folder, its objects stored with `rules`.
    func destination(_ rules: CacheRules = CacheRules(), timeouts: PublishTimeouts = PublishTimeouts()) throws
        -> any PublishDestination
    {
        try Destinations.parse(
            moto.destination(Self.folder), timeouts: timeouts, environment: moto.rcloneEnvironment, cacheRules: rules)
    }

    /// Publishes what is built.
    @discardableResult
    func publish(
        _ rules: CacheRules = CacheRules(), prune: Bool = false, to destination: (any PublishDestination)? = nil,
        progress: @Sendable (String) -> Void = { _ in }
    ) async throws -> PublishReport {
        let publisher = Publisher(destination: try destination ?? self.destination(rules), prune: prune)
        return try await publisher.run(try await publisher.plan(builtFolder: built), progress: progress)
    }

    /// Writes the lock object with `text`, as a publish (of this version or an earlier one) left it.
    func writeLock(_ text: String) throws {
        let file = try Shell.temporaryFolder("s3-lock").appendingPathComponent("lock")
        try Data(text.utf8).write(to: file)
        let result = try Shell.run(
            "env",
            [
                "-u", "AWS_CA_BUNDLE", "rclone", "copyto", "--ignore-times", file.path,
                moto.destination(Self.folder) + "/" + RcloneDestinationNames.lock,
            ]
            .map { $0.replacingOccurrences(of: "rclone:", with: "", options: .anchored) },
            environment: moto.rcloneEnvironment)
        guard result.status == 0 else { throw TestFailure("rclone copyto failed: \(result.stderr)") }
    }

    /// The lock object's text; nil when there is none.
    func lockText() async throws -> String? {
        try await destination().read(RcloneDestinationNames.lock, limit: 4096).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bucket's object of the magazine's `path`, as an anonymous reader asks for it.
    func get(_ path: String, headers: [String: String] = [:]) async throws -> HTTPGet.Response {
        try await HTTPGet.send(moto.objectURL(Self.folder + "/" + path), headers: headers)
    }

    /// The built catalog's entries.
    func builtEntries() throws -> [CatalogEntry] {
        try Catalog.decode(Data(contentsOf: built.appendingPathComponent("issues.plist"))).entries
    }

    /// A presigned GET URL of the magazine's `path` (what a publisher's entitlement service
    /// hands a reader who paid), made by `rclone link` with the remote's credentials.
    func presignedURL(_ path: String) throws -> URL {
        let result = try Shell.run(
            "env",
            ["-u", "AWS_CA_BUNDLE", "rclone", "link", "--expire", "1h", moto.destination(Self.folder) + "/" + path]
                .map { $0.replacingOccurrences(of: "rclone:", with: "", options: .anchored) },
            environment: moto.rcloneEnvironment)
        guard result.status == 0, let url = URL(string: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("rclone link failed: \(result.stderr)")
        }
        return url
    }

    /// The magazine's `path` of a catalog URL (`<BaseURL><path>`).
    static func path(of url: String, base: URL) -> String { String(url.dropFirst(base.absoluteString.count)) }
}
