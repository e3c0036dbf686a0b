import Foundation
import NewsstandCore

/// Where a library keeps its files, all inside its folder (never `/tmp`): the state
/// (`library.sqlite` and SQLite's `-wal` and `-shm` beside it), its lock,
/// `Downloads/` (`.part` files), `Issues/<name>/` (unpacked content) and `Covers/`.
struct LibraryLayout: Sendable {
    let folder: URL
    /// `Issues/`'s path, made once: the shelf makes a content URL per issue on every listing.
    private let issuesPath: String

    init(folder: URL) {
        self.folder = folder
        issuesPath = folder.appendingPathComponent("Issues", isDirectory: true).path
    }

    var stateFile: URL { folder.appendingPathComponent(StateStore.fileName) }
    /// The file `LibraryLock` locks.
    var lockFile: URL { folder.appendingPathComponent("library.lock") }
    var downloads: URL { folder.appendingPathComponent("Downloads", isDirectory: true) }
    var issues: URL { folder.appendingPathComponent("Issues", isDirectory: true) }
    var covers: URL { folder.appendingPathComponent("Covers", isDirectory: true) }

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
        for folder in [folder, downloads, issues, covers] {
            _ = try OpenFolder.open(folder, create: true)
        }
    }

    /// Removes a cached cover (a file of ours: never through a link).
    func removeCover(_ fileName: String) {
        try? OpenFolder.open(covers).removeRegularFile(fileName)
    }
}
