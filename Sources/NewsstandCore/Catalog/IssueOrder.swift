import Foundation

/// The order of issues everywhere they are listed (the catalog, the reader's shelf, its storage
/// policy, the preview's index): newest first, then by name, so that issues of one date keep
/// one stable order on every machine.
public enum IssueOrder {
    /// Whether an issue of `a` comes before one of `b`.
    public static func precedes(_ a: (date: Date, name: String), _ b: (date: Date, name: String)) -> Bool {
        a.date != b.date ? a.date > b.date : a.name < b.name
    }

    /// `items` in issue order, by the date and name `key` gives for each. Inlinable, so that it
    /// is specialized where it is used: called generically across modules, sorting a 10,000-issue
    /// shelf was an eighth of the reader's `list`.
    @inlinable
    public static func sorted<Item>(_ items: some Sequence<Item>, by key: (Item) -> (date: Date, name: String)) -> [Item] {
        items.sorted { precedes(key($0), key($1)) }
    }
}
