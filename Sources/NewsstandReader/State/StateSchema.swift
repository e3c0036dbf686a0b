/// The tables of `library.sqlite`, version 6 (1 had no index columns, `migrateFrom1`; 2 had no
/// transfers table, `createTransfers`; 3 had no access column, `migrateFrom3`; 4 and 5 had no
/// ownership table, `migrateFrom5`; 4 differs from 5 only by the claims table, which goes). `PRAGMA application_id` marks the file as a
/// library's; `PRAGMA user_version` is the schema version (a later version that changes the
/// tables adds a migration step from each earlier one and raises it).
enum StateSchema {
    /// "NSRD": Newsstand reader.
    static let applicationID: Int64 = 0x4E53_5244
    /// The version this library writes and reads.
    static let version: Int64 = 6

    /// The transfers table (version 3): one row per issue handed to an engine (`TransferRecord`).
    static let createTransfers = """
        CREATE TABLE IF NOT EXISTS transfers (
            name TEXT PRIMARY KEY NOT NULL,
            generation INTEGER NOT NULL,
            stage TEXT NOT NULL,
            engine TEXT NOT NULL,
            intent TEXT NOT NULL,
            url TEXT NOT NULL,
            expected_size INTEGER,
            expected_sha256 TEXT,
            scale TEXT NOT NULL,
            received_file TEXT,
            restarts INTEGER NOT NULL,
            bytes_received INTEGER NOT NULL,
            bytes_expected INTEGER,
            resume_data TEXT,
            last_error TEXT
        ) WITHOUT ROWID;
        """

    /// The ownership table (version 6): one row per issue that had a transfer or an owner,
    /// holding who owns the issue's files now (`IssueClaims`; nobody: NULL) and the revision of
    /// its rows (`Revisions`; NULL until a change of the issue's life gives it one).
    static let createOwnership = """
        CREATE TABLE IF NOT EXISTS ownership (
            name TEXT PRIMARY KEY NOT NULL,
            revision INTEGER,
            token TEXT,
            pid INTEGER,
            renewed REAL
        ) WITHOUT ROWID;
        """

    static let create = """
        CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE issues (
            name TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            date REAL NOT NULL,
            summary TEXT,
            product_id TEXT,
            remote_cover_url TEXT NOT NULL,
            remote_content_url TEXT NOT NULL,
            content_size INTEGER,
            content_sha256 TEXT,
            cover_sha256 TEXT,
            status TEXT NOT NULL,
            bytes_received INTEGER,
            bytes_expected INTEGER,
            has_update INTEGER NOT NULL,
            in_catalog INTEGER NOT NULL,
            cover_file TEXT,
            cached_cover_url TEXT,
            cached_cover_sha256 TEXT,
            cached_cover_scale TEXT,
            installed_sha256 TEXT,
            installed_content_url TEXT,
            installed_scale TEXT,
            fallback_cover_url TEXT,
            fallback_content_url TEXT,
            fallback_content_size INTEGER,
            fallback_content_sha256 TEXT,
            fallback_cover_sha256 TEXT,
            missing_retina_content_url TEXT,
            content_index_url TEXT,
            content_index_size INTEGER,
            content_index_sha256 TEXT,
            update_bytes INTEGER,
            access TEXT NOT NULL DEFAULT 'free'
        ) WITHOUT ROWID;
        \(createTransfers)
        \(createOwnership)
        CREATE TABLE reading_positions (
            name TEXT PRIMARY KEY NOT NULL, article INTEGER NOT NULL, page INTEGER NOT NULL
        ) WITHOUT ROWID;
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    /// The issue columns in the order `IssueRow` binds and reads them.
    static let issueColumns = """
        name, title, date, summary, product_id, remote_cover_url, remote_content_url, content_size, content_sha256, \
        cover_sha256, status, bytes_received, bytes_expected, has_update, in_catalog, cover_file, cached_cover_url, \
        cached_cover_sha256, cached_cover_scale, installed_sha256, installed_content_url, installed_scale, \
        fallback_cover_url, fallback_content_url, fallback_content_size, fallback_content_sha256, fallback_cover_sha256, \
        missing_retina_content_url, content_index_url, content_index_size, content_index_sha256, update_bytes, access
        """
    static let issueColumnCount = 33

    /// From version 1 (before issue 14's updates by ranges): the index columns, empty.
    static let migrateFrom1 = """
        ALTER TABLE issues ADD COLUMN content_index_url TEXT;
        ALTER TABLE issues ADD COLUMN content_index_size INTEGER;
        ALTER TABLE issues ADD COLUMN content_index_sha256 TEXT;
        ALTER TABLE issues ADD COLUMN update_bytes INTEGER;
        """

    /// From version 3 (before issue 24's paid issues): the access column, every issue free
    /// until the next refresh reads the catalog's `Access`.
    static let migrateFrom3 = "ALTER TABLE issues ADD COLUMN access TEXT NOT NULL DEFAULT 'free';"

    /// From version 4 or 5 (issue 33's claims were `flock`s on files in `Claims/` in 4, rows of a
    /// claims table in 5), and last of every step, which run in one transaction and set the
    /// version once: the ownership table instead of the claims table (a claim is worth nothing
    /// across an upgrade: its holder was the old version's process). Every transfer gets its row
    /// with a revision (`random()`, as a commit gives one), so that an engine event's change
    /// based on the rows before the upgrade has a basis that a removal, or the pruning of the row
    /// after it, changes.
    static let migrateFrom5 = """
        DROP TABLE IF EXISTS claims;
        \(createOwnership)
        INSERT OR IGNORE INTO ownership (name, revision) SELECT name, random() FROM transfers;
        PRAGMA user_version = 6;
        """

    static let transferColumns = """
        name, generation, stage, engine, intent, url, expected_size, expected_sha256, scale, received_file, restarts, \
        bytes_received, bytes_expected, resume_data, last_error
        """
    static let transferColumnCount = 15
    static let upsertTransfer =
        "INSERT OR REPLACE INTO transfers (\(transferColumns)) VALUES (\((1...transferColumnCount).map { "?\($0)" }.joined(separator: ", ")))"
    static let deleteTransfer = "DELETE FROM transfers WHERE name = ?1"
    static let selectTransfers = "SELECT \(transferColumns) FROM transfers"

    static let upsertIssue =
        "INSERT OR REPLACE INTO issues (\(issueColumns)) VALUES (\((1...issueColumnCount).map { "?\($0)" }.joined(separator: ", ")))"
    static let deleteIssue = "DELETE FROM issues WHERE name = ?1"
    static let selectIssues = "SELECT \(issueColumns) FROM issues"
    static let selectIssue = "SELECT \(issueColumns) FROM issues WHERE name = ?1"
    static let upsertPosition = "INSERT OR REPLACE INTO reading_positions (name, article, page) VALUES (?1, ?2, ?3)"
    static let deletePosition = "DELETE FROM reading_positions WHERE name = ?1"
    static let selectPositions = "SELECT name, article, page FROM reading_positions"
    static let selectPosition = "SELECT name, article, page FROM reading_positions WHERE name = ?1"
    static let upsertSetting = "INSERT OR REPLACE INTO settings (key, value) VALUES (?1, ?2)"
    static let deleteSetting = "DELETE FROM settings WHERE key = ?1"
    static let selectSettings = "SELECT key, value FROM settings"
    static let selectTransfer = "SELECT \(transferColumns) FROM transfers WHERE name = ?1"
    static let selectOwnership = "SELECT 1 FROM ownership WHERE name = ?1"
    /// Gives an issue a new revision (`Revisions`), making its ownership row if needed.
    static let revise =
        "INSERT INTO ownership (name, revision) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET revision = excluded.revision"
    static let selectRevisions = "SELECT name, revision FROM ownership WHERE revision IS NOT NULL"
}
