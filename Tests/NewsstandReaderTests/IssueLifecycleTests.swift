import Foundation
import Testing

@testable import NewsstandReader

/// The issue lifecycle machine, with no network and no file: each transition by hand, then every
/// state reachable in a few steps from every event checked against the machine's invariants.
@Suite("Issue lifecycle machine")
struct IssueLifecycleTests {
    static let content = InstalledContent(sha256: "aa", contentURL: URL(string: "https://x.test/a.zip")!, scale: .normal)
    static let newer = InstalledContent(sha256: "bb", contentURL: URL(string: "https://x.test/a.zip")!, scale: .normal)
    static let error = LibraryError.downloadHTTPStatus(name: "a", url: "https://x.test/a.zip", status: 404)

    @Test func aFirstDownloadGoesFromQueuedToInstalled() {
        var issue = IssueLifecycle(name: "a")
        #expect(issue.phase == .notInstalled)
        #expect(
            issue.handle(.requested(.user, engine: .inProcess)) == [
                .save, .emitStatus, .startTransfer(generation: 1, engine: .inProcess),
            ])
        #expect(issue.phase == .queued)
        #expect(issue.status == .downloading(DownloadProgress(bytesReceived: 0, bytesExpected: nil)))
        #expect(issue.handle(.started(generation: 1)) == [.emitStatus])
        let progress = DownloadProgress(bytesReceived: 10, bytesExpected: 20)
        #expect(issue.handle(.progressed(generation: 1, progress)) == [.emitProgress(progress)])
        #expect(issue.phase == .transferring)
        #expect(
            issue.handle(.received(generation: 1, file: "a#1.zip")) == [
                .save, .emitStatus, .install(generation: 1, file: "a#1.zip"),
            ])
        #expect(issue.phase == .received)
        #expect(issue.handle(.installing(generation: 1)) == [.emitStatus])
        #expect(issue.phase == .installing)
        #expect(
            issue.handle(.installed(generation: 1, Self.content)) == [
                .save, .emitStatus, .recordInstall(update: false), .discardPartFile, .discardReceivedFile("a#1.zip"),
                .applyStoragePolicy,
            ])
        #expect(issue.phase == .installed)
        #expect(issue.status == .available)
        #expect(issue.transfer == nil)
        // An installed issue without an update has nothing to download.
        #expect(issue.handle(.requested(.user, engine: .inProcess)) == [])
    }

    @Test func anUpdateKeepsTheOldContentReadableUntilTheNewOneIsIn() {
        var issue = IssueLifecycle(name: "a")
        issue.installed = Self.content
        #expect(issue.handle(.catalogCompared(hasNewContent: true)) == [.save, .emitStatus])
        #expect(issue.phase == .updateAvailable)
        #expect(
            issue.handle(.requested(.automatic, engine: .background)).contains(.startTransfer(generation: 1, engine: .background))
        )
        #expect(issue.phase == .updating)
        #expect(issue.status == .available)
        // An update by ranges has no received file: it goes from transferring to installed.
        _ = issue.handle(.progressed(generation: 1, DownloadProgress(bytesReceived: 1, bytesExpected: 2)))
        #expect(issue.handle(.installed(generation: 1, Self.newer)).contains(.recordInstall(update: true)))
        #expect(issue.installed == Self.newer)
        #expect(issue.phase == .installed)
    }

    @Test func aFailedUpdateLeavesTheInstalledContentAndSaysWhy() {
        var issue = IssueLifecycle(name: "a")
        issue.installed = Self.content
        issue.hasUpdate = true
        _ = issue.handle(.requested(.user, engine: .inProcess))
        #expect(issue.handle(.failed(generation: 1, Self.error)) == [.save, .emitFailure(Self.error), .emitStatus])
        #expect(issue.installed == Self.content)
        #expect(issue.phase == .updateAvailable)
        #expect(issue.failure == Self.error.description)
    }

    @Test func aFailedFirstDownloadIsFailedAndCanBeAskedAgain() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.user, engine: .inProcess))
        _ = issue.handle(.received(generation: 1, file: "a#1.zip"))
        let refused = LibraryError.verificationFailed(name: "a", path: "p", reason: "SHA-256")
        #expect(
            issue.handle(.failed(generation: 1, refused)) == [
                .save, .discardReceivedFile("a#1.zip"), .emitFailure(refused), .emitStatus,
            ])
        #expect(issue.phase == .failed)
        #expect(issue.status == .none)
        #expect(issue.handle(.requested(.user, engine: .inProcess)).contains(.startTransfer(generation: 2, engine: .inProcess)))
        #expect(issue.failure == nil)
    }

    /// A transfer that fails the same transient way at every restart (aria2 refused a redirect
    /// to `ftp://` each time) gives up saying why: the last failure, not only that it was lost.
    @Test func aTransferThatFailsAtEveryRestartGivesUpSayingWhy() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.user, engine: .background))
        let refused = LibraryError.downloadFailed(
            name: "a", url: "https://x.test/a.zip", reason: "aria2 error 1: Failed to establish connection")
        for generation in 1...(IssueLifecycle.maxRestarts + 1) {
            _ = issue.handle(.engineReported(generation: generation, engine: .background, .failed(refused, resumable: true)))
        }
        #expect(issue.phase == .failed)
        #expect(issue.transfer == nil)
        #expect(issue.failure == refused.description)
        // An engine that only lost it, again and again, says that.
        var lost = IssueLifecycle(name: "b")
        _ = lost.handle(.requested(.user, engine: .background))
        for generation in 1...(IssueLifecycle.maxRestarts + 1) {
            _ = lost.handle(.engineReported(generation: generation, engine: .background, .unknown))
        }
        #expect(lost.failure == LibraryError.transferLost(name: "b", restarts: IssueLifecycle.maxRestarts).description)
    }

    @Test func staleEventsChangeNothingAndLeaveNothingBehind() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.user, engine: .background))
        _ = issue.handle(.cancelled)
        _ = issue.handle(.requested(.user, engine: .background))
        let before = issue
        // Generation 1 was cancelled: whatever its task still says is not this issue's business.
        #expect(issue.handle(.received(generation: 1, file: "a#1.zip")) == [.discardReceivedFile("a#1.zip")])
        #expect(issue.handle(.installed(generation: 1, Self.content)) == [])
        #expect(issue.handle(.failed(generation: 1, Self.error)) == [])
        #expect(
            issue.handle(
                .engineReported(
                    generation: 1, engine: .background, .running(DownloadProgress(bytesReceived: 5, bytesExpected: 9))))
                == [.cancelTransfer(generation: 1, engine: .background, keepingData: false)])
        #expect(issue == before)
    }

    /// A relaunch's reconcile took generation 1 for lost and started 2; then 1's file arrived
    /// (the system delivered its event after the reconcile): it is installed as 2's, whose task
    /// is cancelled, and nothing is fetched twice. A file of an earlier request stays stale.
    @Test func aLateFileOfAnEarlierGenerationOfTheSameRequestIsInstalled() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.user, engine: .background))
        #expect(
            issue.handle(.engineReported(generation: 1, engine: .background, .unknown)) == [
                .save, .startTransfer(generation: 2, engine: .background),
            ])
        #expect(
            issue.handle(.received(generation: 1, file: "a#1.received")) == [
                .save, .emitStatus, .cancelTransfer(generation: 2, engine: .background, keepingData: false),
                .install(generation: 2, file: "a#1.received"),
            ])
        #expect(issue.transfer?.file == "a#1.received")
        // The cancelled task's last word changes nothing; a second late file is not taken.
        #expect(issue.handle(.engineReported(generation: 2, engine: .background, .failed(Self.error, resumable: false))) == [])
        #expect(issue.handle(.received(generation: 1, file: "again")) == [.discardReceivedFile("again")])
        #expect(issue.handle(.installed(generation: 2, Self.content)).contains(.discardReceivedFile("a#1.received")))
    }

    @Test func theSameHandOffTwiceInstallsOnce() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.user, engine: .background))
        #expect(issue.handle(.received(generation: 1, file: "a#1.zip")).contains(.install(generation: 1, file: "a#1.zip")))
        #expect(issue.handle(.received(generation: 1, file: "a#1.zip")) == [])
        #expect(issue.handle(.engineReported(generation: 1, engine: .background, .finished(file: "a#1.zip"))) == [])
        #expect(issue.handle(.received(generation: 1, file: "other")) == [.discardReceivedFile("other")])
    }

    @Test func openingAfterACrashPicksUpWhereTheFilesAre() {
        // The hand-off had moved the file in; the process died before the row said so.
        var received = IssueLifecycle(name: "a")
        _ = received.handle(.requested(.user, engine: .background))
        #expect(
            received.handle(.recovered(RecoveryFacts(hasContent: false, receivedFile: "a#1.zip", engine: .unknown)))
                == [.save, .install(generation: 1, file: "a#1.zip")])

        // Still running in the background engine: follow it.
        var running = IssueLifecycle(name: "a")
        _ = running.handle(.requested(.user, engine: .background))
        let progress = DownloadProgress(bytesReceived: 3, bytesExpected: 9)
        #expect(
            running.handle(.recovered(RecoveryFacts(hasContent: false, engine: .running(progress))))
                == [.reattach(generation: 1), .emitProgress(progress)])

        // The in-process engine died with the process: a new generation continues the part file.
        var lost = IssueLifecycle(name: "a")
        _ = lost.handle(.requested(.user, engine: .inProcess))
        #expect(
            lost.handle(.recovered(RecoveryFacts(hasContent: false, engine: .unknown))) == [
                .save, .startTransfer(generation: 2, engine: .inProcess),
            ])
        #expect(lost.transfer?.restarts == 1)

        // Content that vanished is not installed any more.
        var vanished = IssueLifecycle(name: "a")
        vanished.installed = Self.content
        #expect(vanished.handle(.recovered(RecoveryFacts(hasContent: false))) == [.save])
        #expect(vanished.phase == .notInstalled)
    }

    /// A process killed between an install's commit point and the transfer's end leaves the
    /// state naming the bundle installed with the transfer still under way: the next reconcile
    /// ends it as installed, never fetches it again (which would install it twice).
    @Test func aTransferWhoseInstallWasCommittedEndsAsInstalled() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.user, engine: .background))
        _ = issue.handle(.received(generation: 1, file: "a#1.zip"))
        _ = issue.handle(.staged(Self.content))
        var facts = RecoveryFacts(hasContent: true, receivedFile: nil, engine: .unknown)
        facts.installCommitted = true
        #expect(issue.handle(.recovered(facts)) == [.save, .emitStatus, .discardPartFile, .discardReceivedFile("a#1.zip")])
        #expect(issue.phase == .installed)
        #expect(issue.lastGeneration == 1, "not started again")
    }

    @Test func anEngineThatKeepsLosingATransferEndsInAFailure() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.automatic, engine: .background))
        for _ in 0..<IssueLifecycle.maxRestarts {
            let generation = issue.transfer!.generation
            #expect(issue.handle(.engineReported(generation: generation, engine: .background, .unknown)).contains(.save))
        }
        let last = issue.transfer!.generation
        let actions = issue.handle(.engineReported(generation: last, engine: .background, .unknown))
        #expect(actions.contains(.emitFailure(.transferLost(name: "a", restarts: IssueLifecycle.maxRestarts))))
        #expect(issue.phase == .failed)
    }

    @Test func removalCancelsTheTransferAndForgetsTheContent() {
        var issue = IssueLifecycle(name: "a")
        issue.installed = Self.content
        issue.hasUpdate = true
        _ = issue.handle(.requested(.user, engine: .background))
        #expect(
            issue.handle(.removalStarted) == [
                .save, .cancelTransfer(generation: 1, engine: .background, keepingData: false), .discardPartFile, .emitStatus,
            ])
        #expect(issue.phase == .removing)
        #expect(issue.handle(.requested(.user, engine: .background)) == [])
        #expect(issue.handle(.removed) == [.save, .emitStatus])
        #expect(issue.phase == .notInstalled)
        #expect(issue.handle(.requested(.user, engine: .background)).contains(.startTransfer(generation: 2, engine: .background)))
    }

    @Test func aUserAskingForAnAutomaticDownloadTakesItOver() {
        var issue = IssueLifecycle(name: "a")
        _ = issue.handle(.requested(.automatic, engine: .background))
        #expect(issue.handle(.requested(.user, engine: .background)) == [.save])
        #expect(issue.transfer?.intent == .user)
        #expect(issue.transfer?.generation == 1)
    }

    // MARK: - Every reachable state

    /// Every event the machine can meet in `state`: each kind, for the current, an older and a
    /// newer generation, with the current and a foreign file.
    /// The name the hand-off gives generation `generation`'s received file (`TransferHandOff`).
    static func received(_ generation: Int) -> String {
        TransferHandOff.receivedName(of: TransferID(name: "a", generation: generation))
    }

    static func events(in state: IssueLifecycle) -> [LifecycleEvent] {
        let current = state.lastGeneration
        let generations = Array(Set([max(1, current - 1), max(1, current), current + 1]))
        let progress = DownloadProgress(bytesReceived: 1, bytesExpected: 2)
        var events: [LifecycleEvent] = [
            .requested(.user, engine: .inProcess), .requested(.automatic, engine: .background), .cancelled, .removalStarted,
            .removed, .catalogCompared(hasNewContent: true), .catalogCompared(hasNewContent: false), .staged(newer),
            .swapUndone(previous: nil, hadUpdate: false), .swapUndone(previous: Self.content, hadUpdate: true),
        ]
        for generation in generations {
            let file = Self.received(generation)
            events += [
                .started(generation: generation), .progressed(generation: generation, progress),
                .received(generation: generation, file: file), .installing(generation: generation),
                .installed(generation: generation, newer), .failed(generation: generation, error),
                .suspended(generation: generation),
            ]
            for report in [
                EngineReport.running(progress), .finished(file: file), .failed(error, resumable: true),
                .failed(error, resumable: false), .unknown,
            ] {
                events.append(.engineReported(generation: generation, engine: .background, report))
            }
        }
        for hasContent in [false, true] {
            for engine in [
                nil, EngineReport.unknown, .running(progress), .finished(file: Self.received(current)),
                .failed(error, resumable: true),
            ] {
                events.append(.recovered(RecoveryFacts(hasContent: hasContent, receivedFile: nil, engine: engine)))
            }
            events.append(.recovered(RecoveryFacts(hasContent: hasContent, receivedFile: Self.received(current), engine: nil)))
            var committed = RecoveryFacts(hasContent: hasContent, receivedFile: nil, engine: .unknown)
            committed.installCommitted = true
            events.append(.recovered(committed))
        }
        return events
    }

    /// What the library persists of a lifecycle: a change of any of it must come with `.save`.
    struct Persisted: Equatable {
        var installed: InstalledContent?
        var hasUpdate: Bool
        var generation: Int?
        var file: String?
        var intent: TransferIntent?
        var failure: String?
        var lastGeneration: Int

        init(_ state: IssueLifecycle) {
            installed = state.installed
            hasUpdate = state.hasUpdate
            generation = state.transfer?.generation
            file = state.transfer?.file
            intent = state.transfer?.intent
            failure = state.failure
            lastGeneration = state.lastGeneration
        }
    }

    /// Checks one transition against the rules every transition keeps.
    static func check(_ before: IssueLifecycle, _ event: LifecycleEvent, _ after: IssueLifecycle, _ actions: [LifecycleAction]) {
        let context = "\(event) in \(before.phase)"
        // `#expect` records every evaluated expression; over 45,000 transitions that was most of
        // the test's time, so a rule is only recorded when it breaks.
        func rule(_ holds: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
            if !holds { Issue.record(Comment(rawValue: message()), sourceLocation: sourceLocation) }
        }
        // The phase and status agree with what is installed and transferred.
        rule((after.status == .available) == (after.installed != nil), "\(context)")
        if case .downloading = after.status { rule(after.transfer != nil, "\(context)") }
        if let transfer = after.transfer { rule(transfer.generation == after.lastGeneration, "\(context)") }
        rule(after.lastGeneration >= before.lastGeneration, "generations never go back: \(context)")
        rule(!(after.isRemoving && after.transfer != nil), "\(context)")
        if !after.hasUpdate || after.installed == nil { rule(after.phase != .updateAvailable, "\(context)") }
        if after.installed == nil { rule(!after.hasUpdate || before.hasUpdate, "\(context)") }
        // What is persisted never changes unsaved.
        if Persisted(before) != Persisted(after) { rule(actions.contains(.save), "unsaved change: \(context)") }
        // Only the current generation is started, installed or followed, and only once.
        for action in actions {
            switch action {
            case .startTransfer(let generation, _):
                rule(after.transfer?.generation == generation && after.transfer?.stage == .queued, "\(context)")
                rule(generation > before.lastGeneration, "a start is always a new generation: \(context)")
            case .install(let generation, let file):
                rule(after.transfer?.generation == generation && after.transfer?.file == file, "\(context)")
            case .reattach(let generation):
                rule(after.transfer?.generation == generation, "\(context)")
            case .cancelTransfer(let generation, _, _):
                // Or its file came from an earlier generation of the same request: its task goes.
                rule(
                    after.transfer?.generation != generation || after.transfer?.file != nil,
                    "a cancelled transfer is not current: \(context)")
            case .discardReceivedFile(let file):
                rule(after.transfer?.file != file, "the file being installed is never discarded: \(context)")
            default: break
            }
        }
        // A stale event never touches the content or the current transfer.
        let generation: Int? =
            switch event {
            case .started(let g), .progressed(let g, _), .received(let g, _), .installing(let g), .installed(let g, _, _),
                .failed(let g, _), .suspended(let g), .engineReported(let g, _, _):
                g
            default: nil
            }
        if let generation, let current = before.transfer, current.generation != generation, case .received = event,
            current.file == nil, generation < current.generation, current.generation - generation <= current.restarts
        {
            // An earlier generation of the same request: its file is the current transfer's.
            rule(after.transfer?.generation == current.generation && after.transfer?.file != nil, "late file \(context)")
        } else if let generation, before.transfer?.generation != generation {
            rule(after == before, "stale \(context)")
        }
    }

    /// An issue's record and a transfer row as the library has them once a download was asked.
    static let storedRows: LibraryState = {
        var state = LibraryState(scale: .normal)
        let url = URL(string: "https://x.test/a.zip")!
        state.issues["a"] = IssueRecord(
            name: "a", title: "A", date: Date(timeIntervalSince1970: 0), remoteCoverURL: url, remoteContentURL: url,
            status: .none, hasUpdate: false, isInCatalog: true)
        state.transfers["a"] = TransferRecord(
            name: "a", generation: 0, stage: .ended, engine: .inProcess, intent: .user, url: url, expectedSize: nil,
            expectedSHA256: nil, scale: .normal)
        return state
    }()

    /// The issues and transfers tables in memory, with their statements prepared once (45,000
    /// round trips).
    struct StateTables {
        let database: SQLiteDatabase
        let upsert: SQLiteStatement
        let select: SQLiteStatement
        let upsertIssue: SQLiteStatement
        let selectIssue: SQLiteStatement

        init() throws {
            database = try SQLiteDatabase(path: ":memory:", access: .readWrite(create: true))
            try database.execute(StateSchema.create)
            upsert = try database.prepare(StateSchema.upsertTransfer)
            select = try database.prepare(StateSchema.selectTransfers)
            upsertIssue = try database.prepare(StateSchema.upsertIssue)
            selectIssue = try database.prepare(StateSchema.selectIssues)
        }
    }

    /// `state`, stored in the record and row (`LibraryState.store`), written to their tables and
    /// read back with their checks (`IssueRow`, `TransferRow`) and as a lifecycle
    /// (`LibraryState.lifecycle(of:installing:)`), is the same lifecycle: what the machine says
    /// is what the state file keeps, but the transient `isRemoving` and the transfer's bytes.
    static func checkStoredAndReadBack(_ state: IssueLifecycle, _ event: LifecycleEvent, through table: StateTables) {
        var rows = storedRows
        rows.store(state, event: event)
        // Through the transfers table and its checks, as the next process reads it.
        do {
            if let record = rows.issues["a"] {
                try table.upsertIssue.run(IssueRow.values(of: record))
                try table.selectIssue.bind([])
                _ = try table.selectIssue.step()
                rows.issues["a"] = try IssueRow.record(from: table.selectIssue)
            }
            if let row = rows.transfers["a"] {
                try table.upsert.run(TransferRow.values(of: row))
                try table.select.bind([])
                _ = try table.select.step()
                rows.transfers["a"] = try TransferRow.record(from: table.select)
            }
        } catch {
            Issue.record("the rows of \(state) do not read back: \(error) (after \(event))")
            return
        }
        var installing = false
        if case .installing = state.transfer?.stage { installing = true }
        guard var readBack = rows.lifecycle(of: "a", installing: installing) else {
            Issue.record("no lifecycle read back for \(state)")
            return
        }
        var expected = state
        expected.isRemoving = false
        readBack.isRemoving = false
        if let progress = state.transfer?.progress { readBack.transfer?.progress = progress }
        if readBack != expected { Issue.record("stored and read back: \(readBack)\n is not \(expected)\n (after \(event))") }
    }

    @Test func everyStateReachableInEightStepsKeepsTheRules() throws {
        let table = try StateTables()
        var installedStart = IssueLifecycle(name: "a")
        installedStart.installed = Self.content
        var frontier = [IssueLifecycle(name: "a"), installedStart]
        var seen = Set<String>()
        var phases = Set<IssuePhase>()
        var transitions = 0
        for _ in 0..<8 {
            var next: [IssueLifecycle] = []
            for state in frontier {
                for event in Self.events(in: state) {
                    var after = state
                    let actions = after.handle(event)
                    Self.check(state, event, after, actions)
                    Self.checkStoredAndReadBack(after, event, through: table)
                    transitions += 1
                    phases.insert(after.phase)
                    if seen.insert("\(after)").inserted { next.append(after) }
                }
            }
            frontier = next
        }
        #expect(seen.count > 200, "\(seen.count) states, \(transitions) transitions")
        #expect(
            Set(IssuePhase.allCases).subtracting(phases).isEmpty, "unreached: \(Set(IssuePhase.allCases).subtracting(phases))")
    }
}
