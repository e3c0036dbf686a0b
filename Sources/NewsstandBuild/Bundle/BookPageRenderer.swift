import Foundation
import NewsstandFormat

/// Renders an issue's pages as HTML documents for its Baker book (`HPubBuilder`). The preview
/// module provides the one renderer (the preview's own, so a page looks the same in both);
/// the build knows only this seam, since the preview builds on the build.
public protocol BookPageRenderer: Sendable {
    /// The complete HTML document of one page of a validated page config (`article` and
    /// `number` count from 1), for the issue titled `title`. Images are linked as
    /// `<imageFolder>/<name>` with `srcset` naming the `@2x` file beside it; other files the
    /// same way. Pages are asked for one at a time, so a book of any size is written as it is
    /// rendered.
    func page(_ page: PlistNode, article: Int, number: Int, title: String, imageFolder: String) throws -> String
    /// The stylesheet every page links as `book.css`.
    var stylesheet: String { get }
}
