import Foundation

/// The status and headers of the final response (after redirects), from whichever transport.
struct HTTPHead: Sendable, Equatable {
    var status: Int
    /// Header values by lowercased name.
    var headers: [String: String]

    init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// A header's value, by case-insensitive name.
    func value(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Content-Length`, when present and valid.
    var contentLength: Int64? { value("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } }
}
