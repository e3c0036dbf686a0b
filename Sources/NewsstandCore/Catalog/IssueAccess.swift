/// Who may fetch an issue's content: everyone (`free`, the default), or only readers the
/// publisher's entitlement service vouches for (`paid`). `issue.plist` and the catalog spell
/// it `Access`; the catalog writes it for paid issues only, so a free issue's entry is what
/// it always was. A paid issue's bundles, indexes and Baker book live under
/// `<BaseURL>paid/<name>/`, which the host serves only with a signature (`SignedURL`); its
/// cover stays in `<name>/`, public like the catalogs.
public enum IssueAccess: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Anyone may download the issue.
    case free
    /// Only readers the publisher vouches for may download the issue.
    case paid

    /// The folder, under the BaseURL and in a build's output, holding every paid issue's
    /// content (`paid/<name>/`): one path rule protects them all, as hosting configurations are
    /// path-based (an nginx `location`, a CDN behaviour, a bucket policy). No issue may have
    /// this name.
    public static let paidFolder = "paid"

    /// Whether an issue name is the paid folder's, in any letter case (a Mac disk would take
    /// `Paid/` for `paid/`): no issue may be named so.
    public static func isReserved(_ name: String) -> Bool { name.lowercased() == paidFolder }

    /// The folder of an issue's content (bundles, indexes, Baker book), relative to the
    /// BaseURL and to the output: `<name>` for a free issue, `paid/<name>` for a paid one.
    public func contentFolder(of issue: String) -> String {
        switch self {
        case .free: issue
        case .paid: "\(Self.paidFolder)/\(issue)"
        }
    }

    /// The access a catalog's `Access` value says. Absent (or not a string, as for every
    /// optional key) is free; any string but `free` is paid: a value a later version may
    /// write (a subscription tier) still names content that is not for everyone.
    public init(catalogValue: PlistValue?) {
        guard let text = catalogValue?.string else {
            self = .free
            return
        }
        self = text == IssueAccess.free.rawValue ? .free : .paid
    }
}
