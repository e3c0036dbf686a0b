import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Removes an issue's downloaded content and any partial download; its status goes back to
    /// none. An issue that has left the catalog disappears from the shelf entirely. Nothing is
    /// removed unless the new state is committed: when the commit fails (another program holds
    /// the database locked, the disk is full), the content is put back and the error thrown.
    /// - Throws: `issueBusy` while another process downloads, updates or removes the issue (for
    ///   more than a second); `cancelled` when the calling task is cancelled while this library's
    ///   own work on the issue is still stopping.
    public func remove(_ name: String) async throws(LibraryError) {
        try checkOpen()
        await synchronize()
        guard state.issues[name] != nil else { throw .unknownIssue(name: name) }
        let claim = try await claimForRemoval(name)
        defer {
            countClaimant(name, -1)
            claim.release()
        }
        // A background transfer is cancelled for good and its received file deleted, saved
        // first: a crash during the removal must not bring the download back.
        if state.transfers[name]?.isActive == true { await handle(.removalStarted, of: name) }
        guard let before = state.issues[name] else { throw .unknownIssue(name: name) }
        let reading = state.currentlyReading
        let doomed = try takeOffShelf(name)
        let transfer = state.transfers[name]
        if state.issues[name] == nil { state.transfers[name] = nil }
        do {
            try await saveFreeingPartial(of: name)
        } catch {
            state.transfers[name] = transfer
            putBack(name, record: before, doomed: doomed, reading: reading)
            throw error
        }
        finishRemoval(of: before)
        if before.status == .available { configuration.analytics?.record(.issueRemoved(name: name, byPolicy: false)) }
        // The content was renamed aside; deleting a large tree takes a while: on a thread of
        // its own, not the actor (the shelf stays usable) or the cooperative pool.
        if let doomed { await delete(doomed, of: name) }
    }

    /// Saves a removal. On a full disk the commit itself needs room: the issue's partial download
    /// (which the removal deletes anyway, and which may be what filled the disk) is deleted first
    /// and the commit tried once more, so a full disk never keeps the user from removing it.
    private func saveFreeingPartial(of name: String) async throws(LibraryError) {
        do {
            try await save()
        } catch {
            guard freePartialOnFullDisk(name) else { throw error }
            try await save()
        }
    }

    /// On a nearly full disk, deletes `name`'s partial download, for a removal that holds (or was
    /// taking, with nobody else holding it) the issue's claim; returns whether it made room.
    private func freePartialOnFullDisk(_ name: String) -> Bool {
        let part = layout.part(of: name, scale: state.scale)
        let nearlyFull = (configuration.availableCapacity(folder, .important) ?? .max) < Self.roomToCommit
        let staging = part.deletingLastPathComponent().appendingPathComponent(
            StreamStaging.folderName(ofPart: part.lastPathComponent))
        guard nearlyFull, FileStatus.size(of: part) != nil || FileStatus.kind(of: staging) != nil else { return false }
        log(.notice, "\(name): the disk is full; its partial download is deleted to make room for its removal")
        PartMetadata.discard(part: part)
        StreamStaging.discardSoon(beside: part)
        return true
    }

    /// Free bytes below which a failed commit is taken for a full disk: SQLite's log needs a few
    /// pages, and 1 MiB is far more than a removal writes.
    static let roomToCommit: Int64 = 1 << 20

    /// The issue's claim, once this library's own work on the issue has stopped: its download
    /// is cancelled (one asked meanwhile is refused as cancelled, so none starts again) and its
    /// install or another removal of it waited for, up to two minutes (a loaded disk can make an
    /// install take long; a claim never given back must not hang the removal); `issueBusy` then,
    /// or when another process (or library instance) holds it for more than a second (its
    /// short work, a hand-over or a reconcile's row, may end meanwhile).
    private func claimForRemoval(_ name: String) async throws(LibraryError) -> IssueClaim {
        let claims = claims
        countClaimant(name, 1)
        work[name, default: IssueWork()].isRemoving = true
        var claimed = false
        defer {
            work[name]?.isRemoving = false
            if !claimed { countClaimant(name, -1) }
        }
        let clock = configuration.clock
        var heldElsewhereSince: Double?
        let ownWorkDeadline = clock.now() + 120
        var freedRoom = false
        while !Task.isCancelled {
            await cancelDownload(name)
            let taken = await BlockingWork.run { Result { () throws(LibraryError) in try claims.take(name) } }
            let claim: IssueClaim?
            do {
                claim = try taken.get()
            } catch {
                // On a full disk the claim's row finds no room. Nobody held the issue (its row was
                // being written), so its partial download is this removal's to delete: the room.
                guard !freedRoom, freePartialOnFullDisk(name) else { throw error }
                freedRoom = true
                continue
            }
            if let claim {
                claimed = true
                return claim
            }
            if running[name] != nil || claimants(of: name) > 1 {
                heldElsewhereSince = nil
                if clock.now() > ownWorkDeadline { throw .issueBusy(name: name) }
            } else if let since = heldElsewhereSince, clock.now() - since > 1 {
                // Nothing of this library's holds it: another process does.
                throw .issueBusy(name: name)
            } else if heldElsewhereSince == nil {
                heldElsewhereSince = clock.now()
            }
            await clock.sleep(0.02)
        }
        throw .cancelled(name: name)
    }

    /// Deletes a content folder renamed aside (`takeOffShelf`); a crash before the end leaves a
    /// leftover that the next open removes.
    func delete(_ doomed: String, of name: String) async {
        let issues = layout.issues
        let log = configuration.log
        await BlockingWork.run {
            do {
                try OpenFolder.open(issues).removeTree(doomed)
                log(.info, "removed the content of \(name)")
            } catch {
                log(.notice, "the content of \(name) was not removed yet: \(error)")
            }
        }
    }

    /// Applies `LibraryConfiguration.maxDownloadedIssues` and `maxStorageBytes`: removes the
    /// oldest downloaded issues beyond them, never the one being read (nor one another process is
    /// working on). Returns the names removed.
    @discardableResult
    public func applyStoragePolicy() async throws(LibraryError) -> [String] {
        try await applyStoragePolicy(protecting: [])
    }

    func applyStoragePolicy(protecting protected: Set<String>) async throws(LibraryError) -> [String] {
        let budget = StorageBudget(maxIssues: configuration.maxDownloadedIssues, maxBytes: configuration.maxStorageBytes)
        guard budget.maxIssues != nil || budget.maxBytes != nil else { return [] }
        let names = IssueOrder.sorted(state.issues.values.filter { $0.status == .available }) { ($0.date, $0.name) }.map(\.name)
        let layout = layout
        // Only a byte budget needs the sizes, and measuring walks every downloaded issue's files.
        let measured =
            budget.maxBytes == nil ? nil : await BlockingWork.run { names.map { ContentUsage.bytes(of: layout.content(of: $0)) } }
        let downloaded = names.enumerated().map { StorageBudget.Issue(name: $1, bytes: measured?[$0] ?? 0) }
        var kept = protected
        if let reading = state.currentlyReading { kept.insert(reading) }
        let chosen = budget.removals(from: downloaded, keeping: kept)
        guard !chosen.isEmpty else { return [] }
        let claims = claims
        for name in chosen { countClaimant(name, 1) }
        let taken = await BlockingWork.run { chosen.map { name in (name, try? claims.take(name)) } }
        var removed: [(record: IssueRecord, doomed: String?, claim: IssueClaim)] = []
        let reading = state.currentlyReading
        for (name, claim) in taken {
            // One another process is updating (or removing) stays: the next pass can take it.
            guard let claim, let record = state.issues[name], record.status == .available, running[name] == nil,
                claimants(of: name) == 1
            else {
                countClaimant(name, -1)
                claim?.release()
                continue
            }
            do {
                removed.append((record, try takeOffShelf(name), claim))
            } catch {
                countClaimant(name, -1)
                claim.release()
                log(.notice, "storage policy could not remove \(name): \(error)")
            }
        }
        defer {
            for entry in removed {
                countClaimant(entry.record.name, -1)
                entry.claim.release()
            }
        }
        guard !removed.isEmpty else { return [] }
        do {
            try await save()
        } catch {
            for entry in removed.reversed() {
                putBack(entry.record.name, record: entry.record, doomed: entry.doomed, reading: reading)
            }
            throw error
        }
        for entry in removed {
            finishRemoval(of: entry.record)
            configuration.analytics?.record(.issueRemoved(name: entry.record.name, byPolicy: true))
            // Not waited for: the download that made room should not wait for old trees to go.
            if let doomed = entry.doomed {
                let name = entry.record.name
                Task { await delete(doomed, of: name) }
            }
        }
        let removedNames = removed.map(\.record.name)
        log("storage policy removed \(removedNames.joined(separator: ", "))")
        return removedNames
    }

    /// Takes the content folder of `name` off the shelf (renamed aside: the caller deletes it off
    /// the actor once the change is committed) and updates its record, not committed: the caller
    /// commits once, and puts everything back (`putBack`) when that fails. Returns the name the
    /// content was renamed to, if there was content.
    private func takeOffShelf(_ name: String) throws(LibraryError) -> String? {
        guard state.issues[name] != nil else { return nil }
        let content = layout.content(of: name)
        var doomed: String?
        do {
            let issues = try OpenFolder.open(layout.issues)
            if issues.kind(of: name) != nil {
                // Rename first: a crash during the delete leaves a leftover that open removes,
                // not a half-deleted issue that looks available.
                let aside = layout.temporaryContent(of: name).lastPathComponent
                try issues.rename(name, to: aside)
                doomed = aside
            }
        } catch {
            throw .fileSystem(path: content.path, reason: error.reason)
        }
        state.takeOffShelf(name)
        return doomed
    }

    /// Undoes `takeOffShelf` after a failed commit: the content back under its name, the record
    /// and the issue being read as they were.
    private func putBack(_ name: String, record: IssueRecord, doomed: String?, reading: String?) {
        if let doomed {
            do {
                try OpenFolder.open(layout.issues).rename(doomed, to: name)
            } catch {
                log(.error, "the content of \(name) could not be put back: \(error)")
            }
        }
        state.issues[name] = record
        if reading == name { state.currentlyReading = reading }
    }

    /// What follows a committed removal: the partial download and, for an issue that left the
    /// shelf, its cover go; the app hears of it.
    private func finishRemoval(of record: IssueRecord) {
        let name = record.name
        PartMetadata.discard(part: layout.part(of: name, scale: state.scale))
        StreamStaging.discardSoon(beside: layout.part(of: name, scale: state.scale))
        if state.issues[name] == nil, let cover = record.coverFileName { layout.removeCover(cover) }
        emit(.statusChanged(name: name, .none))
    }
}
