import CChildProcess
import Foundation
import NewsstandImaging

/// Runs an import's ``PageJob``s each in a renderer process of its own: `newsstand` started again
/// as ``PageRendererChild``, with at most `memoryLimit` bytes of memory and `timeout` seconds.
/// Whatever a PDF holds, a page costs this process nothing (the renderer maps the page, poppler
/// and their buffers), a page that needs more memory or time is stopped and named, and a
/// wedged poppler call, which nothing inside a process can interrupt, ends with its process.
/// A renderer never outlives this process: it dies with the thread that started it.
struct PageRenderer: Sendable {
    /// The `newsstand` executable that renders.
    let executable: URL
    let memoryLimit: Int
    let timeout: Int
    let limits: ImagingLimits

    /// Whether `memoryLimit` is kept: not in a build under a sanitizer, which replaces malloc and
    /// reserves more address space than any limit (see `nchild_allocation_watch_available`).
    static var limitsMemory: Bool { nchild_allocation_watch_available() != 0 }

    /// The descriptors a job reads and writes: the PDF or page image, and for a page its
    /// `@2x` image and, when one is written, its normal size.
    struct Files {
        var source: Int32
        var output: Int32?
        var normalOutput: Int32?
    }

    /// A job, as this process prepares it (the renderer is told this process's id).
    func job(_ work: PageJob.Work, source: String, width: Int = 0, output: String = "", normalOutput: String? = nil) -> PageJob {
        PageJob(
            work: work, parent: getpid(), memoryLimit: memoryLimit, limits: limits, width: width, sourceName: source,
            outputName: output, normalOutputName: normalOutput)
    }

    /// Runs `job` on `files` and returns its answer (never `.failed` or `.refused`: those are
    /// thrown) with what its libraries said. `page` (from 1) names the page in errors and
    /// warnings; nil for opening the source.
    func run(
        _ job: PageJob, files: Files, page: Int?, shouldStop: () -> Bool = { false }
    ) throws(ImportError) -> (answer: PageAnswer, warnings: [String]) {
        let answerBytes = BoundedBytes(limit: PageAnswer.maximumBytes)
        let alarm = BoundedBytes(limit: 1)
        let log = LibraryLog()
        var child = RendererProcess(executable: executable.path, arguments: [PageRendererChild.command, job.argument()])
        child.files[PageJob.Descriptor.source] = files.source
        child.files[PageJob.Descriptor.output] = files.output
        child.files[PageJob.Descriptor.normalOutput] = files.normalOutput
        child.outputs = [
            .init(descriptors: [STDOUT_FILENO, STDERR_FILENO], sink: log),
            .init(descriptors: [PageJob.Descriptor.answer], sink: answerBytes),
            .init(descriptors: [PageJob.Descriptor.allocationAlarm], sink: alarm),
        ]
        let ending: RendererProcess.Ending
        do {
            ending = try child.run(deadline: .now + .seconds(timeout), shouldStop: shouldStop)
        } catch {
            guard case .cannotStart(let path, let reason) = error else {
                throw .rendererUnavailable(path: executable.path, reason: "\(error)")
            }
            throw .rendererUnavailable(path: path, reason: reason)
        }
        log.finish()
        switch ending {
        case .timedOut: throw .pageTimedOut(page: page, source: job.sourceName, seconds: timeout)
        case .stopped: throw .stopped(page: page)
        case .exited, .signalled: break
        }
        if !alarm.bytes.isEmpty { throw .pageNeedsMoreMemory(page: page, source: job.sourceName, limit: memoryLimit) }
        guard ending == .exited(0), !answerBytes.overflowed,
            let answer = try? JSONDecoder().decode(PageAnswer.self, from: answerBytes.bytes)
        else {
            throw .rendererFailed(page: page, source: job.sourceName, reason: Self.describe(ending, answerBytes, log))
        }
        switch answer {
        case .failed(let error): throw .imaging(error, page: page)
        case .refused(let reason):
            throw .rendererFailed(page: page, source: job.sourceName, reason: "it refused the job: \(reason)")
        case .counted, .rendered: break
        }
        if let failure = log.failure { throw .libraryFailure(page: page, source: job.sourceName, message: failure) }
        return (answer, Self.warnings(log))
    }

    /// Why a renderer gave no answer, with the first line it printed.
    private static func describe(_ ending: RendererProcess.Ending, _ answer: BoundedBytes, _ log: LibraryLog) -> String {
        var reason: String
        switch ending {
        case .signalled(let signal): reason = "the renderer ended on signal \(signal) (\(String(cString: strsignal(signal))))"
        case .exited(0) where answer.overflowed: reason = "the renderer's answer is longer than \(PageAnswer.maximumBytes) bytes"
        case .exited(0): reason = "the renderer's answer cannot be read"
        case .exited(let status): reason = "the renderer exited with status \(status) without an answer"
        case .timedOut, .stopped: reason = "the renderer was stopped"
        }
        if let first = log.kept.first { reason += ": " + text(first) }
        return reason
    }

    /// What the libraries said that is not a failure: poppler's complaints about a PDF it
    /// read anyway, anything a library printed itself; the first few and how many more.
    private static func warnings(_ log: LibraryLog) -> [String] {
        var lines = log.kept.map(text)
        if log.more > 0 { lines.append("\(log.more) more message(s) like these") }
        return lines
    }

    private static func text(_ line: LibraryLog.Line) -> String {
        switch line {
        case .message(let message): return "\(message.domain == "Poppler" ? "poppler" : message.domain): \(message.text)"
        case .printed(let text): return text
        }
    }
}
