import Foundation
import NewsstandCore

extension PublishVerifier {
    /// The OPDS feed, when the destination serves one: each link not yet checked (a bundle
    /// is, through `issues.plist`, unless its size differs), with the size it gives. A `buy`
    /// link is a paid issue's content (its EPUB, its bundle): requested signed when there is a
    /// secret (without one, `verify` has said the issue cannot be checked), and asked for
    /// unsigned, which must be refused, unless `issues.plist` already had it asked.
    func verifyFeed(skipping checked: Set<String>) async -> [String] {
        let data: Data?
        do { data = try await destination.read(OPDSLinks.fileName, limit: BuiltMagazine.catalogLimit) } catch {
            return ["\(OPDSLinks.fileName) cannot be read: \(error)"]
        }
        guard let data else { return [] }
        guard let feed = OPDSLinks.decode(data) else { return ["\(OPDSLinks.fileName): \(OPDSLinks.unreadable)"] }
        var problems: [String] = []
        for link in feed.links {
            let seen = checked.contains(link.href)
            var found: [String] = []
            if link.isPaid {
                if secret != nil, link.size != nil || !seen {
                    found += await check(link.href, expectedSize: link.size.map { Int(clamping: $0) }, signed: true)
                }
                if !seen { found += await checkRefused(link.href) }
            } else if link.size != nil || !seen {
                found += await check(link.href, expectedSize: link.size.map { Int(clamping: $0) }, signed: false)
            }
            problems += found.map { "\(OPDSLinks.fileName): \($0)" }
        }
        return problems
    }
}
