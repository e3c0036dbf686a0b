import Foundation

/// The identifiers of a magazine and its issues in every channel (the Atom feed's ids, the
/// OPDS feed's identifiers, each EPUB's `dc:identifier`): `tag:` URIs (RFC 4151) made of the
/// BaseURL's host, a fixed date and the BaseURL's path, plus the issue's name for an issue:
/// `tag:example.com,2026-11-30:/magazine/` and `tag:example.com,2026-11-30:/magazine/a-1`.
///
/// They never change while the magazine stays where it is: a store or reading app takes an
/// item with a new identifier for a new publication. Issue names are ASCII letters, digits,
/// `-`, `_` and `.` (`IssueName`) and the path keeps its percent-escapes, so each is a URI,
/// not only an IRI.
enum TagURI {
    /// The tag date of every identifier. Fixed, so that an identifier never changes: the day
    /// this form was introduced.
    static let date = "2026-11-30"

    /// The magazine's identifier.
    static func magazine(_ baseURL: URL) -> String { "tag:\(authority(of: baseURL)),\(date):\(path(of: baseURL))" }

    /// An issue's identifier: the magazine's with the issue's name after the path.
    static func issue(_ name: String, baseURL: URL) -> String { magazine(baseURL) + name }

    /// The tag's authority: the host in lowercase (a tag has no port; an IPv6 literal, which
    /// is no DNS name, keeps its digits with `-` for `:`).
    static func authority(of url: URL) -> String {
        let host = (url.host ?? "").lowercased()
        return host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).replacingOccurrences(of: ":", with: "-")
    }

    /// The BaseURL's path as it is written (percent-escapes kept), ending in `/`.
    static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
        let rooted = path.hasPrefix("/") ? path : "/" + path
        return rooted.hasSuffix("/") ? rooted : rooted + "/"
    }
}
