import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Where each step runs, as the library's seams see it: a transport, a hasher and an unpacker
/// an app supplies are used, and blocking work (hashing, unpacking, reading an issue's pages,
/// deleting its content) runs on threads of its own, never on the library's actor or the
/// cooperative pool. On the scripted bed: the seams are the point, not the server. (Progress in
/// order on each real transport is `ProgressOrderTests`'.)
@Suite("Seams and threads", .timeLimit(.minutes(1)))
struct SeamTests {
    /// What ran, and whether on a `BlockingWork` thread.
    final class ThreadLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [(step: String, blocking: Bool)] = []
        func note(_ step: String) { lock.withLock { stored.append((step, BlockingWork.isCurrentThread)) } }
        func clear() { lock.withLock { stored = [] } }
        var steps: [String] { lock.withLock { stored.map(\.step) } }
        var offThePool: Bool { lock.withLock { stored.allSatisfy(\.blocking) } }
    }

    struct RecordingHasher: ContentHasher {
        let log: ThreadLog
        func start() -> any ContentDigest { RecordingDigest(log: log) }
    }

    final class RecordingDigest: ContentDigest {
        let log: ThreadLog
        let digest = SHA256()
        init(log: ThreadLog) { self.log = log }
        func update(_ bytes: UnsafeRawBufferPointer) {
            log.note("hash")
            digest.update(bytes)
        }
        func finalizeHex() -> String { digest.finalizeHex() }
    }

    struct RecordingUnpacker: BundleUnpacker {
        let log: ThreadLog
        func unpack(_ archive: URL, into destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError) {
            log.note("unpack")
            try ZipBundleUnpacker().unpack(archive, into: destination, limits: limits)
        }
    }

    /// An app's transport, counting the requests it is given.
    final class CountingTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var urls: [URL] = []
        let wrapped: any HTTPTransport
        init(_ wrapped: any HTTPTransport) { self.wrapped = wrapped }
        var requested: [URL] { lock.withLock { urls } }
        func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
            lock.withLock { urls.append(request.url) }
            try await wrapped.perform(request, into: sink)
        }
    }

    @Test func aTransportHasherAndUnpackerOfTheAppsAreUsed() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("f-1", day: 1)])
            let log = ThreadLog()
            let transport = CountingTransport(bed.transport)
            let library = try bed.library {
                $0.transport = transport
                $0.hasher = RecordingHasher(log: log)
                $0.unpacker = RecordingUnpacker(log: log)
            }
            try await library.refresh(from: bed.catalogURL)
            log.clear()
            let issue = try await library.download("f-1")
            #expect(issue.status == .available)
            #expect(transport.requested.map(\.lastPathComponent) == ["issues.plist", "cover.png", "f-1.zip"])
            #expect(log.steps.contains("hash") && log.steps.last == "unpack", "\(log.steps)")
            #expect(log.offThePool, "the bundle is hashed and unpacked on a thread of its own")
        }
    }

    /// A page type that notes where it is decoded.
    struct NotingPage: IssuePage {
        static let className = "SimplePage"
        nonisolated(unsafe) static var log: ThreadLog?
        init(properties: PageProperties) throws(ContentError) { Self.log?.note("decode") }
    }

    @Test func readingAndRemovingAnIssueRunOffTheActor() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([
                .init(
                    "f-1", day: 1,
                    normal: [
                        .text("issue.plist", "<plist><dict/></plist>"),
                        .text(
                            "pages.plist",
                            "<plist><array><array><dict><key>class</key><string>SimplePage</string><key>properties</key><dict/></dict></array></array></plist>"
                        ),
                    ])
            ])
            let log = ThreadLog()
            let removals = ThreadLog()
            let library = try bed.library {
                $0.log = .lines { line in if line.contains("removed the content of") { removals.note(line) } }
            }
            try await library.refresh(from: bed.catalogURL)
            try await library.download("f-1")
            NotingPage.log = log
            defer { NotingPage.log = nil }
            var registry = PageRegistry()
            registry.register(NotingPage.self)
            let content = try await library.content(of: "f-1", registry: registry)
            #expect(content.articles.count == 1)
            #expect(log.steps == ["decode"] && log.offThePool, "pages are read and decoded on a thread of their own")

            try await library.remove("f-1")
            #expect(removals.steps.count == 1 && removals.offThePool, "the content is deleted on a thread of its own")
            let issues = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Issues").path)
            #expect(issues.isEmpty, "nothing is left, not even the folder renamed aside")
        }
    }
}
