import NewsstandReader
import SwiftUI
import UIKit

/// Pages through an issue the way its layout means: swipe left and right between articles, up and
/// down between the pages of one article (`IssueCursor`). Opens where the reader left it, and
/// saves the position at every move.
struct ReaderView: View {
    let library: IssueLibrary
    let issue: Issue
    @State private var cursor: IssueCursor?
    @State private var problem: String?

    var body: some View {
        Group {
            if let cursor {
                PageView(page: cursor.current)
                    .contentShape(Rectangle())
                    .gesture(swipes)
                    .overlay(alignment: .bottom) {
                        Text("Article \(cursor.position.article + 1) of \(cursor.lastArticleIndex + 1), page \(cursor.position.page + 1) of \(cursor.lastPageIndex(in: cursor.position.article) + 1)")
                            .font(.caption).padding(6).background(.thinMaterial, in: Capsule()).padding()
                    }
            } else if let problem {
                Text(problem).padding()
            } else {
                ProgressView()
            }
        }
        .navigationTitle(issue.title)
        .navigationBarTitleDisplayMode(.inline)
        .task { await open() }
    }

    private func open() async {
        do {
            // Where the reader left it, or the start; counts AnalyticsEvent.issueOpened.
            cursor = try await library.cursor(for: issue.name)
            try? await library.setCurrentlyReadingIssue(issue.name)
        } catch {
            problem = "This issue cannot be opened: \(error)"
        }
    }

    private var swipes: some Gesture {
        DragGesture(minimumDistance: 30).onEnded { drag in
            let across = drag.translation.width
            let down = drag.translation.height
            if abs(across) > abs(down) {
                move(across < 0 ? .nextArticle : .previousArticle)
            } else {
                move(down < 0 ? .lowerPage : .upperPage)
            }
        }
    }

    private enum Move { case nextArticle, previousArticle, lowerPage, upperPage }

    private func move(_ move: Move) {
        guard var moved = cursor else { return }
        let didMove: Bool
        switch move {
        case .nextArticle: didMove = moved.moveToNextArticle()
        case .previousArticle: didMove = moved.moveToPreviousArticle()
        case .lowerPage: didMove = moved.moveToLowerPage()
        case .upperPage: didMove = moved.moveToUpperPage()
        }
        guard didMove else { return }
        cursor = moved
        // Committed off the main thread, after the positions saved before it.
        let library = library
        let name = issue.name
        let position = moved.position
        Task { try? await library.setReadingPosition(position, of: name) }
    }
}

/// One page: its image from the issue's unpacked content, at the library's scale (`SimplePage`
/// and `PhotoPage` both have a base image; a `PhotoPage`'s gallery is left out of this sample).
private struct PageView: View {
    let page: PageContent
    @State private var image: UIImage?

    var body: some View {
        ZStack {
            Color.black.ignoresSafeArea()
            if let image {
                Image(uiImage: image).resizable().scaledToFit()
            } else if let error = page.error {
                // A page whose image is missing fails alone, not the issue.
                Text("This page cannot be shown: \(error.description)").foregroundColor(.white).padding()
            } else if imageURL == nil {
                Text("A \(page.className) page: this reader has no view for it.").foregroundColor(.white).padding()
            }
        }
        .task(id: imageURL) {
            image = nil
            guard let imageURL, let data = await ImageFile.data(at: imageURL) else { return }
            image = UIImage(data: data)
        }
    }

    private var imageURL: URL? {
        page.page(as: SimplePage.self)?.baseImage ?? page.page(as: PhotoPage.self)?.baseImage
    }
}
