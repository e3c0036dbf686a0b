import Foundation

/// What `newsstand preview` leaves in its output, `.newsstand/web-edition.json`: that the
/// folder is a web edition (so `publish` puts it on a destination, its index page last), and
/// the URL it is published at (magazine.plist's `PreviewURL`, when given), where `publish`
/// asks for its files before and after the switch.
public struct WebEditionRecord: Sendable, Codable, Equatable {
    /// magazine.plist's `PreviewURL` when the preview was written, ending in `/`.
    public var previewURL: String?

    /// The record's path in the web edition's folder.
    public static let path = ".newsstand/web-edition.json"
    /// The largest record read.
    public static let sizeLimit: Int64 = 64 << 10

    public init(previewURL: URL?) {
        self.previewURL = previewURL?.absoluteString
    }

    private enum CodingKeys: String, CodingKey { case previewURL }

    /// Writes `previewURL` as `null` when there is none, so the record says so.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(previewURL, forKey: .previewURL)
    }

    /// The record's bytes: sorted keys, a final newline.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // A string always encodes.
        var data = (try? encoder.encode(self)) ?? Data()
        data.append(0x0A)
        return data
    }

    /// The record in `data`; nil when it is not one, or its URL is not an absolute http(s) URL
    /// ending in `/`.
    public static func decode(_ data: Data) -> WebEditionRecord? {
        guard let record = try? JSONDecoder().decode(WebEditionRecord.self, from: data) else { return nil }
        if let text = record.previewURL {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                text.hasSuffix("/")
            else { return nil }
        }
        return record
    }

    /// The published URL, when the record gives one.
    public var url: URL? { previewURL.flatMap { URL(string: $0) } }
}
