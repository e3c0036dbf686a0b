import Foundation

/// Credentials for an HTTP destination, from the environment (`NEWSSTAND_USER` and
/// `NEWSSTAND_PASSWORD`) or a netrc file (`$NETRC`, else `~/.netrc`): never from the command line.
public struct HTTPCredentials: Sendable, Equatable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// The `Authorization` header value.
    var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// Finds credentials for `url`'s host, if any are configured.
    public static func find(for url: URL, environment: [String: String]) -> HTTPCredentials? {
        if let user = environment["NEWSSTAND_USER"], let password = environment["NEWSSTAND_PASSWORD"] {
            return HTTPCredentials(user: user, password: password)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let path = environment["NETRC"] ?? (home as NSString).appendingPathComponent(".netrc")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let host = url.host else { return nil }
        return netrc(text, host: host)
    }

    /// Parses netrc text: `machine <host> login <user> password <secret>` (or `default …`).
    static func netrc(_ text: String, host: String) -> HTTPCredentials? {
        let tokens = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        var fallback: HTTPCredentials?
        var index = 0
        while index < tokens.count {
            let isDefault = tokens[index] == "default"
            guard tokens[index] == "machine" || isDefault else {
                index += 1
                continue
            }
            let machine = isDefault ? nil : tokens[safe: index + 1]
            index += isDefault ? 1 : 2
            var user: String?
            var password: String?
            while index < tokens.count, tokens[index] != "machine", tokens[index] != "default" {
                switch tokens[index] {
                case "login": user = tokens[safe: index + 1]
                case "password": password = tokens[safe: index + 1]
                default: break
                }
                index += tokens[index] == "login" || tokens[index] == "password" || tokens[index] == "account" ? 2 : 1
            }
            guard let user, let password else { continue }
            if machine == host { return HTTPCredentials(user: user, password: password) }
            if isDefault { fallback = HTTPCredentials(user: user, password: password) }
        }
        return fallback
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
