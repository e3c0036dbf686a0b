import Foundation
import NewsstandImaging

/// One piece of an import's imaging, handed to a renderer process (`newsstand` run as
/// ``PageRendererChild``): counting a PDF's pages, rendering one, or scaling a page image.
/// The renderer opens nothing itself: the files are descriptors it is given (see
/// ``PageJob/Descriptor``); the names are for its messages only.
struct PageJob: Codable, Sendable, Equatable {
    enum Work: Codable, Sendable, Equatable {
        case countPDFPages
        /// A page (from 0) of the PDF.
        case renderPDFPage(Int)
        /// The page image.
        case scaleImage
    }

    /// The descriptor numbers the renderer is given.
    enum Descriptor {
        /// The answer (a ``PageAnswer`` as JSON), written once at the end.
        static let answer: Int32 = 3
        /// One byte when an allocation failed (see `nchild_watch_allocations`).
        static let allocationAlarm: Int32 = 4
        /// The PDF or the page image, read with pread.
        static let source: Int32 = 5
        /// The `@2x` page image, opened for reading and writing.
        static let output: Int32 = 6
        /// The normal size, when one is written.
        static let normalOutput: Int32 = 7
    }

    /// Changes whenever a job or an answer does: a renderer of another version refuses the job
    /// instead of misreading it.
    static let protocolVersion = 1

    var version = PageJob.protocolVersion
    var work: Work
    /// This process's id: the renderer ends when it is no longer its parent.
    var parent: Int32
    /// The most bytes of private memory the renderer may map (`RLIMIT_DATA`).
    var memoryLimit: Int
    var limits: ImagingLimits
    /// The `@2x` width.
    var width: Int = 0
    var sourceName: String
    var outputName: String = ""
    /// The normal size's name; nil when none is written.
    var normalOutputName: String?

    /// The job as the renderer's one argument.
    func argument() -> String {
        let encoder = JSONEncoder()
        // Slashes as they are: `ps` shows the paths a renderer works on as they are.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// What a renderer answers, as JSON on its answer descriptor.
enum PageAnswer: Codable, Sendable, Equatable {
    case counted(pages: Int)
    /// The page as written, and the normal size's bytes when one was written.
    case rendered(RenderedPage, normalBytes: Int64?)
    case failed(ImagingError)
    /// The job could not be read (another version of newsstand, a hand-made command line).
    case refused(reason: String)

    /// The most bytes an answer takes (an error's texts are short).
    static let maximumBytes = 1 << 20
}
