import Foundation
import NewsstandCore
import NewsstandImaging

/// Where an import's pages come from: the pages of a PDF or the images of a folder. Each page
/// is rendered by a renderer process (``PageRenderer``) from a file this process opened; pages
/// may be prepared from several threads at once.
protocol PageSource: Sendable {
    /// The number of pages.
    var pageCount: Int { get }
    /// What the renderer does for page `index` (from 0), and the file it reads, opened.
    func input(for index: Int) throws(ImportError) -> (work: PageJob.Work, file: OpenFile)
}

/// The pages of a PDF, rendered by poppler through libvips; every renderer reads the one open
/// file with pread.
struct PDFPages: PageSource {
    let file: OpenFile
    let pageCount: Int

    func input(for index: Int) throws(ImportError) -> (work: PageJob.Work, file: OpenFile) { (.renderPDFPage(index), file) }
}

/// The page images of a folder, in natural name order, each scaled to the width.
struct FolderPages: PageSource {
    let folder: OpenFolder
    /// The page images' names, in page order.
    let names: [String]

    var pageCount: Int { names.count }

    func input(for index: Int) throws(ImportError) -> (work: PageJob.Work, file: OpenFile) {
        // Opened relative to the folder without following links, from the name listed: an
        // image swapped for a link or a FIFO since the folder was read is refused here.
        do {
            return (.scaleImage, try folder.file(names[index]))
        } catch {
            throw .refusedEntry(
                path: folder.path(of: names[index]), reason: error.reason + "; a page image must be a regular file")
        }
    }
}
