import CChildProcess
import Foundation
import NewsstandImaging

/// The renderer process of `newsstand import`: `newsstand _render-page <job>`, started by
/// ``PageRenderer`` for one ``PageJob``, never by hand. Before it reads anything it ends itself
/// with its parent (`PR_SET_PDEATHSIG`), takes the memory limit (`RLIMIT_DATA`, and no core
/// files), arms the allocation watch and routes the libraries' log to its standard error;
/// then it does the job on the descriptors it was given and writes its ``PageAnswer``.
public enum PageRendererChild {
    /// The hidden command word `newsstand` is started with as a renderer.
    public static let command = "_render-page"

    /// Does the job given as `arguments` (what follows the command word); returns the exit
    /// status: 0 when an answer was written.
    public static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1,
            let job = try? JSONDecoder().decode(PageJob.self, from: Data(arguments[0].utf8)),
            job.version == PageJob.protocolVersion
        else {
            let reason = "newsstand \(command) runs one page for 'newsstand import' (of the same version), not by hand"
            FileHandle.standardError.write(Data((reason + "\n").utf8))
            return answer(.refused(reason: reason)) ? 0 : 2
        }
        guard nchild_die_with_parent(job.parent) == 0 else { return 3 }
        limitResources(memory: job.memoryLimit)
        let result: PageAnswer
        do throws(ImagingError) {
            try ImagingEngine.dedicateProcess(messagesTo: STDERR_FILENO, threads: 1)
            result = try perform(job)
        } catch {
            result = .failed(error)
        }
        // cairo and poppler leave a drawing out when an allocation fails: a page made then is
        // not the page, whatever else it says.
        if nchild_allocation_failed() != 0 {
            return answer(.failed(.exceedsMemoryLimit(path: job.sourceName, limit: job.memoryLimit))) ? 0 : 2
        }
        return answer(result) ? 0 : 2
    }

    private static func limitResources(memory: Int) {
        #if canImport(Glibc)
            let (coreFiles, privateMemory) = (
                __rlimit_resource_t(RLIMIT_CORE.rawValue), __rlimit_resource_t(RLIMIT_DATA.rawValue)
            )
        #else
            let (coreFiles, privateMemory) = (RLIMIT_CORE, RLIMIT_DATA)
        #endif
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(coreFiles, &none)
        // The sanitizers replace malloc and reserve terabytes of address space: no data limit,
        // and no watch, under them (see nchild_allocation_watch_available).
        guard nchild_allocation_watch_available() != 0 else { return }
        var data = rlimit(rlim_cur: rlim_t(memory), rlim_max: rlim_t(memory))
        setrlimit(privateMemory, &data)
        nchild_watch_allocations(PageJob.Descriptor.allocationAlarm)
    }

    private static func perform(_ job: PageJob) throws(ImagingError) -> PageAnswer {
        let source = ImageInput.descriptor(PageJob.Descriptor.source, name: job.sourceName)
        let output = ImageOutput.descriptor(PageJob.Descriptor.output, name: job.outputName)
        let page: RenderedPage
        switch job.work {
        case .countPDFPages:
            return .counted(pages: try PDFDocument(source, limits: job.limits).pageCount)
        case .renderPDFPage(let index):
            page = try PDFDocument(source, limits: job.limits).renderPage(
                index, width: job.width, encoding: .automatic, to: output)
        case .scaleImage:
            page = try PageImageScaler(limits: job.limits).scale(source, toWidth: job.width, encoding: .automatic, to: output)
        }
        guard let normalName = job.normalOutputName else { return .rendered(page, normalBytes: nil) }
        let normal = try NormalSizeDeriver(limits: job.limits).derive(
            from: .descriptor(PageJob.Descriptor.output, name: job.outputName),
            to: .descriptor(PageJob.Descriptor.normalOutput, name: normalName))
        return .rendered(page, normalBytes: normal.byteCount)
    }

    /// Writes the answer whole to its descriptor; false when it cannot be written.
    private static func answer(_ answer: PageAnswer) -> Bool {
        guard let data = try? JSONEncoder().encode(answer) else { return false }
        return data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let count = write(PageJob.Descriptor.answer, bytes.baseAddress! + done, bytes.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
    }
}
