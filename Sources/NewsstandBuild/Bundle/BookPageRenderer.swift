import Foundation
import NewsstandFormat

/// Renders an issue's pages as HTML documents for its Baker book (`HPubBuilder`). The preview
/// module provides the one renderer (the preview's own, so a page looks the same in both);
/// the build knows only this seam, since the preview builds on the build.
public protocol BookPageRenderer: Sendable {
    /// One complete HTML document per page of `config` (a validated page config), article by
    /// article, in reading order. Images are linked as `<imageFolder>/<name>` with `srcset`
    /// naming the `@2x` file beside it; other files the same way.
    func pages(of config: PlistNode, title: String, imageFolder: String) throws -> [String]
    /// The stylesheet every page links as `book.css`.
    var stylesheet: String { get }
}
