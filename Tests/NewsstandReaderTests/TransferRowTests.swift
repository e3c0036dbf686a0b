import Foundation
import Testing

@testable import NewsstandReader

/// A transfer row read back from `library.sqlite` is input from outside: its received file is
/// deleted and unpacked later, so only a name the hand-off gives this transfer reads back.
@Suite("Transfer rows read back")
struct TransferRowTests {
    static func row(generation: Int, stage: TransferRecord.Stage, file: String?, restarts: Int) -> TransferRecord {
        var row = TransferRecord(
            name: "a", generation: generation, stage: stage, engine: .background, intent: .user,
            url: URL(string: "https://x.test/a.zip")!, expectedSize: 10, expectedSHA256: nil, scale: .normal)
        row.receivedFile = file
        row.restarts = restarts
        return row
    }

    /// `row` written to a transfers table and read back, or why it was refused.
    static func readBack(_ row: TransferRecord) throws -> Result<TransferRecord, IssueRow.Refusal> {
        let database = try SQLiteDatabase(path: ":memory:", access: .readWrite(create: true))
        try database.execute(StateSchema.createTransfers)
        try database.prepare(StateSchema.upsertTransfer).run(TransferRow.values(of: row))
        let select = try database.prepare(StateSchema.selectTransfers)
        _ = try select.step()
        return Result { () throws(IssueRow.Refusal) in try TransferRow.record(from: select) }
    }

    static func received(_ name: String, _ generation: Int) -> String {
        TransferHandOff.receivedName(of: TransferID(name: name, generation: generation))
    }

    @Test func theRowsTheLibraryWritesReadBack() throws {
        let rows = [
            // Made ready for a transfer not asked yet.
            Self.row(generation: 0, stage: .ended, file: nil, restarts: 0),
            Self.row(generation: 3, stage: .received, file: Self.received("a", 3), restarts: 0),
            // An earlier generation's file, taken by the transfer that restarted it.
            Self.row(generation: 3, stage: .received, file: Self.received("a", 1), restarts: 2),
        ]
        for row in rows { #expect(try Self.readBack(row).get() == row) }
    }

    @Test func aReceivedFileThatIsNotThisTransfersIsRefused() throws {
        let rows = [
            Self.row(generation: 3, stage: .received, file: Self.received("b", 3), restarts: 0),
            Self.row(generation: 3, stage: .received, file: Self.received("a", 4), restarts: 2),
            // Older than any restart of this request.
            Self.row(generation: 3, stage: .received, file: Self.received("a", 1), restarts: 1),
            Self.row(generation: 3, stage: .received, file: "../a#3.received", restarts: 0),
            Self.row(generation: 3, stage: .received, file: "a#3.zip", restarts: 0),
            Self.row(generation: 3, stage: .transferring, file: Self.received("a", 3), restarts: 0),
            Self.row(generation: 0, stage: .queued, file: nil, restarts: 0),
        ]
        for row in rows {
            guard case .failure(let refusal) = try Self.readBack(row) else {
                Issue.record("read back: \(row)")
                continue
            }
            #expect(refusal.name == "a" && refusal.reason.hasPrefix(TransferRow.refusalPrefix), "\(refusal)")
        }
    }
}
