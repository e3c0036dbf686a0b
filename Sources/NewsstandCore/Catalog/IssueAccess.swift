/// Who may fetch an issue's content: everyone (`free`, the default), or only readers the
/// publisher's entitlement service vouches for (`paid`). `issue.plist` and the catalog spell
/// it `Access`; the catalog writes it for paid issues only, so a free issue's entry is what
/// it always was.
public enum IssueAccess: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// Anyone may download the issue.
    case free
    /// Only readers the publisher vouches for may download the issue.
    case paid

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
