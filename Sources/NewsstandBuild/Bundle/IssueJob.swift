import Foundation
import NewsstandCore

/// One output of one issue to build, on a thread of the work queue: a scale's bundle and
/// cover, the Baker book or the EPUB.
struct IssueJob: Sendable {
    enum Kind: Sendable {
        case scale(retina: Bool)
        case book(any BookPageRenderer, author: String, baseURL: URL?)
        case epub(EPUBSettings)

        /// The output it makes.
        var output: IssueOutputKind {
            switch self {
            case .scale(let retina): retina ? .retinaScale : .normalScale
            case .book: .book
            case .epub: .epub
            }
        }
    }

    /// What a job made. Each case says which output it is, so results are filed by issue and
    /// output (`RoundResults`), never by their place in a list.
    enum Output: Sendable {
        case scale(ScaleOutput, retina: Bool)
        case book(OutputRecord)
        case epub(EPUBBuilder.Output)

        var kind: IssueOutputKind {
            switch self {
            case .scale(_, let retina): retina ? .retinaScale : .normalScale
            case .book: .book
            case .epub: .epub
            }
        }
    }

    /// A job's output with the issue it belongs to.
    struct Result: Sendable {
        let issue: String
        let output: Output
    }

    let plan: IssuePlan
    let kind: Kind
    let root: OpenFolder
    let temporaryNames: [String: String]
    let images: PreparedImages

    func build() throws(BuildError) -> Result {
        // Each job opens the folder itself: descriptors stay few however many issues there are.
        let access = plan.metadata.access
        guard let output = try IssueOutputFolder.open(plan.name, in: root, create: false),
            let content = try IssueOutputFolder.openContent(plan.name, access: access, in: root, create: false)
        else {
            throw .issueOutputVanished(issue: plan.name, path: root.path(of: access.contentFolder(of: plan.name)))
        }
        switch kind {
        case .scale(let retina):
            let made = try BundleBuilder(
                plan: plan, retina: retina, outputFolder: output.folder, contentFolder: content.folder,
                temporaryNames: temporaryNames, images: images
            ).build()
            return Result(issue: plan.name, output: .scale(made, retina: retina))
        case .book(let renderer, let author, let baseURL):
            let made = try HPubBuilder(
                plan: plan, outputFolder: output.folder, contentFolder: content.folder, temporaryNames: temporaryNames,
                renderer: renderer, author: author, baseURL: baseURL, images: images
            ).build()
            return Result(issue: plan.name, output: .book(made))
        case .epub(let settings):
            let made = try EPUBBuilder(
                plan: plan, outputFolder: output.folder, contentFolder: content.folder, temporaryNames: temporaryNames,
                settings: settings, images: images
            ).build()
            return Result(issue: plan.name, output: .epub(made))
        }
    }
}

/// Which of an issue's outputs a job makes: the key its result is filed under.
enum IssueOutputKind: Hashable, Sendable, CustomStringConvertible {
    case normalScale, retinaScale, book, epub

    /// The file it writes first, for messages.
    func fileName(of plan: IssuePlan) -> String {
        switch self {
        case .normalScale: "\(plan.name).zip"
        case .retinaScale: RetinaName.of("\(plan.name).zip")
        case .book: HPubBuilder.fileName(of: plan)
        case .epub: EPUBBuilder.fileName(of: plan)
        }
    }

    var description: String {
        switch self {
        case .normalScale: "normal bundle"
        case .retinaScale: "@2x bundle"
        case .book: "Baker book"
        case .epub: "EPUB"
        }
    }
}
