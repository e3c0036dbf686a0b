/// A silent push that announces content: `{"aps": {"content-available": 1}, "content-name": "f-3"}`
/// (Baker's key) or `"content-id": 42` (matched against issue names and product identifiers).
public struct RemoteNotification: Sendable, Equatable {
    /// Whether `aps.content-available` is 1: only then is there anything to fetch.
    public var isContentAvailable: Bool
    /// The issue the push names, when it names one.
    public var issueName: String?
    /// The numeric or string `content-id`, when given.
    public var contentID: String?

    /// Creates a notification from its parts.
    public init(isContentAvailable: Bool, issueName: String? = nil, contentID: String? = nil) {
        self.isContentAvailable = isContentAvailable
        self.issueName = issueName
        self.contentID = contentID
    }

    /// Reads an app delegate's `userInfo` dictionary.
    public init(userInfo: [AnyHashable: Any]) {
        let aps = userInfo["aps"] as? [AnyHashable: Any]
        let flag = aps?["content-available"]
        isContentAvailable = (flag as? Int) == 1 || (flag as? String) == "1" || (flag as? Bool) == true
        issueName = (userInfo["content-name"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        switch userInfo["content-id"] {
        case let id as Int: contentID = String(id)
        case let id as String where !id.isEmpty: contentID = id
        default: contentID = nil
        }
    }
}
