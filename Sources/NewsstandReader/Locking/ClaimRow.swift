import Foundation

/// One row of the `claims` table: who holds an issue's claim (`IssueClaims`). Read as input from
/// outside: a row that does not read back (a token too long, a pid that is no number) holds
/// nothing and is replaced.
struct ClaimRow: Equatable, Sendable {
    var name: String
    /// Unique to one taking of the claim: an instance's UUID and a counter.
    var token: String
    var pid: Int32
    /// Seconds since 1970 when the holder last said it is working.
    var renewed: Double

    static let create = """
        CREATE TABLE IF NOT EXISTS claims (
            name TEXT PRIMARY KEY NOT NULL,
            token TEXT NOT NULL,
            pid INTEGER NOT NULL,
            renewed REAL NOT NULL
        ) WITHOUT ROWID;
        """

    /// `name`'s row, when there is one that reads back.
    static func read(_ name: String, in database: SQLiteDatabase) throws(SQLiteFailure) -> ClaimRow? {
        let statement = try database.prepare("SELECT name, token, pid, renewed FROM claims WHERE name = ?1")
        try statement.bind([.text(name)])
        guard try statement.step() else { return nil }
        return row(from: statement)
    }

    /// Every row that reads back (a row that does not is deleted: it holds nothing).
    static func all(in database: SQLiteDatabase) throws(SQLiteFailure) -> [ClaimRow] {
        let statement = try database.prepare("SELECT name, token, pid, renewed FROM claims")
        var rows: [ClaimRow] = []
        var unreadable: [String] = []
        while try statement.step() {
            if let row = row(from: statement) {
                rows.append(row)
            } else if let name = statement.text(0, limit: 1 << 12) {
                unreadable.append(name)
            }
        }
        let delete = try database.prepare("DELETE FROM claims WHERE name = ?1")
        for name in unreadable { try delete.run([.text(name)]) }
        return rows
    }

    private static func row(from statement: SQLiteStatement) -> ClaimRow? {
        guard let name = statement.text(0, limit: 1 << 12), let token = statement.text(1, limit: 256),
            let pid = statement.int64(2).flatMap(Int32.init(exactly:)), let renewed = statement.double(3)
        else { return nil }
        return ClaimRow(name: name, token: token, pid: pid, renewed: renewed)
    }

    /// Writes this row over whatever `name` had.
    func write(in database: SQLiteDatabase) throws(SQLiteFailure) {
        try database.prepare("INSERT OR REPLACE INTO claims (name, token, pid, renewed) VALUES (?1, ?2, ?3, ?4)")
            .run([.text(name), .text(token), .integer(Int64(pid)), .real(renewed)])
    }

    /// Deletes the row taken with `token`, if it is still there.
    static func delete(token: String, in database: SQLiteDatabase) throws(SQLiteFailure) {
        try database.prepare("DELETE FROM claims WHERE token = ?1").run([.text(token)])
    }

    /// Says the holder of `token` is still working; false when its row is gone (taken over).
    static func renew(token: String, at time: Double, in database: SQLiteDatabase) throws(SQLiteFailure) -> Bool {
        try database.prepare("UPDATE claims SET renewed = ?1 WHERE token = ?2").run([.real(time), .text(token)])
        return database.changes > 0
    }
}
