import Foundation
import NewsstandCore
import NewsstandFormat

/// `shelf.json` in the Baker framework's format, so Baker-based apps can read our catalogs:
/// an array of `{name, title, info, date ("yyyy-MM-dd HH:mm:ss", UTC), cover, url, product_id?}`.
/// `url` is the Baker book (`<name>.hpub`, which a Baker app unzips and opens by its
/// `book.json`), or its normal bundle for an issue built without one.
///
/// Baker has no free or paid flag: an issue with a `product_id` is one its shelf sells (it
/// shows a price and a Buy button until the store says it was bought), one without is free.
/// So `product_id` is written for paid issues only; a free issue's ProductID (`NS-513`) is left
/// out, as Baker would otherwise sell what everyone can download.
enum ShelfFeed {
    /// The shelf's file in the output folder.
    static let fileName = "shelf.json"

    /// `books`: the `.hpub` URL of each issue that has one.
    static func encode(_ entries: [CatalogEntry], books: [String: String] = [:]) -> Data {
        let items: [[String: Any]] = entries.map { entry in
            var item: [String: Any] = [
                "name": entry.name, "title": entry.title, "info": entry.summary ?? "",
                "date": date(entry.date), "cover": entry.cover, "url": books[entry.name] ?? entry.content,
            ]
            item["product_id"] = entry.access == .paid ? entry.productID : nil
            return item
        }
        // Strings only: the serializer cannot fail on them.
        var data =
            (try? JSONSerialization.data(withJSONObject: items, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        data.append(0x0A)
        return data
    }

    static func date(_ date: Date) -> String {
        let (day, hour, minute, second) = PlistDate.components(date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", day.year, day.month, day.day, hour, minute, second)
    }
}
