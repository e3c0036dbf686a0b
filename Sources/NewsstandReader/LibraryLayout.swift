import Foundation
import NewsstandCore

/// Where a library keeps its files, all inside its folder (never `/tmp`): the state
/// (`library.sqlite` and SQLite's `-wal` and `-shm` beside it), its writer lock,
/// `Downloads/` (`.part` files), `Issues/<name>/` (unpacked content), `Covers/` and `Engines/`
/// (background engines' own files). The claims of issues being worked on are rows of the state
/// (`IssueClaims`).
struct LibraryLayout: Sendable {
    let folder: URL
    /// `Issues/`'s path, made once: the shelf makes a content URL per issue on every listing.
    private let issuesPath: String

    init(folder: URL) {
        self.folder = folder
        issuesPath = folder.appendingPathComponent("Issues", isDirectory: true).path
    }

    var stateFile: URL { folder.appendingPathComponent(StateStore.fileName) }
    var downloads: URL { folder.appendingPathComponent("Downloads", isDirectory: true) }
    var issues: URL { folder.appendingPathComponent("Issues", isDirectory: true) }
    var covers: URL { folder.appendingPathComponent("Covers", isDirectory: true) }
    /// The background engines' own folders (`BackgroundEngine`): beside `Downloads/`, on the
    /// same file system (a finished file is renamed into `Downloads/`), and out of its cleanup.
    var engines: URL { folder.appendingPathComponent("Engines", isDirectory: true) }

    /// Every folder the library writes in: each gets the configured data protection class, which
    /// what is made in it takes (`FileProtection.apply(to:)`).
    var folders: [URL] { [folder, downloads, issues, covers, engines] }

    /// What a device backup skips: what can be downloaded again (unpacked issues, partial
    /// downloads, covers) and the engines' files. The rest, in the library folder itself, is backed up:
    /// the state, with the shelf and the reading positions, which nothing can download again.
    var excludedFromBackup: [URL] { [downloads, issues, covers, engines] }

    /// The state's files, as SQLite and the writer lock make them.
    var stateFiles: [URL] {
        [StateStore.fileName, StateStore.fileName + "-wal", StateStore.fileName + "-shm", WriterLock.fileName].map {
            folder.appendingPathComponent($0)
        }
    }

    /// The unpacked content of an issue. Made from the path as text: `appendingPathComponent`
    /// re-parses the whole URL, and the shelf makes one per issue on every listing.
    func content(of name: String) -> URL {
        URL(fileURLWithPath: issuesPath + "/" + name, isDirectory: true)
    }

    /// The partial bundle download (`<name>.zip.part` or `<name>@2x.zip.part`).
    func part(of name: String, scale: LibraryScale) -> URL {
        downloads.appendingPathComponent(Self.partFileName(of: name, scale: scale))
    }

    /// The partial download's file name in `Downloads/`.
    static func partFileName(of name: String, scale: LibraryScale) -> String {
        (scale.isRetina ? "\(name)@2x.zip" : "\(name).zip") + ".part"
    }

    /// The spool of ranges fetched to update an issue (`Downloads/<name>.ranges`): an update
    /// interrupted by a crash starts again, so open removes it as it removes unknown files.
    static func rangesFileName(of name: String) -> String { "\(name).ranges" }

    /// Prefix of the folders an unpack or a replacement works in, beside the content folders;
    /// any found on open are leftovers of an interrupted run.
    static let temporaryPrefix = ".tmp-"

    /// A fresh temporary folder name beside the issue's content folder.
    func temporaryContent(of name: String) -> URL {
        issues.appendingPathComponent("\(Self.temporaryPrefix)\(name)-\(UUID().uuidString)", isDirectory: true)
    }

    /// Creates the library's folders if needed.
    func createFolders() throws(FileSystemError) {
        for folder in folders {
            _ = try OpenFolder.open(folder, create: true)
        }
    }

    /// Removes a cached cover (a file of ours: never through a link).
    func removeCover(_ fileName: String) {
        try? OpenFolder.open(covers).removeRegularFile(fileName)
    }
}
