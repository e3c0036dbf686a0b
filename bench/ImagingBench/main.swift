// Runs the imaging engine over folders for bench/imaging (and over one file for the tests'
// cross-process determinism check), so that figures are the engine's own, in one process.
//
//   ImagingBench derive <master> <output>
//   ImagingBench derive-all <folder> <output-folder> [jobs]      every *@2x.* file
//   ImagingBench optimize-all <folder> <output-folder> [jobs]    prints bytes before and after
//   ImagingBench render-pdf <pdf> <output-folder> <width> <png|jpeg|automatic> [jobs]
//   ImagingBench choose <width> <image>...                      PNG and JPEG sizes of each page
import Foundation
import NewsstandImaging

// As the newsstand executable does: two malloc arenas, so the memory measured is the tool's.
ImagingEngine.limitMallocArenas()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// Runs `count` items on `jobs` threads, each taking every jobs-th item.
func inParallel(_ count: Int, jobs: Int, _ body: @Sendable (Int) throws -> Void) {
    DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { worker in
        for index in stride(from: worker, to: count, by: max(1, jobs)) {
            do { try body(index) } catch { fail("item \(index): \(error)") }
        }
    }
}

func files(in folder: String, where keep: (String) -> Bool) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter(keep).sorted()
}

final class Totals: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var before: Int64 = 0
    private(set) var after: Int64 = 0
    func add(_ a: Int64, _ b: Int64) {
        lock.lock()
        before += a
        after += b
        lock.unlock()
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("usage: ImagingBench derive|derive-all|optimize-all|render-pdf|choose …") }
let jobsArgument = { (index: Int) in arguments.count > index ? Int(arguments[index]) ?? 1 : 1 }

switch command {
case "derive" where arguments.count == 3:
    do {
        let derived = try NormalSizeDeriver().derive(from: .path(arguments[1]), to: .newFile(arguments[2]))
        print("\(derived.width)x\(derived.height) \(derived.byteCount)")
    } catch { fail("\(error)") }
case "derive-all" where arguments.count >= 3:
    let masters = files(in: arguments[1]) { $0.contains("@2x.") }
    inParallel(masters.count, jobs: jobsArgument(3)) { index in
        let name = masters[index].replacingOccurrences(of: "@2x.", with: ".")
        _ = try NormalSizeDeriver().derive(
            from: .path(arguments[1] + "/" + masters[index]), to: .newFile(arguments[2] + "/" + name))
    }
    print("\(masters.count) derived")
case "optimize-all" where arguments.count >= 3:
    let images = files(in: arguments[1]) { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }
    let totals = Totals()
    inParallel(images.count, jobs: jobsArgument(3)) { index in
        let outcome = try LosslessOptimizer().optimize(
            .path(arguments[1] + "/" + images[index]), to: .newFile(arguments[2] + "/" + images[index]))
        switch outcome {
        case .optimized(let before, let after): totals.add(before, after)
        case .keptOriginal(let bytes, _): totals.add(bytes, bytes)
        }
    }
    print("\(totals.before) \(totals.after)")
case "render-pdf" where arguments.count >= 5:
    let encoding: PageEncoding = arguments[4] == "png" ? .png : arguments[4] == "jpeg" ? .jpeg : .automatic
    do {
        let document = try PDFDocument(.path(arguments[1]))
        let width = Int(arguments[3]) ?? 1536
        let jpegPages = Totals()
        inParallel(document.pageCount, jobs: jobsArgument(5)) { index in
            let page = try document.renderPage(
                index, width: width, encoding: encoding, to: .newFile(arguments[2] + "/page-\(index + 1)"))
            jpegPages.add(1, page.format == .jpeg ? 1 : 0)
        }
        print("\(document.pageCount) pages, \(jpegPages.after) JPEG")
    } catch { fail("\(error)") }
case "choose" where arguments.count >= 3:
    let width = Int(arguments[1]) ?? 1536
    let folder = NSTemporaryDirectory() + "imaging-choose-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (index, path) in arguments.dropFirst(2).enumerated() {
        do {
            let page = try PageImageScaler().scale(.path(path), toWidth: width, to: .newFile("\(folder)/\(index)"))
            let png = page.format == .png ? page.byteCount : page.alternativeByteCount ?? 0
            let jpeg = page.format == .jpeg ? page.byteCount : page.alternativeByteCount ?? 0
            print(
                "\(path) png=\(png) jpeg=\(jpeg) share=\(String(format: "%.3f", Double(jpeg) / Double(max(png, 1)))) chosen=\(page.format.name)"
            )
        } catch { fail("\(error)") }
    }
default:
    fail("usage: ImagingBench derive|derive-all|optimize-all|render-pdf|choose … (see bench/ImagingBench/main.swift)")
}
