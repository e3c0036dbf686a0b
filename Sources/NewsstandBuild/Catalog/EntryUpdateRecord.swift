import Foundation
import NewsstandCore
import NewsstandFormat

/// When an issue's feed metadata last changed: the Atom entry's `updated`, which Apple's
/// Newsstand reads to notice an edit (an issue's `Date` never moves when its summary is
/// corrected, so it cannot serve).
///
/// Kept per issue in `<output>/<name>/.newsstand/feed-updated.json`, beside (not inside) the
/// build manifest: a fingerprint of what the feeds show of the issue (Title, Summary, Date,
/// Cover name and the covers' SHA-256; a paid issue's Access and ProductID) and the time it
/// was first seen: the Atom entry's `updated` and the OPDS publication's `modified`. The time
/// advances only when the fingerprint changes, so a rebuild with no metadata change writes the
/// same feeds.
///
/// The record is read from the output folder and may lie: one that is a link, larger than
/// `maximumBytes`, undecodable, or whose time is not a plist date no later than a day past
/// `now` is not trusted (a warning) and treated as absent. An absent record gives `now`, not
/// the issue's date: a store that already saw a later `updated` would ignore an older one and
/// miss an edit. A new time is never earlier than the recorded one (a machine with a slow clock).
struct EntryUpdateRecord: Codable, Equatable {
    var fingerprint: String
    var updated: String

    static let fileName = "feed-updated.json"
    /// A record newsstand writes is about 130 bytes.
    static let maximumBytes = 4096
    /// How far past `now` a recorded time may lie (clocks of CI machines differ).
    static let allowedSkew: TimeInterval = 86_400

    /// What the feeds show of an issue, digested. A paid issue's access and product (which
    /// the OPDS feed shows) count too; for a free issue they add nothing, so the records of
    /// issues built before paid issues existed still match. So does an issue's own `Language`
    /// (the feeds' `xml:lang` and `language`), only when it gives one.
    static func fingerprint(_ manifest: BuildManifest) -> String {
        let metadata = manifest.metadata
        // Each field on its own line with its length, so no two field sets digest alike.
        var fields = [
            metadata.title, metadata.summary ?? "\u{0}", PlistDate.format(metadata.date), metadata.cover,
            manifest.cover.sha256, manifest.retinaCover.sha256,
        ]
        if metadata.access == .paid { fields += [metadata.access.rawValue, metadata.productID ?? "\u{0}"] }
        if let language = metadata.language { fields.append("Language=\(language)") }
        return SHA256.hex(of: Data(fields.map { "\($0.utf8.count):\($0)\n" }.joined().utf8))
    }

    /// The outcome for one issue: the entry's `updated`, the record to write (nil when the
    /// one there is current) and a warning about a record that was not trusted.
    struct Resolution {
        var updated: Date
        var write: EntryUpdateRecord?
        var warning: String?
    }

    /// Decides the `updated` of `manifest`'s entry from the record in its output folder.
    static func resolve(_ manifest: BuildManifest, in issueOutput: OpenFolder?, now: Date) -> Resolution {
        let fingerprint = fingerprint(manifest)
        var warning: String?
        var previous: (record: EntryUpdateRecord, date: Date)?
        switch read(from: issueOutput, now: now) {
        case .success(let found?): previous = found
        case .success(nil): break
        case .failure(let problem):
            warning = "issue '\(manifest.name)': \(problem); the feed's updated time starts again from now"
        }
        if let previous, previous.record.fingerprint == fingerprint {
            return Resolution(updated: previous.date, write: nil, warning: warning)
        }
        // Whole seconds: the feed shows no fractions, and the record must give back what it showed.
        var updated = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        if let previous, previous.date >= updated {
            updated = previous.date.addingTimeInterval(1)
        }
        return Resolution(
            updated: updated, write: EntryUpdateRecord(fingerprint: fingerprint, updated: PlistDate.format(updated)),
            warning: warning)
    }

    /// Why a record is not trusted.
    enum Problem: Error, CustomStringConvertible {
        case unreadable(FileSystemError)
        case tooLarge(path: String)
        case undecodable(path: String)
        case badTime(path: String, String)

        var description: String {
            switch self {
            case .unreadable(let error): "\(error.path) cannot be read: \(error.reason)"
            case .tooLarge(let path):
                "\(path) is larger than \(EntryUpdateRecord.maximumBytes) bytes; newsstand never writes one that large"
            case .undecodable(let path): "\(path) is not a feed record newsstand can read"
            case .badTime(let path, let time):
                "\(path) gives the time \(SourceText.quoted(time)), which is not a UTC date no later than a day from now"
            }
        }
    }

    /// The record in an issue's output folder, opened without following links; nil when there is none.
    static func read(from issueOutput: OpenFolder?, now: Date) -> Result<(record: EntryUpdateRecord, date: Date)?, Problem> {
        guard let issueOutput else { return .success(nil) }
        let path = issueOutput.path(of: "\(BuildManifest.folderName)/\(fileName)")
        let data: Data?
        do {
            data = try issueOutput.folder(BuildManifest.folderName).file(fileName).readAll(limit: maximumBytes)
        } catch .missing {
            return .success(nil)
        } catch {
            return .failure(.unreadable(error))
        }
        guard let data else { return .failure(.tooLarge(path: path)) }
        guard let record = try? JSONDecoder().decode(EntryUpdateRecord.self, from: data), SHA256.isHex(record.fingerprint)
        else { return .failure(.undecodable(path: path)) }
        guard let date = PlistDate.parse(record.updated), date <= now.addingTimeInterval(allowedSkew) else {
            return .failure(.badTime(path: path, record.updated))
        }
        return .success((record, date))
    }

    /// Writes the record into an issue's output folder (links not followed).
    func write(in issueOutput: OpenFolder) throws(FileSystemError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Two strings always encode.
        let data = (try? encoder.encode(self)) ?? Data()
        // Best effort: a lost record only makes the next build give the entry a new time, which
        // a store takes as an edit (harmless) rather than missing one.
        try AtomicFile.write(data, named: Self.fileName, in: try issueOutput.makeFolder(BuildManifest.folderName), .bestEffort)
    }
}
