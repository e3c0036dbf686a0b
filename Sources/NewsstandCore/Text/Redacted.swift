import Foundation

/// Text safe to print or log: user information (`user:password@`) is cut out of every URL in
/// it. Publish never puts credentials in a URL, but a URL can come from elsewhere (a catalog's
/// BaseURL, a server's message), and a secret must not reach a terminal, a CI log or a bug
/// report through any of them.
public enum Redacted {
    /// `text` with the user information of every `scheme://user:password@host` in it replaced
    /// by `***`. The user information is everything between `://` and the last `@` before the
    /// next `/`, `?`, `#` or space, so a password with an unescaped `@` is cut whole, and
    /// `a-1@2x.zip` in a path is left alone.
    public static func message(_ text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        return userInformation.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1***@")
    }

    /// `text` with every URL in it cut to what identifies the resource and no more: user
    /// information replaced by `***@` (as `message` does), and the query and the fragment by
    /// `?…` and `#…`. For logs an app ships: a signed CDN URL carries its secret (a signature, an
    /// expiry, a token) in the query, and a log line must never hold it. A query ends at white
    /// space or a quote, so the text around a quoted URL stays as it was.
    public static func withoutURLSecrets(_ text: String) -> String {
        guard text.contains("://") else { return text }
        let range = NSRange(text.startIndex..., in: text)
        var result = userInformation.stringByReplacingMatches(in: text, range: range, withTemplate: "$1***@")
        result = urlQuery.stringByReplacingMatches(
            in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "$1$2…")
        return result
    }

    /// A URL's scheme and the rest up to its query or fragment, then the `?` or `#` and what
    /// follows it, up to white space, a quote or an angle bracket.
    private static let urlQuery: NSRegularExpression = {
        // The pattern is a constant; it compiles.
        guard let expression = try? NSRegularExpression(pattern: "([A-Za-z][A-Za-z0-9+.\\-]*://[^\\s?#'\"<>]*)([?#])[^\\s'\"<>]*")
        else { preconditionFailure("invalid redaction pattern") }
        return expression
    }()

    private static let userInformation: NSRegularExpression = {
        // The pattern is a constant; it compiles.
        guard let expression = try? NSRegularExpression(pattern: "([A-Za-z][A-Za-z0-9+.\\-]*://)[^/\\s?#]*@") else {
            preconditionFailure("invalid redaction pattern")
        }
        return expression
    }()

    /// Whether a `--to` text carries user information (`http://user:secret@host/`), judged
    /// the way a URL parser would and, for text that does not parse, by any `@` in what would
    /// be the host part.
    public static func hasUserInformation(_ text: String) -> Bool {
        if let components = URLComponents(string: text), components.user != nil || components.password != nil {
            return true
        }
        guard let start = text.range(of: "://") else { return false }
        let authority = text[start.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.contains("@") || URLComponents(string: text) == nil && text[start.upperBound...].contains("@")
    }
}
