import Foundation
import NewsstandCore
import NewsstandImaging

/// Where an import's pages come from: the pages of a PDF or the images of a folder, rendered
/// one at a time to a given width. Pages may be rendered from several threads at once.
protocol PageSource: Sendable {
    /// The number of pages.
    var pageCount: Int { get }
    /// Renders page `index` (from 0) `width` pixels wide into `output`. Blocking.
    func render(_ index: Int, width: Int, to output: ImageOutput) throws(ImportError) -> RenderedPage
}

/// The pages of a PDF, rendered by poppler through libvips.
struct PDFPages: PageSource {
    /// The file the document reads (with `pread`): open as long as the document is.
    let file: OpenFile
    let document: PDFDocument

    var pageCount: Int { document.pageCount }

    func render(_ index: Int, width: Int, to output: ImageOutput) throws(ImportError) -> RenderedPage {
        do {
            return try document.renderPage(index, width: width, encoding: .automatic, to: output)
        } catch {
            throw .imaging(error, page: index + 1)
        }
    }
}

/// The page images of a folder, in natural name order, each scaled to the width.
struct FolderPages: PageSource {
    let folder: OpenFolder
    /// The page images' names, in page order.
    let names: [String]

    var pageCount: Int { names.count }

    func render(_ index: Int, width: Int, to output: ImageOutput) throws(ImportError) -> RenderedPage {
        // Opened relative to the folder without following links, from the name listed: an
        // image swapped for a link or a FIFO since the folder was read is refused here.
        let file: OpenFile
        do {
            file = try folder.file(names[index])
        } catch {
            throw .refusedEntry(path: folder.path(of: names[index]), reason: error.reason)
        }
        do throws(ImagingError) {
            // The scaler reads the descriptor while `file` keeps it open.
            return try withExtendedLifetime(file) { () throws(ImagingError) -> RenderedPage in
                try PageImageScaler().scale(
                    .descriptor(file.descriptor, name: file.path), toWidth: width, encoding: .automatic, to: output)
            }
        } catch {
            throw .imaging(error, page: index + 1)
        }
    }
}
