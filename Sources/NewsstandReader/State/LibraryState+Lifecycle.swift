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
