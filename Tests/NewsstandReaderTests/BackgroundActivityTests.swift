import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The install of what a background transfer brought runs after the wake's completion handler
/// was called, inside a background activity (#34): when the system takes the time back, the
/// install stops at a safe point, nothing half-done is left, and the next launch finishes it.
@Suite("Background activity", .timeLimit(.minutes(1)))
struct BackgroundActivityTests {
    /// An activity the test expires when it says.
    final class ScriptedActivity: Sendable {
        let reasons = Locked<[String]>([])
        let ended = Locked(0)
        private let expire = Locked<(@Sendable () -> Void)?>(nil)

        var activity: BackgroundActivity {
            BackgroundActivity { reason, expired in
                self.reasons.withLock { $0.append(reason) }
                self.expire.withLock { $0 = expired }
                return { self.ended.withLock { $0 += 1 } }
            }
        }

        /// The system takes the time back.
        func expireNow() { expire.current?() }
    }

    /// The default unpacker, after which the activity expires: mid-install, before the swap.
    struct ExpiringUnpacker: BundleUnpacker {
        let activity: ScriptedActivity
        func unpack(_ archive: URL, into destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError) {
            try ZipBundleUnpacker().unpack(archive, into: destination, limits: limits)
            activity.expireNow()
        }
    }

    @Test func anInstallCutByTheSystemIsFinishedAtTheNextLaunch() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let scratch = try Shell.temporaryFolder("engine")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let activity = ScriptedActivity()
            let library = try bed.library {
                $0.backgroundActivity = activity.activity
                $0.unpacker = ExpiringUnpacker(activity: activity)
            }
            try await library.refresh(from: bed.catalogURL)
            let engine = ScriptedEngine(scratch: scratch)
            await library.useBackgroundEngine(.custom(engine))
            try await library.startBackgroundDownload("a")
            let job = try #require(engine.jobs.first)
            engine.finish(job.id, from: scratch, body: try bed.served(String(job.url.path.dropFirst())))
            #expect(await eventually { activity.ended.current == 1 }, "the install began an activity and ended it")
            await library.waitForInstalls()
            #expect(activity.reasons.current == ["Installing a"])
            #expect(await library.issue(named: "a")?.status != .available, "cut before the swap")
            let downloads = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
            #expect(downloads.count == 1 && downloads[0].hasSuffix(".received"), "the received file stays: \(downloads)")
            let issues = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Issues").path)
            #expect(issues.isEmpty, "nothing staged or half unpacked: \(issues)")
            await library.close()

            // The next launch: its reconcile installs the file, once.
            let again = try bed.library()
            let adopted = await again.useBackgroundEngine(.custom(ScriptedEngine(scratch: scratch)))
            await again.waitForInstalls()
            #expect(adopted.installed == ["a"], "\(adopted)")
            #expect(await again.issue(named: "a")?.status == .available)
            #expect(try await bed.violations(of: again, allowsDownloading: false) == [])
            #expect(bed.requests("a/a.zip").count <= 1, "not fetched again")
            await again.close()
        }
    }
}
