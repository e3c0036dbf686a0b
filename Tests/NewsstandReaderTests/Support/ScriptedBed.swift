import Foundation
import NewsstandCore
import NewsstandTestSupport

@testable import NewsstandReader

/// One test's world for the fast tier: the same shape as the nginx testbed (publish issues,
/// write the catalog, open libraries, read the request log), served by a `ScriptedTransport`
/// from memory, with bundles built by `StoredZip`: no server, socket or child process.
///
/// Locations as the test nginx has them: `""` serves the files; `"broken/"` answers 503 to
/// everything; `"norange/"` ignores `Range` (200, the whole file); `"slow/"` holds the body of a
/// request without `Range` after `slowBytes` bytes until `releaseSlow()` (or until the request's
/// task is cancelled), so that a first download can be cancelled mid-way without a clock, and a
/// resumed one is not held; `"etag-only/"` and `"modified-only/"` send one validator each.
final class ScriptedBed: @unchecked Sendable {
    let transport: ScriptedTransport
    let libraryFolder: URL
    /// Where a `slow/` body without `Range` stops until `releaseSlow()`.
    let slow: ScriptedTransport.Pause
    /// The entries of each bundle published, by path: what an installed issue must hold.
    private let bundles = Locked([String: [StoredZip.Entry]]())

    /// The bytes a `slow/` body without `Range` stops after (past the 200,000 a cancelling test
    /// waits for, before the end of a big bundle).
    static let slowBytes = 256 << 10

    init(chunkSize: Int = 16 << 10) throws {
        transport = ScriptedTransport(chunkSize: chunkSize)
        slow = ScriptedTransport.Pause(after: Self.slowBytes)
        libraryFolder = try Shell.temporaryFolder("library")
        transport.setLocation("broken/", .init(status: 503))
        transport.setLocation("norange/", .init(ignoresRange: true, pause: slow))
        transport.setLocation("slow/", .init(pause: slow))
        transport.setLocation("etag-only/", .init(sendsLastModified: false))
        transport.setLocation("modified-only/", .init(sendsETag: false))
    }

    func close() {
        slow.release()
        try? FileManager.default.removeItem(at: libraryFolder)
    }

    /// Runs `body` with a fresh bed and always cleans up.
    static func with<T>(_ body: (ScriptedBed) async throws -> T) async throws -> T {
        let bed = try ScriptedBed()
        defer { bed.close() }
        return try await body(bed)
    }

    /// Serves `paid/` and `slowpaid/` (held as `slow/` is) only to URLs signed with `secret`,
    /// as the test nginx's `secure_link` locations do; the returned link's clock is the host's.
    @discardableResult
    func sellPaid(secret: String) throws -> ScriptedTransport.SecureLink {
        let link = try ScriptedTransport.SecureLink(secret: secret)
        transport.setLocation("paid/", .init(secureLink: link))
        transport.setLocation("slowpaid/", .init(pause: slow, secureLink: link))
        return link
    }

    /// Lets every held `slow/` body go on, and later ones through unheld.
    func releaseSlow() { slow.release() }

    var baseURL: URL { transport.baseURL }
    var catalogURL: URL { baseURL.appendingPathComponent("issues.plist") }

    /// A library over this bed's folder and transport, with fast retries.
    func library(scale: LibraryScale = .normal, _ configure: (inout LibraryConfiguration) -> Void = { _ in }) throws
        -> IssueLibrary
    {
        var configuration = LibraryFolderCheck.configuration(transport: transport)
        configure(&configuration)
        return try IssueLibrary(folder: libraryFolder, scale: scale, configuration: configuration)
    }

    /// An issue to publish: bundle contents for both scales and where the bundle is served.
    struct IssueSpec {
        var name: String
        var day: Int
        var normal: [StoredZip.Entry]
        var retina: [StoredZip.Entry]
        /// The location prefix the catalog points the bundle at: "", "slow/", "norange/", "broken/".
        var location = ""
        var withChecksums = true

        init(
            _ name: String, day: Int, normal: [StoredZip.Entry]? = nil, retina: [StoredZip.Entry]? = nil,
            location: String = ""
        ) {
            self.name = name
            self.day = day
            self.normal = normal ?? Self.pages(scale: "")
            self.retina = retina ?? Self.pages(scale: "@2x")
            self.location = location
        }

        /// A small valid bundle: issue.plist, pages.plist and an image.
        static func pages(scale: String, imageBytes: Int = 4096, seed: Int = 1) -> [StoredZip.Entry] {
            [
                .text("issue.plist", "<plist><dict/></plist>"),
                .text("pages.plist", "<plist><array/></plist>"),
                .random("1-0\(scale).png", count: imageBytes, seed: seed),
            ]
        }
    }

    /// A bundle big enough to be held mid-way at `slow/`: 1.5 MB of incompressible image.
    static let bigBundle = IssueSpec.pages(scale: "", imageBytes: 1_500_000, seed: 5)

    /// The bytes `.random(_:count:seed:)` stores, to compare unpacked files with.
    static func randomBytes(count: Int, seed: Int) -> Data { StoredZip.noise(count: count, seed: UInt64(seed)) }

    /// Serves bundles and covers and returns catalog entries for them (sizes and SHA-256
    /// computed from the bytes as served); writes the catalog of them and `extra`.
    @discardableResult
    func publish(_ specs: [IssueSpec], catalog extra: [CatalogEntry] = []) throws -> [CatalogEntry] {
        var entries: [CatalogEntry] = []
        for spec in specs {
            let normal = serveBundle(spec.normal, at: "\(spec.name)/\(spec.name).zip")
            let retina = serveBundle(spec.retina, at: "\(spec.name)/\(spec.name)@2x.zip")
            transport.serve(Data("cover \(spec.name)".utf8), at: "\(spec.name)/cover.png")
            transport.serve(Data("cover@2x \(spec.name)".utf8), at: "\(spec.name)/cover@2x.png")
            let base = baseURL.absoluteString + spec.location + spec.name + "/"
            var entry = CatalogEntry(
                name: spec.name, title: "Issue \(spec.name)", date: Date(timeIntervalSince1970: Double(spec.day) * 86_400),
                cover: base + "cover.png", content: base + "\(spec.name).zip")
            if spec.withChecksums {
                entry.contentSize = normal.count
                entry.contentSHA256 = SHA256.hex(of: normal)
                entry.retinaContentSize = retina.count
                entry.retinaContentSHA256 = SHA256.hex(of: retina)
            }
            entries.append(entry)
        }
        try writeCatalog(entries + extra)
        return entries
    }

    /// Serves the stored zip of `entries` at `path` and returns its bytes.
    @discardableResult
    func serveBundle(_ entries: [StoredZip.Entry], at path: String) -> Data {
        let bytes = StoredZip.make(entries)
        bundles.withLock { $0[path] = entries }
        transport.serve(bytes, at: path)
        return bytes
    }

    /// Serves `bytes` at `path` (a new `ETag`, as a changed file gets): a bundle served this way
    /// is no longer one the bed built, and the invariants say so if an issue installed it.
    func serve(_ bytes: Data, at path: String) {
        bundles.withLock { _ = $0.removeValue(forKey: path) }
        transport.serve(bytes, at: path)
    }

    /// Stops the server (every request fails as a refused connection), as stopping nginx does.
    func pause() { transport.goDown() }

    /// Stops serving `path` (404).
    func remove(_ path: String) { transport.remove(path) }

    /// The bytes served at `path`.
    func served(_ path: String) throws -> Data {
        guard let bytes = transport.served(path) else { throw TestFailure("nothing is served at \(path)") }
        return bytes
    }

    /// Serves the catalog of `entries` (`Catalog.encode`) as `issues.plist`.
    func writeCatalog(_ entries: [CatalogEntry]) throws {
        transport.serve(Catalog.encode(entries), at: "issues.plist")
    }

    /// Requests made for a path below the base, as nginx's access log would show them. Every
    /// request is logged when it is made, so `atLeast` is only the testbed's signature.
    func requests(_ path: String, atLeast count: Int = 1) -> [LoggedRequest] {
        transport.requests(path).map(Self.logged)
    }

    /// Every request made, in order.
    func allRequests() -> [LoggedRequest] { transport.allRequests.map(Self.logged) }

    private static func logged(_ request: ScriptedTransport.Logged) -> LoggedRequest {
        LoggedRequest("\(request.status) \(request.bodyBytes) GET /\(request.path) \"\(request.range ?? "-")\"")!
    }

    /// The folder's path as SQLite is given it (links resolved).
    var databasePath: String {
        URL(fileURLWithPath: libraryFolder.path).resolvingSymlinksInPath().appendingPathComponent("library.sqlite").path
    }

    /// Runs `sql` on the library's database, in this process (SQLite as the reader links it).
    func sqlite(_ sql: String) throws {
        let database = try SQLiteDatabase(path: databasePath, access: .readWrite(create: true))
        defer { database.close() }
        try database.execute(sql)
    }

    /// The rows `sql` returns, each as its first `columns` columns joined by `|`, as the sqlite3
    /// shell prints them (a number as it is, text as it is, NULL empty).
    func sqliteRows(_ sql: String, columns: Int32 = 1) throws -> [String] {
        let database = try SQLiteDatabase(path: databasePath, access: .readOnly)
        defer { database.close() }
        let statement = try database.prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append(
                (0..<columns).map { column in
                    if statement.isNull(column) { return "" }
                    if let text = statement.text(column, limit: 1 << 24) { return text }
                    if let integer = statement.int64(column) { return String(integer) }
                    return statement.double(column).map { String($0) } ?? statement.describe(column)
                }.joined(separator: "|"))
        }
        return rows
    }

    /// What must hold of the library folder whatever happened to it: every available issue holds
    /// exactly the entries of the bundle the bed published (byte for byte) and its index is that
    /// bundle's; no stray file in `Issues/`, `Downloads/`, `Covers/` or the folder; no claim held
    /// while nothing runs; SQLite's `integrity_check`. Empty when the library is sound.
    func violations(of library: IssueLibrary, allowsDownloading: Bool) async throws -> [String] {
        var problems: [String] = []
        let issues = await library.issues
        let names = Set(issues.map(\.name))
        for issue in issues {
            switch issue.status {
            case .available:
                let path = String(issue.remoteContentURL.path.dropFirst())
                let servedPath = ["slow/", "norange/", "broken/"].reduce(path) { path, prefix in
                    path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
                }
                guard let entries = bundles.withLock({ $0[servedPath] }), let bytes = transport.served(servedPath) else {
                    problems.append("\(issue.name): \(servedPath) is not a bundle the bed built")
                    continue
                }
                if let sha = issue.contentSHA256, SHA256.hex(of: bytes) != sha {
                    problems.append("\(issue.name): the served bundle no longer matches the catalog")
                }
                problems += try Self.differences(of: issue.contentURL, from: entries, bundle: bytes)
            case .downloading where !allowsDownloading:
                problems.append("\(issue.name) is stuck downloading")
            default:
                break
            }
        }
        let available = Set(issues.filter { $0.status == .available }.map(\.name))
        problems += try LibraryFolderCheck.strayFiles(in: libraryFolder, names: names, available: available)
        if !allowsDownloading {
            // A claim is given back on a thread of its own, a moment after the work that held it.
            await LibraryFolderCheck.waitForReleases(of: library)
            let live = LibraryFolderCheck.liveClaims(
                try sqliteRows("SELECT name, pid FROM ownership WHERE token IS NOT NULL", columns: 2))
            if !live.isEmpty { problems.append("claims held while nothing runs: \(live)") }
        }
        // SQLite's own check of the database.
        let check = try sqliteRows("PRAGMA integrity_check")
        if check != ["ok"] { problems.append("integrity_check: \(check)") }
        return problems
    }

    /// How `folder` differs from the regular files of `entries`: a file missing or not byte for
    /// byte the entry's, a file no entry names, an index that is not `bundle`'s.
    private static func differences(of folder: URL, from entries: [StoredZip.Entry], bundle: Data) throws -> [String] {
        var problems: [String] = []
        let files = Dictionary(entries.compactMap(\.file).map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            let isFile =
                FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
                && (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == nil
            if !isFile || (try? Data(contentsOf: url)) != bytes {
                problems.append(folder.path + ": " + name + " differs from the bundle")
            }
        }
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true,
                (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) == nil
            {
                continue
            }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            if relative == ".newsstand-index.json" {
                // The index the content was installed from (issue 14): it must be the bundle's.
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
                let sha = (json?["bundle"] as? [String: Any])?["sha256"] as? String
                if sha != SHA256.hex(of: bundle) { problems.append(folder.path + ": its index is not the bundle's") }
                continue
            }
            if files[relative] == nil { problems.append(folder.path + ": " + relative + " is not in the bundle") }
        }
        return problems
    }
}

extension ScriptedBed {
    /// Another writer of `library.sqlite`: a connection of its own holding an exclusive
    /// transaction until `release()`.
    final class DatabaseHolder: @unchecked Sendable {
        private let database: SQLiteDatabase
        private let released = Locked(false)

        fileprivate init(path: String) throws {
            database = try SQLiteDatabase(path: path, access: .readWrite(create: false))
            try database.execute("BEGIN EXCLUSIVE")
        }

        /// Ends the transaction and closes the connection (again: nothing).
        func release() {
            guard
                released.withLock({ released in
                    defer { released = true }
                    return !released
                })
            else { return }
            try? database.execute("ROLLBACK")
            database.close()
        }
    }

    /// Holds `library.sqlite` in an exclusive transaction (as another program's would) until
    /// the holder's `release()`.
    func holdDatabase() throws -> DatabaseHolder { try DatabaseHolder(path: databasePath) }
}
