import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// A bundle whose catalog entry has an index is downloaded, checked and unpacked in one pass
/// (issue 38 §3): each local record is checked against the index as it arrives and written into
/// `Downloads/<name>.zip.part.stream/`, never a whole `.part` copy; a cut continues where it
/// stopped (within a run at the byte, across runs at the end of the last checked entry); what
/// the index does not predict, a server that lies about ranges, a catalog without an index all
/// take the `.part` path, and nothing is installed from bad bytes. Fast tier: `ScriptedBed`.
@Suite("Streamed downloads", .timeLimit(.minutes(1)))
struct StreamedDownloadTests {
    /// Eight pages of 64 KiB: the slow location's hold (256 KiB) falls inside the fifth record.
    static let pages = (1...8).map { (page: $0, seed: $0) }

    /// The published index of `s`.
    static func index(_ bed: ScriptedBed, _ name: String = "s") throws -> BundleIndex {
        try BundleIndex.decode(bed.served("\(name)/\(name).index.json"))
    }

    /// A library logging every line into `lines`.
    static func library(_ bed: ScriptedBed, lines: Locked<[String]>, transport: (any HTTPTransport)? = nil) throws
        -> IssueLibrary
    {
        try bed.library { configuration in
            if let transport { configuration.transport = transport }
            configuration.log = .lines(minimumLevel: .debug) { line in lines.withLock { $0.append(line) } }
        }
    }

    /// Publishes `s` (the eight pages, under `location`) with its index; returns the index.
    @discardableResult
    static func publish(_ bed: ScriptedBed, location: String = "") throws -> BundleIndex {
        try bed.publishIndexed([ScriptedBed.paged("s", pages, location: location)])
        return try index(bed)
    }

    /// The library most tests download with: logging into the lines returned beside it, through
    /// `transport` when given, refreshed from the bed's catalog.
    static func refreshedLibrary(_ bed: ScriptedBed, transport: (any HTTPTransport)? = nil) async throws
        -> (IssueLibrary, Locked<[String]>)
    {
        let lines = Locked<[String]>([])
        let library = try library(bed, lines: lines, transport: transport)
        try await library.refresh(from: bed.catalogURL)
        return (library, lines)
    }

    static func streamed(_ lines: Locked<[String]>) -> Bool {
        lines.withLock { $0.contains { $0.contains("is available (streamed)") } }
    }

    static func downloads(_ bed: ScriptedBed) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Downloads").path).sorted()
    }

    /// The files checked into the staging so far, relative to its content folder.
    static func staged(_ bed: ScriptedBed, _ name: String = "s") -> [String] {
        let content = bed.libraryFolder.appendingPathComponent("Downloads/\(name).zip.part.stream/content")
        return ((try? FileManager.default.contentsOfDirectory(atPath: content.path)) ?? []).sorted()
    }

    @Test func aBundleWithAnIndexIsUnpackedAsItArrivesWithNoPartFile() async throws {
        try await ScriptedBed.with { bed in
            let index = try Self.publish(bed)
            // Half-way through the body: entries are checked into the staging, no `.part` file.
            let seen = Locked<(part: Bool, staged: [String], at: Int)?>(nil)
            let probe = LyingTransport(bed.transport, path: "s/s.zip") { request in
                guard request == 1 else { return nil }
                return .probe(atBodyByte: Int(index.bundleSize / 2)) { at in
                    let part = (try? Self.downloads(bed))?.contains("s.zip.part") ?? true
                    seen.withLock { $0 = (part, Self.staged(bed), at) }
                }
            }
            let (library, lines) = try await Self.refreshedLibrary(bed, transport: probe)
            try await library.download("s")
            let requests = bed.requests("s/s.zip")
            #expect(requests.map(\.range) == [nil])
            #expect(requests.map(\.bytesSent) == [Int(index.bundleSize)])
            #expect(bed.requests("s/s.index.json").count == 1, "the index is fetched once, before the bundle")
            let probed = try #require(seen.withLock { $0 })
            #expect(!probed.part, "no .part file while streaming")
            let checkedByThen = index.entries.filter { $0.recordRange.upperBound <= Int64(probed.at) }.map(\.name)
            #expect(!checkedByThen.isEmpty)
            #expect(probed.staged == checkedByThen.sorted(), "every record wholly arrived is checked and staged")
            #expect(Self.streamed(lines))
            #expect(try Self.downloads(bed) == [])
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    @Test func aCutWithinARunContinuesAtTheByteItStopped() async throws {
        try await ScriptedBed.with { bed in
            let size = Int(try Self.publish(bed).bundleSize)
            bed.transport.inject(.cutAfter(bytes: 100_000), at: "s/s.zip")
            let (library, lines) = try await Self.refreshedLibrary(bed)
            try await library.download("s")
            let requests = bed.requests("s/s.zip")
            #expect(requests.map(\.range) == [nil, "bytes=100000-"])
            #expect(requests.map(\.bytesSent).reduce(0, +) == size, "no byte fetched twice")
            #expect(Self.streamed(lines))
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// Cancelled mid-way, closed and opened again (open's recovery keeps the staging): the next
    /// download asks only for what follows the last checked entry.
    @Test func aNewRunContinuesAtTheEndOfTheLastCheckedEntry() async throws {
        try await ScriptedBed.with { bed in
            let index = try Self.publish(bed, location: "slow/")
            let held = Int64(ScriptedBed.slowBytes)
            let checked = index.entries.filter { $0.recordRange.upperBound <= held }
            let resumeAt = try #require(checked.last).recordRange.upperBound
            #expect(resumeAt < held, "the hold is inside a record")
            let (first, _) = try await Self.refreshedLibrary(bed)
            try await first.startDownload("s")
            await bed.slow.reached()
            await first.cancelDownload("s")
            #expect(Self.staged(bed) == checked.map(\.name).sorted())
            await first.close()
            bed.releaseSlow()

            let lines = Locked<[String]>([])
            let library = try Self.library(bed, lines: lines)
            #expect(Self.staged(bed) == checked.map(\.name).sorted(), "open keeps the staging")
            try await library.download("s")
            let requests = bed.requests("slow/s/s.zip")
            #expect(requests.map(\.range) == [nil, "bytes=\(resumeAt)-"])
            #expect(requests.last?.status == 206)
            #expect(Self.streamed(lines))
            #expect(try Self.downloads(bed) == [])
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// A server that answers the resume's range with the whole file (200): the stream starts
    /// again from byte 0, the checked entries thrown away, and installs.
    @Test func aWholeAnswerToAResumeStartsFromZero() async throws {
        try await ScriptedBed.with { bed in
            try Self.publish(bed, location: "norange/")
            let (library, lines) = try await Self.refreshedLibrary(bed)
            try await library.startDownload("s")
            await bed.slow.reached()
            await library.cancelDownload("s")
            #expect(!Self.staged(bed).isEmpty)
            bed.releaseSlow()
            try await library.download("s")
            let requests = bed.requests("norange/s/s.zip")
            #expect(requests.count == 2)
            #expect(requests.last?.range != nil)
            #expect(requests.map(\.status) == [200, 200])
            #expect(Self.streamed(lines))
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// A download that will stream needs room for the unpacked files, not for the bundle too;
    /// one that takes the `.part` path still asks for both.
    @Test func aStreamedDownloadNeedsRoomForItsFilesOnly() async throws {
        try await ScriptedBed.with { bed in
            try Self.publish(bed)
            try bed.publish(
                [ScriptedBed.paged("p", Self.pages)], catalog: try Catalog.decode(try bed.served("issues.plist")).entries)
            let size = Int64(try bed.served("s/s.zip").count)
            let library = try bed.library { configuration in
                configuration.availableCapacity = { _, _ in size * 3 / 2 }
            }
            try await library.refresh(from: bed.catalogURL)
            try await library.download("s")
            await #expect(throws: LibraryError.self) { try await library.download("p") }
            #expect(bed.requests("p/p.zip").isEmpty, "refused before a byte")
        }
    }

    /// A paid issue's link that expires mid-stream: the in-run resume's `Range` gets a 403, the
    /// provider is asked once more (`isRenewal`), and the stream goes on from the same byte
    /// through the new link (the index came through a link of its own first).
    @Test func aPaidLinkThatExpiresMidStreamIsRenewedAndTheStreamGoesOn() async throws {
        try await ScriptedBed.with { bed in
            let link = try bed.sellPaid(secret: PaidDownloadTests.secret)
            try PaidDownloadTests.publish(
                bed, [ScriptedBed.paged("c", Self.pages, location: "slowpaid/")], paid: ["c"], indexed: true)
            let cut = ScriptedBed.slowBytes + (64 << 10)
            bed.transport.inject(.cutAfter(bytes: cut), at: "slowpaid/c/c.zip")
            // The index's link lives long; the bundle's first one 4 s of the host's clock.
            let provider = PaidDownloadTests.SigningProvider(lifetimes: [300, 4, 300], clock: link)
            let recording = PaidDownloadTests.Recording()
            let library = try PaidDownloadTests.library(bed, provider, recording: recording)
            try await library.refresh(from: bed.catalogURL)
            let download = Task { try await library.download("c") }
            await bed.slow.reached()
            link.advance(by: 10)
            bed.releaseSlow()
            _ = try await download.value
            #expect(provider.requests.current.map(\.resource) == [.index, .bundle, .bundle])
            #expect(provider.requests.current.map(\.isRenewal) == [false, false, true])
            let requests = bed.requests("slowpaid/c/c.zip")
            #expect(requests.map(\.status) == [200, 403, 206])
            #expect(requests.map(\.range) == [nil, "bytes=\(cut)-", "bytes=\(cut)-"])
            #expect(recording.lines.current.contains { $0.contains("is available (streamed)") })
            #expect(!recording.lines.current.contains { PaidDownloadTests.leaks($0, provider) })
            // (`violations` knows the bed's free locations only: the files are compared here.)
            let installed = try bed.installedVersion(
                of: "c", old: ScriptedBed.pagedBundle(Self.pages), new: ScriptedBed.pagedBundle(Self.pages))
            #expect(installed == "old")
            #expect(try Self.downloads(bed) == [])
        }
    }

    /// `suspendDownloads()` mid-stream (an app going to the background): the download stays
    /// pending, and `resumePendingDownloads()` continues it at the end of the last checked entry;
    /// the progress it reports never goes back and ends at the bundle's size.
    @Test func aSuspendedStreamIsPendingAndResumesWithItsCheckedEntries() async throws {
        try await ScriptedBed.with { bed in
            let index = try Self.publish(bed, location: "slow/")
            let resumeAt = try #require(index.entries.last { $0.recordRange.upperBound <= Int64(ScriptedBed.slowBytes) })
                .recordRange.upperBound
            let (library, _) = try await Self.refreshedLibrary(bed)
            try await library.startDownload("s")
            await bed.slow.reached()
            await library.suspendDownloads()
            #expect(await library.pendingDownloads == ["s"])
            bed.releaseSlow()
            #expect(await library.resumePendingDownloads() == ["s"])
            let reports = Locked<[DownloadProgress]>([])
            try await library.download("s") { progress in reports.withLock { $0.append(progress) } }
            #expect(bed.requests("slow/s/s.zip").map(\.range) == [nil, "bytes=\(resumeAt)-"])
            let received = reports.withLock { $0 }.map(\.bytesReceived)
            #expect(received == received.sorted(), "progress never goes back")
            #expect(received.last == index.bundleSize)
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// The checked entries are kept only while the index stands: a new index starts from zero.
    @Test func aNewIndexThrowsTheCheckedEntriesAway() async throws {
        try await ScriptedBed.with { bed in
            try Self.publish(bed, location: "slow/")
            let (library, _) = try await Self.refreshedLibrary(bed)
            try await library.startDownload("s")
            await bed.slow.reached()
            await library.cancelDownload("s")
            #expect(!Self.staged(bed).isEmpty)
            bed.releaseSlow()
            var changed = Self.pages
            changed[0].seed = 99
            try bed.publishIndexed([ScriptedBed.paged("s", changed, location: "slow/")])
            try await library.refresh()
            try await library.download("s")
            #expect(bed.requests("slow/s/s.zip").map(\.range) == [nil, nil])
            #expect(
                try bed.installedVersion(of: "s", old: ScriptedBed.pagedBundle(Self.pages), new: ScriptedBed.pagedBundle(changed))
                    == "new")
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// A byte damaged on the way: the record disagrees with the index, streaming stops, and the
    /// `.part` path downloads the bundle again and installs the right content.
    @Test func aRecordThatDisagreesMidStreamFallsBackToTheWholeBundle() async throws {
        try await ScriptedBed.with { bed in
            let index = try Self.publish(bed)
            let damaged = Int(index.entries[4].dataOffset) + 10
            let lying = LyingTransport(bed.transport, path: "s/s.zip") { $0 == 1 ? .corrupt(atBodyByte: damaged) : nil }
            let (library, lines) = try await Self.refreshedLibrary(bed, transport: lying)
            try await library.download("s")
            #expect(bed.requests("s/s.zip").map(\.range) == [nil, nil])
            #expect(!Self.streamed(lines))
            #expect(lines.withLock { $0.contains { $0.contains("does not match its index") } })
            #expect(try Self.downloads(bed) == [], "the staging goes once the .part path installed")
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// A server whose bundle is not the catalog's: streaming stops at the first record that
    /// disagrees, the `.part` path refuses the whole bundle, nothing is installed; the entries
    /// checked before it stay (the index still stands) and nothing else.
    @Test func aBundleThatIsNotTheCatalogsInstallsNothing() async throws {
        try await ScriptedBed.with { bed in
            let index = try Self.publish(bed)
            var bytes = try bed.served("s/s.zip")
            let damaged = Int(index.entries[4].dataOffset) + 10
            bytes[damaged] ^= 0xFF
            bed.serve(bytes, at: "s/s.zip")
            let (library, _) = try await Self.refreshedLibrary(bed)
            await #expect(throws: LibraryError.self) { try await library.download("s") }
            #expect(await library.issue(named: "s")?.status == IssueStatus.none)
            #expect(!FileManager.default.fileExists(atPath: bed.libraryFolder.appendingPathComponent("Issues/s").path))
            #expect(Self.staged(bed) == index.entries.prefix(4).map(\.name).sorted())
        }
    }

    @Test func aCatalogWithoutAnIndexTakesThePartPath() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([ScriptedBed.paged("s", Self.pages)])
            let size = try bed.served("s/s.zip").count
            let seen = Locked<Bool?>(nil)
            let probe = LyingTransport(bed.transport, path: "s/s.zip") { request in
                guard request == 1 else { return nil }
                return .probe(atBodyByte: size / 2) { _ in
                    seen.withLock { $0 = (try? Self.downloads(bed))?.contains("s.zip.part") }
                }
            }
            let (library, lines) = try await Self.refreshedLibrary(bed, transport: probe)
            try await library.download("s")
            #expect(seen.withLock { $0 } == true, "the bundle goes to its .part file")
            #expect(!Self.streamed(lines))
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// A resume answered with another part of the file than asked: refused, and the `.part` path
    /// fetches the bundle whole.
    @Test func aWrongContentRangeOnResumeFallsBack() async throws {
        try await ScriptedBed.with { bed in
            try Self.publish(bed)
            bed.transport.inject(.cutAfter(bytes: 100_000), at: "s/s.zip")
            let lying = LyingTransport(bed.transport, path: "s/s.zip") { $0 == 2 ? .shiftContentRange(by: 1) : nil }
            let (library, lines) = try await Self.refreshedLibrary(bed, transport: lying)
            try await library.download("s")
            #expect(bed.requests("s/s.zip").map(\.range) == [nil, "bytes=100000-", nil])
            #expect(!Self.streamed(lines))
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// A body that claims more than the index's bundle is refused before its first byte, and
    /// nothing of it is kept.
    @Test func extraBytesAreRefused() async throws {
        try await ScriptedBed.with { bed in
            try Self.publish(bed)
            let lying = LyingTransport(bed.transport, path: "s/s.zip") { _ in .extraBytes(10) }
            let (library, _) = try await Self.refreshedLibrary(bed, transport: lying)
            await #expect(throws: LibraryError.self) { try await library.download("s") }
            #expect(await library.issue(named: "s")?.status == IssueStatus.none)
            #expect(try Self.downloads(bed) == [])
        }
    }

    /// A body that ends early as if whole: continued with `Range` from where it stopped.
    @Test func aTruncatedBodyIsContinued() async throws {
        try await ScriptedBed.with { bed in
            try Self.publish(bed)
            let lying = LyingTransport(bed.transport, path: "s/s.zip") { $0 == 1 ? .truncate(after: 150_000) : nil }
            let (library, lines) = try await Self.refreshedLibrary(bed, transport: lying)
            try await library.download("s")
            #expect(bed.requests("s/s.zip").map(\.range) == [nil, "bytes=150000-"])
            #expect(Self.streamed(lines))
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }

    /// An index naming `abcde.png` over a record named `../ab.png` (as long): the record is
    /// refused mid-stream, the `.part` path's unpacker refuses the name, nothing is written
    /// outside the library and nothing installed.
    @Test func aRecordNamedOutsideTheIssueIsRefused() async throws {
        try await ScriptedBed.with { bed in
            let entries: [StoredZip.Entry] = [
                .text("issue.plist", "<plist><dict/></plist>"), .text("pages.plist", "<plist><array/></plist>"),
                .random("../ab.png", count: 4096, seed: 3),
            ]
            try bed.publishIndexed([ScriptedBed.IssueSpec("s", day: 1, normal: entries, retina: entries)]) { _, text in
                text = text.replacingOccurrences(of: "\"../ab.png\"", with: "\"abcde.png\"")
            }
            let (library, lines) = try await Self.refreshedLibrary(bed)
            await #expect(throws: LibraryError.self) { try await library.download("s") }
            #expect(lines.withLock { $0.contains { $0.contains("the record is of") } })
            for outside in ["Issues/ab.png", "ab.png", "Downloads/ab.png", "Downloads/s.zip.part.stream/ab.png"] {
                #expect(!FileManager.default.fileExists(atPath: bed.libraryFolder.appendingPathComponent(outside).path))
            }
            #expect(
                !FileManager.default.fileExists(
                    atPath: bed.libraryFolder.deletingLastPathComponent().appendingPathComponent("ab.png").path))
            #expect(await library.issue(named: "s")?.status == IssueStatus.none)
        }
    }
}

/// A `ScriptedTransport` behind a server that lies on the requests of one path a test picks
/// (numbered from 1): a shifted `Content-Range`, bytes past the body, a body cut short but ended
/// as if whole, a damaged byte; or a probe that looks at the library mid-body.
final class LyingTransport: HTTPTransport, @unchecked Sendable {  // safe: immutable but for the counter, which is Locked
    enum Lie {
        case shiftContentRange(by: Int64)
        case extraBytes(Int)
        case truncate(after: Int)
        case corrupt(atBodyByte: Int)
        case probe(atBodyByte: Int, @Sendable (Int) -> Void)
    }

    private let inner: ScriptedTransport
    private let path: String
    private let lie: @Sendable (Int) -> Lie?
    private let count = Locked(0)

    init(_ inner: ScriptedTransport, path: String, lie: @escaping @Sendable (Int) -> Lie?) {
        self.inner = inner
        self.path = path
        self.lie = lie
    }

    func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
        guard request.url.path.hasSuffix("/" + path) else { return try await inner.perform(request, into: sink) }
        let number = count.withLock { count -> Int in
            count += 1
            return count
        }
        guard let lie = lie(number) else { return try await inner.perform(request, into: sink) }
        try await inner.perform(request, into: LyingSink(sink, lie))
    }

    private final class LyingSink: ResponseSink {
        let inner: any ResponseSink
        let lie: Lie
        var sent = 0

        init(_ inner: any ResponseSink, _ lie: Lie) {
            self.inner = inner
            self.lie = lie
        }

        func open(_ head: HTTPHead) throws(TransferFailure) {
            var head = head
            switch lie {
            case .shiftContentRange(let shift):
                if let range = head.value("Content-Range").flatMap(ContentRange.init), let total = range.total {
                    head.headers["content-range"] = "bytes \(range.start + shift)-\(range.end + shift)/\(total)"
                }
            case .extraBytes(let extra):
                if let length = head.contentLength { head.headers["content-length"] = String(length + Int64(extra)) }
            default: break
            }
            try inner.open(head)
        }

        func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
            defer { sent += chunk.count }
            switch lie {
            case .truncate(let after):
                guard sent < after else { return }
                try inner.write(UnsafeRawBufferPointer(rebasing: chunk.prefix(after - sent)))
            case .corrupt(let at) where (sent..<sent + chunk.count).contains(at):
                var bytes = [UInt8](chunk)
                bytes[at - sent] ^= 0xFF
                try forward(bytes)
            case .probe(let at, let look) where (sent..<sent + chunk.count).contains(at):
                look(sent)
                try inner.write(chunk)
            default:
                try inner.write(chunk)
            }
        }

        func finish() throws(TransferFailure) {
            if case .extraBytes(let extra) = lie {
                try forward([UInt8](repeating: 0x41, count: extra))
            }
            try inner.finish()
        }

        func close() { inner.close() }

        private func forward(_ bytes: [UInt8]) throws(TransferFailure) {
            var failure: TransferFailure?
            bytes.withUnsafeBytes { copy in
                do throws(TransferFailure) { try inner.write(copy) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }
}
