import NewsstandReader
import NewsstandReaderObservation
import SwiftUI
import UIKit

/// The shelf: every issue of the catalog, newest first, with its cover, its status and what can be
/// done with it. On iOS 17 it observes `ShelfModel` (one observable item per issue: a download's
/// progress redraws its row only); before, it follows `followShelf()` from an `ObservableObject`.
struct ShelfScreen: View {
    let library: IssueLibrary
    @State private var problem: String?

    var body: some View {
        NavigationView {
            Group {
                if #available(iOS 17, *) {
                    ObservedShelf(library: library)
                } else {
                    FollowedShelf(library: library)
                }
            }
            .refreshable { await refresh() }
            .task { await refresh() }
            .navigationTitle("Aurora")
            .safeAreaInset(edge: .bottom) {
                if let problem { Text(problem).font(.footnote).foregroundColor(.red).padding() }
            }
        }
        .navigationViewStyle(.stack)
    }

    private func refresh() async {
        do {
            _ = try await library.refresh(from: Magazine.catalogURL)
            problem = nil
        } catch {
            problem = "Not refreshed: \(error)"
        }
    }
}

@available(iOS 17, *)
private struct ObservedShelf: View {
    let library: IssueLibrary
    @State private var model: ShelfModel

    init(library: IssueLibrary) {
        self.library = library
        _model = State(initialValue: ShelfModel(library: library))
    }

    var body: some View {
        List(model.items) { item in
            ObservedRow(library: library, item: item)
        }
        .task { await model.follow() }
    }
}

/// Reads its item in its own body: only this row is drawn again when the item changes.
@available(iOS 17, *)
private struct ObservedRow: View {
    let library: IssueLibrary
    let item: ShelfItem

    var body: some View {
        IssueRow(library: library, issue: item.issue, progress: item.progress)
    }
}

/// The shelf for iOS 15 and 16, which have no Observation framework.
private struct FollowedShelf: View {
    let library: IssueLibrary
    @StateObject private var shelf = FollowedShelfModel()

    var body: some View {
        List(shelf.issues) { issue in
            IssueRow(library: library, issue: issue, progress: shelf.progress[issue.name])
        }
        .task { await shelf.follow(library) }
    }
}

@MainActor
private final class FollowedShelfModel: ObservableObject {
    @Published private(set) var issues: [Issue] = []
    @Published private(set) var progress: [String: DownloadProgress] = [:]

    /// Follows the library until the view's task is cancelled.
    func follow(_ library: IssueLibrary) async {
        let (issues, updates) = await library.followShelf()
        self.issues = issues
        await Self.forward(updates, to: self, from: library)
    }

    /// Iterates off the main actor, so the sequence's iterator never crosses an actor; each
    /// update, a Sendable value, is applied on the main actor.
    private nonisolated static func forward(_ updates: ShelfUpdates, to model: FollowedShelfModel, from library: IssueLibrary) async {
        for await update in updates {
            // A progress report changes no issue: only a new, changed or removed one needs the shelf again.
            let snapshot = update.needsSnapshot || !update.changed.isEmpty || !update.removed.isEmpty
            let issues = snapshot ? await library.issues : nil
            await model.apply(update, issues: issues)
        }
    }

    private func apply(_ update: ShelfUpdate, issues: [Issue]?) {
        if let issues { self.issues = issues }
        for (name, value) in update.progress { progress[name] = value }
        for name in update.removed { progress[name] = nil }
    }
}

/// One issue: cover, title, date, status; get, cancel, read, and remove by swiping.
struct IssueRow: View {
    let library: IssueLibrary
    let issue: Issue
    let progress: DownloadProgress?
    @State private var problem: String?

    var body: some View {
        HStack(spacing: 12) {
            CoverImage(library: library, issue: issue)
                .frame(width: 60, height: 80)
            VStack(alignment: .leading, spacing: 4) {
                Text(issue.title).font(.headline)
                Text(issue.date, style: .date).font(.subheadline).foregroundColor(.secondary)
                status
                if let problem { Text(problem).font(.caption).foregroundColor(.red) }
            }
            Spacer()
            action
        }
        .swipeActions {
            if issue.status == .available {
                Button(role: .destructive) {
                    remove()
                } label: {
                    Label("Remove", systemImage: "trash")
                }
            }
        }
    }

    @ViewBuilder private var status: some View {
        switch issue.status {
        case .none:
            Text(issue.contentSize.map { ByteCountFormatter.string(fromByteCount: Int64($0), countStyle: .file) } ?? "")
                .font(.caption).foregroundColor(.secondary)
        case .downloading(let saved):
            ProgressView(value: (progress ?? saved).fractionCompleted ?? 0)
        case .available:
            Text(issue.hasUpdate ? "Update available" : "Downloaded").font(.caption).foregroundColor(.secondary)
        }
    }

    @ViewBuilder private var action: some View {
        switch issue.status {
        case .none:
            Button("Get") { download() }.buttonStyle(.bordered)
        case .downloading:
            Button("Cancel") { cancel() }
        case .available:
            NavigationLink("Read") { ReaderView(library: library, issue: issue) }
        }
    }

    /// In process: the user is waiting for it, and it is fastest there. When the app goes to the
    /// background it is handed to the background session (`BackgroundTime`).
    private func download() {
        let library = library
        let name = issue.name
        Task {
            do {
                try await library.startDownload(name)
                problem = nil
            } catch {
                problem = "\(error)"
            }
        }
    }

    private func cancel() {
        let library = library
        let name = issue.name
        Task {
            await library.cancelDownload(name)
            await library.cancelBackgroundDownload(name)
        }
    }

    private func remove() {
        let library = library
        let name = issue.name
        Task {
            do {
                try await library.remove(name)
            } catch {
                problem = "\(error)"
            }
        }
    }
}

/// An issue's cover: the cached file, fetched when it is missing or out of date (`cover(of:)`,
/// as the row scrolls into view).
private struct CoverImage: View {
    let library: IssueLibrary
    let issue: Issue
    @State private var image: UIImage?

    var body: some View {
        Group {
            if let image {
                Image(uiImage: image).resizable().scaledToFit()
            } else {
                Rectangle().fill(Color.secondary.opacity(0.2))
            }
        }
        .task(id: issue.coverFileURL) {
            guard let file = try? await library.cover(of: issue.name), let data = await ImageFile.data(at: file) else { return }
            image = UIImage(data: data)
        }
    }
}

enum ImageFile {
    /// The bytes of an image file of the library's, read off the main thread.
    static func data(at url: URL) async -> Data? {
        await Task.detached(priority: .userInitiated) { try? Data(contentsOf: url) }.value
    }
}
