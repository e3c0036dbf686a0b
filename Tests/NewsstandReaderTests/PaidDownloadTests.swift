import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Issue 24, items 3 and 4, on a scripted transport with nginx's `secure_link` rule (`/paid/`,
/// and `/slowpaid/`, held as `/slow/` is; the fast tier): a paid issue is fetched only through
/// the `AccessProvider`'s signed link, free ones never ask it; no provider or a refusal is
/// `notEntitled` with the library unchanged; an expired link is renewed once and the download
/// continues with `Range`; an update by ranges signs its index and ranges; no signature reaches
/// a log line, an event or an error. The links expire by the host's scripted clock, never the
/// machine's. `PaidLinkHostTests` downloads through nginx's own `secure_link`.
@Suite(.timeLimit(.minutes(1))) struct PaidDownloadTests {
    static let secret = "dGhlLXJlYWRlcnMtc2VjdXJlLWxpbmstc2VjcmV0"

    /// Signs with the host's secret (Core's `SignedURL`, which `PaidIssueTests` checks against
    /// nginx and the entitlement service), recording every request; `lifetimes` are the
    /// seconds each successive link lives (the last repeats), from `now` (the host's clock);
    /// `denial`, when set, refuses.
    struct SigningProvider: AccessProvider {
        let requests = Locked<[AccessRequest]>([])
        let lifetimes: Locked<[Int64]>
        let denial = Locked<String?>(nil)
        let answers = Locked<[String]>([])
        let now: @Sendable () -> Date

        init(lifetimes: [Int64] = [300], now: @escaping @Sendable () -> Date = { Date() }) {
            self.lifetimes = Locked(lifetimes)
            self.now = now
        }

        /// A provider signing by `link`'s clock.
        init(lifetimes: [Int64] = [300], clock link: ScriptedTransport.SecureLink) {
            self.init(lifetimes: lifetimes) { Date(timeIntervalSince1970: Double(link.now)) }
        }

        func authorize(_ request: AccessRequest) async throws(AccessDenial) -> URL {
            requests.withLock { $0.append(request) }
            if let reason = denial.current { throw AccessDenial(reason: reason) }
            let lifetime = lifetimes.withLock { list in list.count > 1 ? list.removeFirst() : list[0] }
            guard let secret = try? SigningSecret(PaidDownloadTests.secret),
                let signed = try? SignedURL.sign(request.url.absoluteString, validFor: lifetime, now: now(), secret: secret),
                let url = URL(string: signed)
            else { throw AccessDenial(reason: "cannot sign") }
            answers.withLock { $0.append(signed) }
            return url
        }
    }

    /// What a recording test collects: log lines, events and errors, as text.
    final class Recording: Sendable {
        let lines = Locked<[String]>([])
        func add(_ text: String) { lines.withLock { $0.append(text) } }
    }

    /// Publishes `specs` with `paid` of them sold (`Access` paid, a ProductID); `paid/` and
    /// `slowpaid/` serve the same files (`ScriptedBed.sellPaid`).
    static func publish(_ bed: ScriptedBed, _ specs: [ScriptedBed.IssueSpec], paid: Set<String>, indexed: Bool = false)
        throws
    {
        var entries = indexed ? try bed.publishIndexed(specs) : try bed.publish(specs)
        for i in entries.indices where paid.contains(entries[i].name) {
            entries[i].access = .paid
            entries[i].productID = "com.example.\(entries[i].name)"
        }
        try bed.writeCatalog(entries)
    }

    static func library(
        _ bed: ScriptedBed, _ provider: SigningProvider?, recording: Recording? = nil,
        _ configure: (inout LibraryConfiguration) -> Void = { _ in }
    ) throws -> IssueLibrary {
        try bed.library {
            $0.accessProvider = provider
            if let recording { $0.log = LibraryLog(minimumLevel: .debug) { level, text in recording.add("\(level): \(text)") } }
            configure(&$0)
        }
    }

    /// Whether `text` carries any part of a signed link: its md5 or expires argument.
    static func leaks(_ text: String, _ provider: SigningProvider) -> Bool {
        if text.contains("md5=") || text.contains("expires=") { return true }
        return provider.answers.current.contains { answer in
            URLComponents(string: answer)?.queryItems?.contains { $0.name == "md5" && text.contains($0.value ?? "\u{0}") } == true
        }
    }

    @Test func aPaidIssueDownloadsThroughTheProviderAndAFreeOneNeverAsks() async throws {
        try await ScriptedBed.with { bed in
            let link = try bed.sellPaid(secret: Self.secret)
            try Self.publish(bed, [.init("a", day: 1), .init("b", day: 2, location: "paid/")], paid: ["b"])
            let provider = SigningProvider(clock: link)
            let library = try Self.library(bed, provider)
            try await library.refresh(from: bed.catalogURL)
            #expect(await library.issue(named: "b")?.access == .paid)
            #expect(await library.issue(named: "a")?.access == .free)
            try await library.download("a")
            #expect(provider.requests.current.isEmpty, "a free issue never asks")
            let issue = try await library.download("b")
            #expect(issue.status == .available)
            let unsigned = bed.baseURL.absoluteString + "paid/b/b.zip"
            #expect(
                provider.requests.current == [
                    AccessRequest(name: "b", productID: "com.example.b", url: URL(string: unsigned)!, resource: .bundle)
                ])
            #expect(bed.requests("paid/b/b.zip").map(\.status) == [200])
            // The host refuses the unsigned URL and a forged one: only the provider's link works.
            #expect(try await bed.transport.status(of: URL(string: unsigned)!) == 403)
            let forged = unsigned + "?md5=AAAAAAAAAAAAAAAAAAAAAA&expires=9999999999"
            #expect(try await bed.transport.status(of: URL(string: forged)!) == 403)
            await library.close()
        }
    }

    @Test func withoutAProviderAPaidIssueIsNotEntitledAndNothingChanges() async throws {
        try await ScriptedBed.with { bed in
            try bed.sellPaid(secret: Self.secret)
            try Self.publish(bed, [.init("b", day: 2, location: "paid/")], paid: ["b"])
            let library = try Self.library(bed, nil)
            try await library.refresh(from: bed.catalogURL)
            let before = await library.issues
            await #expect(
                throws: LibraryError.notEntitled(name: "b", reason: "the issue is paid and the library has no access provider")
            ) {
                try await library.download("b")
            }
            #expect(await library.issues == before)
            #expect(bed.allRequests().filter { $0.uri == "/paid/b/b.zip" }.isEmpty, "the bundle was not requested")
            let downloads = bed.libraryFolder.appendingPathComponent("Downloads")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).isEmpty)
            await library.close()
        }
    }

    @Test func aRefusalIsNotEntitledLeavesTheLibraryAsItWasAndARetryWorks() async throws {
        try await ScriptedBed.with { bed in
            let link = try bed.sellPaid(secret: Self.secret)
            try Self.publish(bed, [.init("b", day: 2, location: "paid/")], paid: ["b"])
            let provider = SigningProvider(clock: link)
            provider.denial.withLock { $0 = "no subscription covers this issue" }
            let recording = Recording()
            let library = try Self.library(bed, provider, recording: recording)
            try await library.refresh(from: bed.catalogURL)
            let before = await library.issues
            await #expect(throws: LibraryError.notEntitled(name: "b", reason: "no subscription covers this issue")) {
                try await library.download("b")
            }
            #expect(provider.requests.current.count == 1, "a refusal is never retried")
            #expect(await library.issues == before)
            provider.denial.withLock { $0 = nil }
            try await library.download("b")
            #expect(await library.issue(named: "b")?.status == .available)
            #expect(!recording.lines.current.contains { Self.leaks($0, provider) })
            await library.close()
        }
    }

    /// The first link lives 4 s of the host's clock: the first request (signed, whole) is held
    /// at `/slowpaid/`'s pause, the host's clock moves on 10 s, and the connection is cut a
    /// little later; the resume's `Range` request gets a 403 (the link expired), the provider
    /// is asked once more, and the download goes on from the bytes on disk.
    @Test func aLinkThatExpiresMidDownloadIsRenewedOnceAndResumedWithRange() async throws {
        try await ScriptedBed.with { bed in
            let link = try bed.sellPaid(secret: Self.secret)
            let big = ScriptedBed.IssueSpec.pages(scale: "", imageBytes: 2 << 20, seed: 7)
            try Self.publish(bed, [.init("c", day: 3, normal: big, location: "slowpaid/")], paid: ["c"])
            bed.transport.inject(.cutAfter(bytes: ScriptedBed.slowBytes + (64 << 10)), at: "slowpaid/c/c.zip")
            let provider = SigningProvider(lifetimes: [4, 300], clock: link)
            let recording = Recording()
            let library = try Self.library(bed, provider, recording: recording)
            try await library.refresh(from: bed.catalogURL)
            let events = await library.events()
            let watcher = Task {
                for await event in events {
                    recording.add("\(event)")
                    if case .statusChanged(_, .available) = event { break }
                }
            }
            let download = Task { try await library.download("c") }
            await bed.slow.reached()
            link.advance(by: 10)
            bed.releaseSlow()
            _ = try await download.value
            await watcher.value
            #expect(provider.requests.current.map(\.isRenewal) == [false, true])
            let size = try #require(await library.issue(named: "c")?.contentSize)
            let requests = bed.requests("slowpaid/c/c.zip", atLeast: 3)
            #expect(requests.map(\.status).sorted() == [200, 206, 403])
            let first = try #require(requests.first { $0.status == 200 })
            #expect(first.range == nil && first.bytesSent > 0 && first.bytesSent < size)
            // The resume asks for what the `.part` file lacks, twice the same.
            let asked = try #require(requests.first { $0.status == 403 }?.range)
            let start = try #require(Int(asked.dropFirst("bytes=".count).prefix { $0 != "-" }))
            #expect(start > 0 && start <= first.bytesSent, "the resume continues the .part file")
            let resumed = try #require(requests.first { $0.status == 206 })
            #expect(resumed.range == asked)
            #expect(resumed.bytesSent == size - start, "nothing was fetched twice")
            #expect(recording.lines.current.contains { $0.contains("renewed") })
            #expect(!recording.lines.current.contains { Self.leaks($0, provider) })
            await library.close()
        }
    }

    /// A link renewed once and refused again is `notEntitled`: no loop, and the `.part` file
    /// is kept for a later download.
    @Test func aRenewedLinkRefusedAgainIsNotEntitledAndKeepsThePartFile() async throws {
        try await ScriptedBed.with { bed in
            let link = try bed.sellPaid(secret: "another-hosts-secret-0123456789")
            try Self.publish(bed, [.init("b", day: 2, location: "paid/")], paid: ["b"])
            let provider = SigningProvider(clock: link)  // signs with a secret this host does not have
            let recording = Recording()
            let library = try Self.library(bed, provider, recording: recording)
            try await library.refresh(from: bed.catalogURL)
            let failure = await #expect(throws: LibraryError.self) { try await library.download("b") }
            #expect(failure == .notEntitled(name: "b", reason: "the server refused the renewed link (HTTP 403)"))
            #expect(provider.requests.current.map(\.isRenewal) == [false, true])
            #expect(bed.requests("paid/b/b.zip", atLeast: 2).map(\.status) == [403, 403])
            #expect(!Self.leaks(failure?.description ?? "", provider))
            #expect(!recording.lines.current.contains { Self.leaks($0, provider) })
            await library.close()
        }
    }

    /// A background engine gets the signed link; its 403 (the link expired while the app was
    /// away) starts a new generation signed again, once; a second 403 is `notEntitled`.
    @Test func aBackgroundTransferGetsTheSignedLinkAndIsSignedAgainOnceAfterA403() async throws {
        try await ScriptedBed.with { bed in
            let link = try bed.sellPaid(secret: Self.secret)
            try Self.publish(bed, [.init("b", day: 2, location: "paid/")], paid: ["b"])
            let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("scratch"))
            let provider = SigningProvider(clock: link)
            let recording = Recording()
            let library = try Self.library(bed, provider, recording: recording)
            try await library.refresh(from: bed.catalogURL)
            await library.useBackgroundEngine(.custom(engine))
            let events = await library.events()
            try await library.startBackgroundDownload("b", intent: .user)
            func nextJob(after id: TransferID?) async throws -> TransferJob {
                for _ in 0..<250 {
                    if let job = engine.jobs.first, job.id != id { return job }
                    try await Task.sleep(nanoseconds: 20_000_000)
                }
                throw TestFailure("the engine got no new job")
            }
            let first = try await nextJob(after: nil)
            #expect(first.url.path == "/paid/b/b.zip" && first.url.query?.contains("md5=") == true)
            engine.fail(first.id, with: .httpStatus(403))
            let second = try await nextJob(after: first.id)
            #expect(second.url.query?.contains("md5=") == true && second.id != first.id)
            engine.fail(second.id, with: .httpStatus(403))
            var failure: LibraryError?
            for await event in events {
                recording.add("\(event)")
                if case .downloadFailed(_, let error) = event {
                    failure = error
                    break
                }
            }
            #expect(failure == .notEntitled(name: "b", reason: "the server refused the renewed link (HTTP 403)"))
            #expect(provider.requests.current.count == 2)
            #expect(engine.jobs.isEmpty)
            #expect(!recording.lines.current.contains { Self.leaks($0, provider) })
            await library.close()
        }
    }

    @Test func anUpdateByRangesOfAPaidIssueSignsItsIndexAndRanges() async throws {
        try await ScriptedBed.with { bed in
            let link = try bed.sellPaid(secret: Self.secret)
            let pages = (1...12).map { (page: $0, seed: $0) }
            try Self.publish(bed, [ScriptedBed.paged("m", pages, location: "paid/")], paid: ["m"], indexed: true)
            let provider = SigningProvider(clock: link)
            let recording = Recording()
            let library = try Self.library(bed, provider, recording: recording)
            try await library.refresh(from: bed.catalogURL)
            try await library.download("m")
            var changed = pages
            changed[4].seed = 99
            try Self.publish(bed, [ScriptedBed.paged("m", changed, location: "paid/")], paid: ["m"], indexed: true)
            try await library.refresh(from: bed.catalogURL)
            provider.requests.withLock { $0.removeAll() }
            let result = try await library.update("m")
            guard case .ranges(_, let requests, let fetched, _) = result else {
                Testing.Issue.record("not an update by ranges: \(result)")
                return
            }
            #expect(fetched == 1 && requests == 1)
            #expect(provider.requests.current.map(\.resource) == [.index, .bundle])
            #expect(provider.requests.current.map(\.url.lastPathComponent) == ["m.index.json", "m.zip"])
            let traffic = bed.bundleTraffic("paid/m/m.zip")
            #expect(traffic.requests.last?.status == 206 && traffic.requests.last?.range != nil)
            #expect(!recording.lines.current.contains { Self.leaks($0, provider) })
            await library.close()
        }
    }
}
