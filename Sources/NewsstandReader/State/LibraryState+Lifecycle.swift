import Foundation

extension LibraryState {
    /// Writes a lifecycle back into the issue's record and transfer row.
    mutating func store(_ life: IssueLifecycle, event: LifecycleEvent) {
        let name = life.name
        guard var record = issues[name] else { return }
        // The lifecycle has content installed only when the record said so or an install just
        // committed it (`commitStaged`), so its word on the status is the record's.
        record.status = life.installed == nil ? life.status : .available
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
            row.bytesReceived = transfer.progress.bytesReceived
            row.bytesExpected = transfer.progress.bytesExpected ?? row.bytesExpected
            row.lastError = nil
        } else {
            row.generation = max(row.generation, life.lastGeneration)
            row.stage = .ended
            row.receivedFile = nil
            row.resumeData = nil
            if case .failed(_, let error) = event { row.lastError = error.description }
            if case .engineReported(_, _, .failed(let error, _)) = event { row.lastError = error.description }
        }
        transfers[name] = row
    }
}
