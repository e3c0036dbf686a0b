import Foundation

/// The status and headers of the final response (after redirects), from whichever transport.
public struct HTTPHead: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header values by lowercased name.
    public var headers: [String: String]

    /// A head from a status and headers by any case.
    public init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// A header's value, by case-insensitive name.
    public func value(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Content-Length`, when present and valid.
    public var contentLength: Int64? { value("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } }
}
