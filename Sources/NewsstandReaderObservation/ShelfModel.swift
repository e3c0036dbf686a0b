import Foundation
import NewsstandCore
import NewsstandReader
import Observation

/// The shelf of an `IssueLibrary` for SwiftUI: its issues newest first, each a `ShelfItem` a view
/// observes on its own. It follows the library's updates (`IssueLibrary.followShelf()`): a new,
/// removed or re-dated issue changes `items`; any other change, progress included, changes only
/// that issue's item. So a download's progress never copies, nor redraws, the shelf.
///
/// In its own module (`NewsstandReaderObservation`): the Observation framework is iOS 17 and
/// macOS 14, above the reader's floor, and an app on an older system links the reader without it.
/// An app that supports older systems follows `followShelf()` from an `ObservableObject` of its own.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class ShelfModel {
    /// Every issue, newest first.
    public private(set) var items: [ShelfItem] = []
    @ObservationIgnored private var byName: [String: ShelfItem] = [:]
    @ObservationIgnored private let library: IssueLibrary

    /// A model of `library`'s shelf, empty until `follow()` runs.
    public init(library: IssueLibrary) {
        self.library = library
    }

    /// The item of the issue named `name`.
    public func item(named name: String) -> ShelfItem? { byName[name] }

    /// Follows the library until the calling task is cancelled or the library closes (run it in a
    /// view's `.task { await model.follow() }`).
    public func follow() async {
        let (issues, updates) = await library.followShelf()
        replace(with: issues)
        for await update in updates {
            if update.needsSnapshot {
                replace(with: await library.issues)
            } else {
                apply(update)
            }
        }
    }

    /// Takes `issues` whole, keeping the items of the issues it still has.
    private func replace(with issues: [Issue]) {
        var kept: [String: ShelfItem] = [:]
        let fresh = issues.map { issue -> ShelfItem in
            let item = byName[issue.name] ?? ShelfItem(issue)
            item.update(issue)
            kept[issue.name] = item
            return item
        }
        byName = kept
        if fresh.map(\.name) != items.map(\.name) { items = fresh }
    }

    private func apply(_ update: ShelfUpdate) {
        var reorder = false
        for name in update.removed {
            guard byName.removeValue(forKey: name) != nil else { continue }
            reorder = true
        }
        for (name, issue) in update.changed {
            if let item = byName[name] {
                if item.issue.date != issue.date { reorder = true }
                item.update(issue)
            } else {
                byName[name] = ShelfItem(issue)
                reorder = true
            }
        }
        for (name, progress) in update.progress { byName[name]?.update(progress) }
        if reorder { items = IssueOrder.sorted(Array(byName.values)) { ($0.issue.date, $0.name) } }
    }
}
