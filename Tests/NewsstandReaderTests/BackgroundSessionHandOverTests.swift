import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A foreground download handed to the background session (#22 item 6): the in-process engine's
/// part file is continued with `Range` + `If-Range`, against a real nginx. A 206 brings the rest,
/// appended to the part; a 200 (the file changed) brings the whole of the new one.
@Suite("Background session hand-over of a part file", .tags(.needsServer))
struct BackgroundSessionHandOverTests {
    typealias World = BackgroundSessionEngineTests.World

    /// The validator nginx sends for `url` (its ETag), as the in-process download kept it.
    static func etag(of url: URL) async throws -> String {
        var request = URLRequest(url: url)
        request.httpMethod = "HEAD"
        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return try #require(HTTPHead(response)?.value("ETag"))
    }

    /// What the in-process engine leaves when it stops after `count` bytes of `bytes` from `url`.
    @discardableResult
    static func leavePart(_ bytes: Data, count: Int, from url: URL, validator: String, in world: World, name: String = "a") throws
        -> URL
    {
        let part = world.downloads.appendingPathComponent("\(name).zip.part")
        try bytes.prefix(count).write(to: part)
        try PartMetadata(url: url, validator: validator, expectedLength: Int64(bytes.count)).save(for: part)
        return part
    }

    static func leftover(in world: World) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: world.downloads.path).filter { !$0.hasSuffix(".received") }.sorted()
    }

    @Test func a206BringsTheRestAndThePartIsHandedOverWhole() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            let job = world.job("a", 4, path: "a.zip", size: Int64(bytes.count))
            try Self.leavePart(bytes, count: 100_000, from: job.url, validator: try await Self.etag(of: job.url), in: world)
            try await world.engine.start(job)
            #expect(await world.sink.handedOverOnce(job.id, bytes: bytes))
            let requests = world.nginx.requests(for: "/a.zip").filter { $0.method == "GET" }
            #expect(requests.map(\.status) == [206])
            #expect(requests.map(\.range) == ["bytes=100000-"])
            #expect(requests.first?.bytesSent == 200_000)
            // Progress counts the part's bytes: the bar goes on from where the foreground left it.
            let first = world.sink.events.compactMap { event -> DownloadProgress? in
                if case .progressed(_, let progress) = event { return progress }
                return nil
            }.first
            #expect(first.map { $0.bytesReceived > 100_000 && $0.bytesExpected == 300_000 } == true)
            // The part was renamed into the library's hands; its metadata went with it.
            #expect(try Self.leftover(in: world).isEmpty)
        }
    }

    @Test func a200MeansTheFileChangedAndReplacesThePart() async throws {
        try await World.with { world in
            let old = try world.serve("a.zip")
            let job = world.job("a", path: "a.zip")
            let validator = try await Self.etag(of: job.url)
            try Self.leavePart(old, count: 100_000, from: job.url, validator: validator, in: world)
            // The publisher replaced the bundle since: same URL, new bytes, another ETag.
            try await Task.sleep(nanoseconds: 1_100_000_000)
            let new = try world.serve("a.zip", count: 250_000)
            #expect(try await Self.etag(of: job.url) != validator)
            try await world.engine.start(job)
            #expect(await world.sink.handedOverOnce(job.id, bytes: new))
            let requests = world.nginx.requests(for: "/a.zip").filter { $0.method == "GET" }
            #expect(requests.map(\.status) == [200])
            #expect(requests.map(\.range) == ["bytes=100000-"])
            #expect(try Self.leftover(in: world).isEmpty)
        }
    }

    @Test func aWholePartIsHandedOverWithoutARequestAndOnlyOnce() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            let job = world.job("a", path: "a.zip", size: Int64(bytes.count))
            try Self.leavePart(bytes, count: bytes.count, from: job.url, validator: try await Self.etag(of: job.url), in: world)
            // The hand-over waits its turn on the session's queue; held there, the part is still on disk.
            let queue = try #require(world.engine.session(.user)?.delegateQueue)
            let release = DispatchSemaphore(value: 0)
            queue.addOperation { release.wait() }
            #expect(world.engine.state.withLock { $0.decide(job, in: .user) }.isCreate)
            world.engine.create(job, in: .user, of: world.engine.state.current.sessions)
            // Asked again meanwhile: kept, not handed over a second time.
            #expect(world.engine.state.withLock { $0.decide(job, in: .user) }.isKept)
            release.signal()
            #expect(await world.sink.handedOverOnce(job.id, bytes: bytes))
            #expect(await eventually { world.engine.state.current.starting.isEmpty })
            #expect(world.nginx.requests().filter { $0.method == "GET" }.isEmpty)
            #expect(try Self.leftover(in: world).isEmpty)
        }
    }

    @Test func aPartOfAnotherURLIsNotContinued() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            let job = world.job("a", path: "a.zip")
            let part = try Self.leavePart(
                bytes, count: 100_000, from: world.nginx.baseURL.appendingPathComponent("old/a.zip"), validator: "\"x\"",
                in: world)
            try await world.engine.start(job)
            #expect(await world.sink.waitUntil(BackgroundSessionEngineTests.isFinished(job.id)))
            #expect(world.nginx.requests(for: "/a.zip").map(\.range) == [nil])
            // Not the background engine's to delete: the library discards it once the issue is installed.
            #expect(FileManager.default.fileExists(atPath: part.path))
        }
    }

    @Test func aRestFromTheWrongPlaceIsRefusedAndThePartDropped() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            let liar = try LyingServer(root: world.nginx.root)
            defer { liar.stop() }
            // A 206 that says honestly it starts 1000 bytes later than asked.
            var job = world.job("a", path: "a.zip")
            job.url = liar.baseURL.appendingPathComponent("drip/a.zip")
            job.url = URL(string: job.url.absoluteString + "?chunk=65536&interval=0.001&skew=1000")!
            let part = try Self.leavePart(bytes, count: 100_000, from: job.url, validator: "\"drip-300000\"", in: world)
            try await world.engine.start(job)
            #expect(await world.sink.waitUntil { _ in world.sink.outcomes.count == 1 })
            #expect(
                world.sink.outcomes == [
                    .failed(job.id, .badResponse("Content-Range does not continue the partial file"), resumeData: nil)
                ])
            #expect(liar.requests(for: "/drip/a.zip").map(\.range) == ["bytes=100000-"])
            #expect(!FileManager.default.fileExists(atPath: part.path))
            #expect(try Self.leftover(in: world).isEmpty)
        }
    }

    @Test func cancellingAContinuationDropsThePartUnlessItKeepsTheData() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            try bytes.write(to: world.nginx.root.appendingPathComponent("b.zip"))
            let liar = try LyingServer(root: world.nginx.root)
            defer { liar.stop() }
            var parts: [TransferID: URL] = [:]
            var jobs: [TransferJob] = []
            for name in ["a", "b"] {
                var job = world.job(name, path: "\(name).zip")
                job.url = URL(
                    string: liar.baseURL.appendingPathComponent("drip/\(name).zip").absoluteString + "?chunk=1000&interval=0.05")!
                parts[job.id] = try Self.leavePart(
                    bytes, count: 100_000, from: job.url, validator: "\"drip-300000\"", in: world, name: name)
                try await world.engine.start(job)
                jobs.append(job)
            }
            let ids = jobs.map(\.id)
            #expect(
                await world.sink.waitUntil { events in ids.allSatisfy { BackgroundSessionEngineTests.hasProgress($0)(events) } })
            #expect(jobs.map { world.engine.state.current.tasks[$0.id]?.offset } == [100_000, 100_000])
            await world.engine.cancel(jobs[0].id, keepingData: false)
            await world.engine.cancel(jobs[1].id, keepingData: true)
            #expect(!FileManager.default.fileExists(atPath: parts[jobs[0].id]!.path))
            #expect(!FileManager.default.fileExists(atPath: PartMetadata.location(for: parts[jobs[0].id]!).path))
            #expect(
                PartResumePoint.of(part: parts[jobs[1].id]!, url: jobs[1].url, limit: 1 << 30)
                    == .partial(offset: 100_000, validator: "\"drip-300000\""))
            #expect(world.sink.outcomes == jobs.map { .failed($0.id, .cancelled, resumeData: nil) })
        }
    }
}

extension BackgroundSessionEngine.State.Decision {
    var isCreate: Bool {
        if case .create = self { return true }
        return false
    }

    var isKept: Bool {
        if case .kept = self { return true }
        return false
    }
}
