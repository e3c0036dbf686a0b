import Foundation
import NewsstandCore
import NewsstandFormat

/// An issue's validation as a build record keeps it (in the manifest), so that a later run can
/// reuse it while nothing it depended on has changed: what was found (every diagnostic, warnings
/// included, so they are printed and counted again) and the plan's parts that are not in the
/// manifest already. The manifest's inputs (size, times, XXH3 of each file the validation
/// opened) and `listing` say what it depended on in the issue; `key` what it depended on
/// outside it.
public struct ValidationRecord: Sendable, Codable, Equatable {
    /// The magazine-wide inputs of validation (`Magazine.recordKey`): the tool's version and the
    /// page-class schemas' bytes.
    public var key: String
    /// XXH3 of the listing of the issue's `assets/` (`AssetListing`): names and kinds of every
    /// entry validation saw, referenced or not.
    public var listing: String
    /// SHA-256 of `issue.plist` and `pages.plist` as validated (`IssuePlan.configDigests`).
    public var configDigests: [String: String]
    /// The assets the bundles hold (`IssuePlan.assets`).
    public var assets: [PlannedAsset]
    /// Every diagnostic found, in order; never an error (an issue with errors is not built).
    public var diagnostics: [Diagnostic]
    /// The normal-size images the build derives from their `@2x` masters (`IssuePlan.derived`);
    /// absent from records that derive none.
    public var derived: Set<String>

    public init(
        key: String, listing: String, configDigests: [String: String], assets: [PlannedAsset], derived: Set<String> = [],
        diagnostics: [Diagnostic]
    ) {
        self.key = key
        self.listing = listing
        self.configDigests = configDigests
        self.assets = assets
        self.derived = derived
        self.diagnostics = diagnostics
    }

    /// The key of a validation of `magazine` with `feeds`: `--feed atom` adds the Newsstand
    /// feed's rules (NS-601, NS-602) to every issue, so a record made without them is not reused with them.
    /// DeriveNormalSize off (`magazine.plist`) makes a missing normal-size image an error
    /// again, so a record made with derivation on is not reused with it off.
    public static func key(_ magazine: Magazine, feeds: Set<Feed>) -> String {
        (feeds.contains(.atom) ? magazine.recordKey + "+atom" : magazine.recordKey)
            + (magazine.derivesNormalSize ? "" : "+no-derive")
    }

    private enum Keys: String, CodingKey { case key, listing, configDigests, assets, derived, diagnostics }

    // Assets are kept as "<kind> <name>" strings ("image 1-0.png"): every record of a
    // magazine is read on every build, and a JSON object per asset cost 4% of a no-change build.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        key = try container.decode(String.self, forKey: .key)
        listing = try container.decode(String.self, forKey: .listing)
        configDigests = try container.decode([String: String].self, forKey: .configDigests)
        diagnostics = try container.decode([Diagnostic].self, forKey: .diagnostics)
        derived = Set(try container.decodeIfPresent([String].self, forKey: .derived) ?? [])
        assets = try container.decode([String].self, forKey: .assets).map { text in
            let parts = text.utf8.split(separator: 0x20, maxSplits: 1).map { String(decoding: $0, as: UTF8.self) }
            guard parts.count == 2, let kind = AssetKind(rawValue: parts[0]) else {
                throw DecodingError.dataCorruptedError(forKey: .assets, in: container, debugDescription: "not an asset")
            }
            return PlannedAsset(name: parts[1], kind: kind)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(key, forKey: .key)
        try container.encode(listing, forKey: .listing)
        try container.encode(configDigests, forKey: .configDigests)
        try container.encode(assets.map { "\($0.kind.rawValue) \($0.name)" }, forKey: .assets)
        try container.encode(diagnostics, forKey: .diagnostics)
        if !derived.isEmpty { try container.encode(derived.sorted(), forKey: .derived) }
    }
}

/// What a magazine-wide build record says about an issue whose validation was reused from it.
public struct RecordedBuild: Sendable, Equatable {
    /// The settings the recorded outputs were made with.
    public var settings: OutputSettings
    /// Every input had its recorded size and times (none needed hashing) and every output is
    /// present with its recorded size: the build may take the issue as up to date at once
    /// when it would use the same settings (`UpToDateRule`).
    public var isCurrent: Bool
}

/// The listing of an issue's `assets/` as validation sees it, reduced to a digest: every entry
/// that is not hidden, by raw name, with its kind. An added unreferenced file (NS-306), a file
/// renamed to fix its letter case, a deleted `@2x` file or a link put in place of a file each
/// change it; a changed file's content does not (the inputs' records cover that).
enum AssetListing {
    /// The digest of `entries`, or of an absent folder when nil.
    static func digest(_ entries: [FolderEntry]?) -> String {
        let hasher = XXH3()
        guard let entries else {
            hasher.update("absent")
            return hasher.finalizeHex()
        }
        hasher.update("listing")
        for entry in entries.filter({ !$0.isHidden }).sorted(by: { $0.rawName.lexicographicallyPrecedes($1.rawName) }) {
            // Kind, then the name with its length: no two listings give the same bytes.
            hasher.update("\n\(entry.kind) \(entry.rawName.count) ")
            entry.rawName.withUnsafeBytes { hasher.update($0) }
        }
        return hasher.finalizeHex()
    }
}

/// The magazine-wide part of every validation record's key.
enum RecordKey {
    /// The largest schema file hashed; a larger one is not read (the loader reports it) and
    /// gives a key no record has.
    static let maximumSchemaBytes = 64 << 20

    /// Raised when the rules come to read something a record made under the same tool version
    /// did not: 2 reads `issue.plist`'s `Access` (a record of 1 took it for an unknown key, and
    /// reusing it would publish a paid issue as free).
    static let rulesRevision = 2

    /// The key for the tool's version, the rules' revision, and the bytes of the built-in page classes and the
    /// magazine's `page-classes.plist` (or its absence). Computed before the schemas are read,
    /// so that a schema edited while it is read gives a key that no longer matches it, and the
    /// next run validates again. `magazine.plist` is not part of it: no rule of an issue reads
    /// it (its Title and BaseURL go into the catalogs, which every build writes afresh).
    static func make(magazine: URL, builtInSchema: URL) -> String {
        let hasher = XXH3()
        hasher.update("newsstand \(ToolVersion.current) rules \(rulesRevision)\n")
        for (label, url) in [("built-in", builtInSchema), ("magazine", magazine.appendingPathComponent("page-classes.plist"))] {
            hasher.update("\(label) ")
            let data: Data?
            do {
                data = try OpenFile.open(url).readAll(limit: maximumSchemaBytes)
            } catch .missing {
                hasher.update("absent\n")
                continue
            } catch {
                data = nil
            }
            guard let data else {
                // Unreadable or too large: a key of its own each time, matching no record.
                hasher.update("unreadable \(UUID().uuidString)\n")
                continue
            }
            hasher.update("\(data.count)\n")
            hasher.update(data)
        }
        return hasher.finalizeHex()
    }
}
