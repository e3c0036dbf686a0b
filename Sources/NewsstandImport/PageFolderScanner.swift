import Foundation
import NewsstandCore
import NewsstandImaging

/// Lists a folder of page images: PNG, JPEG, WebP and HEIF files by their extension, in natural
/// name order (`page2` before `page10`). Hidden files (`.DS_Store`) are passed over; other files
/// and subfolders are skipped with a note. One rule for what has a page image's name: it is a
/// page, or the import fails; it is never dropped. So a page image that is not a regular file
/// (a symbolic link, a FIFO, a socket, a device) is refused (following it would read what the
/// folder only points at), and so is one whose name is not UTF-8 (it cannot be listed, sorted
/// or opened by name like the others).
struct PageFolderScanner {
    /// The extensions of page images, lowercased. What a file holds is checked when it is read
    /// (a `.png` that is a JPEG is read as the JPEG it is; a `.png` that is an SVG is refused).
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "heic", "heif"]

    /// What a scan found.
    struct Listing {
        /// The page images, in page order.
        var pages: [String]
        /// One line per file skipped, saying why.
        var notes: [String]
    }

    static func scan(_ folder: OpenFolder, limit: Int) throws(ImportError) -> Listing {
        let entries: [FolderEntry]
        do {
            entries = try folder.entries()
        } catch {
            throw .unreadableSource(path: folder.path, reason: error.reason)
        }
        var pages: [String] = []
        var notes: [String] = []
        for entry in entries where !entry.isHidden {
            let isImageName = Self.hasImageExtension(entry.rawName)
            switch entry.kind {
            case .regularFile where isImageName:
                guard let name = entry.name else {
                    throw .refusedEntry(
                        path: folder.path(of: entry.displayName),
                        reason: "its name is not UTF-8; rename it (a page image is imported or the import fails, never skipped)")
                }
                pages.append(name)
            case .regularFile:
                notes.append("skipped '\(entry.displayName)': not a page image (PNG, JPEG, WebP or HEIF)")
            case .folder:
                notes.append("skipped '\(entry.displayName)': a folder (subfolders are not read)")
            case let kind where isImageName:
                throw .refusedEntry(
                    path: folder.path(of: entry.displayName),
                    reason: "it is \(kind.description); a page image must be a regular file")
            case let kind:
                notes.append("skipped '\(entry.displayName)': \(kind.description)")
            }
        }
        guard pages.count <= limit else { throw .tooManyPages(path: folder.path, count: pages.count, limit: limit) }
        return Listing(pages: NaturalOrder.sorted(pages), notes: notes.sorted())
    }

    /// Whether a name's bytes end in a page image's extension (ASCII, any case), whether or not
    /// the rest is UTF-8.
    static func hasImageExtension(_ name: [UInt8]) -> Bool {
        guard let dot = name.lastIndex(of: 0x2E), dot > name.startIndex else { return false }
        let suffix = name[(dot + 1)...]
        guard suffix.allSatisfy({ $0 < 0x80 }) else { return false }
        return imageExtensions.contains(String(decoding: suffix, as: UTF8.self).lowercased())
    }
}
