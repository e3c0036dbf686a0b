import Foundation
import NewsstandBuild

/// Credentials for an HTTP destination, from the environment (`NEWSSTAND_USER` and
/// `NEWSSTAND_PASSWORD`) or a netrc file (`$NETRC`, else `~/.netrc`): never from the command
/// line, where other users of the machine can read them (`ps`, `/proc/<pid>/cmdline`) and
/// shells and CI logs keep them. They are sent only in the `Authorization` header, and the
/// password is never printed.
public struct HTTPCredentials: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String
    /// Where they came from, for messages (`NEWSSTAND_USER/NEWSSTAND_PASSWORD`, `netrc file /home/a/.netrc`).
    public var source: String

    public init(user: String, password: String, source: String = "") {
        self.user = user
        self.password = password
        self.source = source
    }

    public static func == (a: HTTPCredentials, b: HTTPCredentials) -> Bool {
        a.user == b.user && a.password == b.password
    }

    /// Never the password.
    public var description: String { "user '\(user)'" + (source.isEmpty ? "" : " (from \(source))") }

    /// The `Authorization` header value.
    var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// The largest netrc file read (a netrc is a few lines; anything this big is not one).
    static let netrcLimit = 1 << 20

    /// Finds credentials for `url`'s host, if any are configured.
    public static func find(for url: URL, environment: [String: String]) -> HTTPCredentials? {
        if let user = environment["NEWSSTAND_USER"], let password = environment["NEWSSTAND_PASSWORD"] {
            return HTTPCredentials(user: user, password: password, source: "NEWSSTAND_USER/NEWSSTAND_PASSWORD")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        let path = environment["NETRC"] ?? (home as NSString).appendingPathComponent(".netrc")
        guard let host = url.host, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: netrcLimit), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        guard var found = netrc(text, host: host) else { return nil }
        found.source = "netrc file \(path)"
        return found
    }

    /// What to tell a user whose request was refused with 401 or 403.
    static func hint(status: Int, host: String, sent: HTTPCredentials?) -> String {
        let how =
            "give credentials with NEWSSTAND_USER and NEWSSTAND_PASSWORD, or a 'machine \(host) login … password …' line in a netrc file ($NETRC, else ~/.netrc); never in the URL"
        guard let sent else { return "the server wants credentials and none were given: \(how)" }
        return status == 401
            ? "the server refused the credentials of \(sent): \(how)"
            : "the server refused access for \(sent) (wrong credentials, or no write permission there): \(how)"
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
