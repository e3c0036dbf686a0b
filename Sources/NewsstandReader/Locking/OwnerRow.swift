import Foundation

/// The owner columns of an issue's row of the `ownership` table: who holds the claim
/// (`IssueClaims`). The row's other column, the revision of the rows, is the commits'
/// (`StateStatements`); neither part writes the other's. Read as input from outside: an owner
/// that does not read back (a token too long, a pid that is no number) holds nothing and is
/// replaced.
struct OwnerRow: Equatable, Sendable {
    var name: String
    /// Unique to one taking of the claim: an instance's UUID and a counter.
    var token: String
    var pid: Int32
    /// Seconds since 1970 when the holder last said it is working.
    var renewed: Double

    /// `name`'s owner, when it has one that reads back.
    static func read(_ name: String, in database: SQLiteDatabase) throws(SQLiteFailure) -> OwnerRow? {
        let statement = try database.prepare(
            "SELECT name, token, pid, renewed FROM ownership WHERE name = ?1 AND token IS NOT NULL")
        try statement.bind([.text(name)])
        guard try statement.step() else { return nil }
        return row(from: statement)
    }

    /// Every owner that reads back (one that does not is cleared: it holds nothing).
    static func all(in database: SQLiteDatabase) throws(SQLiteFailure) -> [OwnerRow] {
        let statement = try database.prepare("SELECT name, token, pid, renewed FROM ownership WHERE token IS NOT NULL")
        var rows: [OwnerRow] = []
        var unreadable: [String] = []
        while try statement.step() {
            if let row = row(from: statement) {
                rows.append(row)
            } else if let name = statement.text(0, limit: 1 << 12) {
                unreadable.append(name)
            }
        }
        let clear = try database.prepare("UPDATE ownership SET token = NULL, pid = NULL, renewed = NULL WHERE name = ?1")
        for name in unreadable { try clear.run([.text(name)]) }
        return rows
    }

    private static func row(from statement: SQLiteStatement) -> OwnerRow? {
        guard let name = statement.text(0, limit: 1 << 12), let token = statement.text(1, limit: 256),
            let pid = statement.int64(2).flatMap(Int32.init(exactly:)), let renewed = statement.double(3)
        else { return nil }
        return OwnerRow(name: name, token: token, pid: pid, renewed: renewed)
    }

    /// Makes this the owner, over whatever owner it had, keeping its revision.
    func write(in database: SQLiteDatabase) throws(SQLiteFailure) {
        try database.prepare(
            """
            INSERT INTO ownership (name, token, pid, renewed) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (name) DO UPDATE SET token = excluded.token, pid = excluded.pid, renewed = excluded.renewed
            """
        ).run([.text(name), .text(token), .integer(Int64(pid)), .real(renewed)])
    }

    /// Clears `name`'s owner taken with `token`, if it is still the owner (by the primary key:
    /// the table holds a row for every issue that had a transfer).
    static func clear(_ name: String, token: String, in database: SQLiteDatabase) throws(SQLiteFailure) {
        try database.prepare("UPDATE ownership SET token = NULL, pid = NULL, renewed = NULL WHERE name = ?1 AND token = ?2")
            .run([.text(name), .text(token)])
    }

    /// Deletes the rows nobody owns of issues that have neither a record nor a transfer any more
    /// (removed from the catalog): their revision is no basis of anything.
    static func pruneOrphans(in database: SQLiteDatabase) throws(SQLiteFailure) {
        try database.execute(
            """
            DELETE FROM ownership WHERE token IS NULL
            AND name NOT IN (SELECT name FROM issues) AND name NOT IN (SELECT name FROM transfers)
            """)
    }

    /// Says the holder of `name`'s claim taken with `token` is still working; false when it is no
    /// longer the owner (taken over).
    static func renew(_ name: String, token: String, at time: Double, in database: SQLiteDatabase) throws(SQLiteFailure) -> Bool {
        try database.prepare("UPDATE ownership SET renewed = ?1 WHERE name = ?2 AND token = ?3")
            .run([.real(time), .text(name), .text(token)])
        return database.changes > 0
    }
}
