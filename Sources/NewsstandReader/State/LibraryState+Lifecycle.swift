import Foundation

extension LibraryState {
    /// Writes a lifecycle back into the issue's record and transfer row: everything it holds but
    /// the transient `isRemoving` and the bytes of a transfer's progress reads back the same
    /// (`lifecycle(of:installing:)`; IssueLifecycleTests stores and reads back every reachable state).
    mutating func store(_ life: IssueLifecycle, event: LifecycleEvent) {
        let name = life.name
        guard var record = issues[name] else { return }
        record.status = life.status
        record.hasUpdate = life.hasUpdate
        record.installedSHA256 = life.installed?.sha256
        record.installedContentURL = life.installed?.contentURL
        record.installedScale = life.installed?.scale
        issues[name] = record
        guard var row = transfers[name] else { return }
        if let transfer = life.transfer {
            if row.generation != transfer.generation { row.resumeData = transfer.restarts > row.restarts ? row.resumeData : nil }
            row.generation = transfer.generation
            row.stage =
                switch transfer.stage {
                case .queued: .queued
                case .transferring: .transferring
                case .received, .installing: .received
                }
            row.receivedFile = transfer.file
            row.restarts = transfer.restarts
            row.intent = transfer.intent
            row.engine = transfer.engine
            row.bytesReceived = transfer.progress.bytesReceived
            row.bytesExpected = transfer.progress.bytesExpected ?? row.bytesExpected
            row.lastError = nil
        } else {
            row.generation = max(row.generation, life.lastGeneration)
            row.stage = .ended
            row.receivedFile = nil
            row.resumeData = nil
            row.lastError = life.failure
        }
        transfers[name] = row
    }

    /// Gives `event` to `name`'s lifecycle and stores what it became, for a caller that carries
    /// out the actions itself (or has none to carry out); returns them. Nothing is written when
    /// the event changed nothing.
    @discardableResult
    mutating func apply(_ event: LifecycleEvent, to name: String, installing: Bool = false) -> [LifecycleAction] {
        guard var life = lifecycle(of: name, installing: installing) else { return [] }
        let before = life
        let actions = life.handle(event)
        if life != before { store(life, event: event) }
        return actions
    }

    /// Takes `name`'s content off the shelf in the state (its folder was renamed aside): nothing
    /// installed, no update, not the issue being read; an issue the catalog no longer lists
    /// leaves the shelf.
    mutating func takeOffShelf(_ name: String) {
        guard var record = issues[name] else { return }
        record.status = .none
        record.hasUpdate = false
        record.installedSHA256 = nil
        record.installedContentURL = nil
        record.installedScale = nil
        if currentlyReading == name { currentlyReading = nil }
        issues[name] = record.isInCatalog ? record : nil
    }

    /// Open's repair of one record against the disk (`IssueLibrary.recover`): content that
    /// vanished is not installed; a first download's bytes are what its part file holds.
    mutating func repair(_ name: String, hasContent: Bool, partBytes: () -> Int64) {
        guard var record = issues[name] else { return }
        switch record.status {
        case .available where !hasContent:
            record.status = .none
            record.installedSHA256 = nil
            record.installedContentURL = nil
            record.installedScale = nil
        case .downloading:
            record.status = .downloading(
                DownloadProgress(bytesReceived: partBytes(), bytesExpected: record.contentSize.map(Int64.init)))
        default:
            return
        }
        issues[name] = record
    }

    /// `name`'s lifecycle as the record and the transfer row hold it; a received file is being
    /// installed when `installing` (the library's install task runs).
    func lifecycle(of name: String, installing: Bool) -> IssueLifecycle? {
        guard let record = issues[name] else { return nil }
        var life = IssueLifecycle(name: name)
        if record.status == .available, let sha256 = record.installedSHA256, let url = record.installedContentURL {
            life.installed = InstalledContent(sha256: sha256, contentURL: url, scale: record.installedScale ?? scale)
        }
        life.hasUpdate = record.hasUpdate
        guard let row = transfers[name] else { return life }
        life.lastGeneration = row.generation
        guard row.isActive else {
            life.failure = row.lastError
            return life
        }
        let stage: TransferState.Stage =
            switch row.stage {
            case .queued: .queued
            case .transferring: .transferring
            case .received, .ended:
                installing ? .installing(file: row.receivedFile ?? "") : .received(file: row.receivedFile ?? "")
            }
        life.transfer = TransferState(
            generation: row.generation, stage: stage, intent: row.intent, engine: row.engine, progress: row.progress,
            restarts: row.restarts)
        return life
    }
}
