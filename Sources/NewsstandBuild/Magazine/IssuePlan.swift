import Foundation
import NewsstandCore
import NewsstandFormat

/// What `issue.plist` says about an issue.
public struct IssueMetadata: Sendable, Equatable, Codable {
    /// The title shown on the shelf.
    public var title: String
    /// The publication date.
    public var date: Date
    /// The cover's file name in `assets/`.
    public var cover: String
    /// A short description, when given.
    public var summary: String?
    /// The store product identifier the app sells the issue as.
    public var productID: String?
    /// Whether the issue is free (the default) or paid.
    public var access: IssueAccess
    /// The BCP 47 language tag `issue.plist` gives, when it does (`Magazine.language(of:)`
    /// says which language applies when it does not).
    public var language: String?

    /// Metadata as `issue.plist` gives it; a free issue unless `access` says otherwise.
    public init(
        title: String, date: Date, cover: String, summary: String? = nil, productID: String? = nil, access: IssueAccess = .free,
        language: String? = nil
    ) {
        self.title = title
        self.date = date
        self.cover = cover
        self.summary = summary
        self.productID = productID
        self.access = access
        self.language = language
    }

    private enum CodingKeys: String, CodingKey { case title, date, cover, summary, productID, access, language }

    /// A manifest written before `Access` existed says nothing of it: the issue was free; one
    /// written before `Language` gives none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        date = try container.decode(Date.self, forKey: .date)
        cover = try container.decode(String.self, forKey: .cover)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        productID = try container.decodeIfPresent(String.self, forKey: .productID)
        access = try container.decodeIfPresent(IssueAccess.self, forKey: .access) ?? .free
        language = try container.decodeIfPresent(String.self, forKey: .language)
    }
}

/// A file an issue's bundles need, by the name the page config uses.
public struct PlannedAsset: Sendable, Hashable, Comparable, Codable {
    public var name: String
    public var kind: AssetKind

    /// The name of the file in `assets/` and in the bundle for a scale: images use their
    /// `@2x` file in the retina bundle; movies and other files are the same in both.
    public func fileName(retina: Bool) -> String {
        retina && kind == .image ? RetinaName.of(name) : name
    }

    public static func < (lhs: PlannedAsset, rhs: PlannedAsset) -> Bool { lhs.name < rhs.name }
}

/// A validated issue, ready to build: everything the bundle builder and catalog writer need.
public struct IssuePlan: Sendable {
    /// The issue's name (its folder's name).
    public var name: String
    /// The issue's source folder (`<magazine>/issues/<name>`).
    public var folder: URL
    /// The magazine's folder, from which the issue's folder is opened (without following links).
    public var magazineFolder: URL
    public var metadata: IssueMetadata
    /// Every referenced asset, sorted by name, each once.
    public var assets: [PlannedAsset]
    /// The normal-size images (names in `assets/`, among `assets` and the cover) that are not in
    /// `assets/`: the build derives each from its `@2x` master (`DeriveNormalSize`).
    public var derived: Set<String> = []
    /// SHA-256 of `issue.plist` and `pages.plist` as validated, by file name: the build packs
    /// them only if they are still those bytes.
    public var configDigests: [String: String]
    /// The validation that made this plan, as the build records it.
    public var validation: ValidationRecord
    /// What the build record said when the validation was reused from it; nil when the issue
    /// was validated in this run.
    public var recorded: RecordedBuild?

    /// Whether the file of `name` (a normal-size name) in the bundle of a scale is derived
    /// rather than read from `assets/`.
    public func isDerived(_ name: String, retina: Bool) -> Bool { !retina && derived.contains(name) }

    /// The source folder of assets.
    public var assetsFolder: URL { folder.appendingPathComponent("assets", isDirectory: true) }
}
