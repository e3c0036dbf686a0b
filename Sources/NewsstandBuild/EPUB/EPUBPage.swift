import Foundation
import NewsstandCore
import NewsstandFormat

/// One page of an issue as its EPUB shows it: its place in the reading order and its base
/// image, the one thing every page class has (`SimplePage`'s `baseImage`). A page that holds
/// more (a PhotoPage's gallery, a movie, any other property) is `degraded`: EPUB's fixed
/// layout shows it as its base image alone.
struct EPUBPage: Equatable {
    /// The article (from 1) and the page within it (from 1).
    var article: Int
    var number: Int
    /// The page's class, as the config names it.
    var className: String
    /// The base image's name in the config (its normal-size name).
    var baseImage: String
    /// Whether the page has properties its EPUB page cannot show.
    var isDegraded: Bool

    /// The page's content document in the EPUB (`1-1.xhtml`).
    var document: String { "\(article)-\(number).xhtml" }

    /// Why a config's pages cannot become an EPUB's.
    struct Problem: Error, Equatable {
        var article: Int
        var number: Int
        var reason: String
    }

    /// The pages of a validated page config, in reading order: article by article, the pages
    /// of each in order.
    static func pages(of root: PlistNode) throws(Problem) -> [EPUBPage] {
        var pages: [EPUBPage] = []
        for (a, article) in (root.array ?? []).enumerated() {
            for (p, page) in (article.array ?? []).enumerated() {
                let properties = page["properties"]?.entries ?? []
                guard let base = page["properties"]?["baseImage"]?.string, !base.isEmpty else {
                    throw Problem(
                        article: a + 1, number: p + 1,
                        reason: "it has no baseImage, and an EPUB page shows a page's base image")
                }
                pages.append(
                    EPUBPage(
                        article: a + 1, number: p + 1, className: page["class"]?.string ?? "",
                        baseImage: base, isDegraded: properties.contains { $0.key != "baseImage" }))
            }
        }
        return pages
    }
}
