import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandImaging

/// Writes an import's pages into the workspace's `assets/`: `jobs` at once (``ParallelPages``),
/// each rendered by a renderer process (``PageRenderer``) into files this process created,
/// checked against what was asked, and renamed to its name. The first failure stops the rest.
struct IssuePageWriter: Sendable {
    let renderer: PageRenderer
    /// The `@2x` width.
    let width: Int
    let jobs: Int

    /// One page as written.
    struct WrittenPage: Sendable {
        /// The name pages.plist uses (`3-0.png`).
        var baseImage: String
        var format: ImageFormat
        /// Bytes of the `@2x` file and, when written, the normal one.
        var bytes: Int64
        /// What the libraries said about it, "page N: …".
        var warnings: [String]
    }

    /// Every page of `source`, in page order; `progress` is called with (pages done, pages).
    func write(
        _ source: any PageSource, names: PageNames, into assets: OpenFolder, normalSizes: Bool,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) throws(ImportError) -> [WrittenPage] {
        let results = Locked([WrittenPage?](repeating: nil, count: source.pageCount))
        let total = source.pageCount
        progress(0, total)
        try ParallelPages.run(count: total, width: jobs) { index, shouldStop throws(ImportError) in
            let page = try writePage(
                index, of: source, named: names.stem(of: index), into: assets, normalSize: normalSizes, shouldStop: shouldStop)
            results.withLock { $0[index] = page }
        } finished: { done in
            progress(done, total)
        }
        return results.current.compactMap { $0 }
    }

    /// Renders one page to `<stem>@2x.<png|jpg>` (and `<stem>.<ext>` when normal sizes are
    /// written) in a renderer, through temporary names: the extension is known once the
    /// renderer chose the encoding.
    private func writePage(
        _ index: Int, of source: any PageSource, named stem: String, into assets: OpenFolder, normalSize: Bool,
        shouldStop: () -> Bool
    ) throws(ImportError) -> WrittenPage {
        let (work, input) = try source.input(for: index)
        let temporary = stem + "@2x.rendering"
        let normalTemporary = stem + ".rendering"
        let file = try io { () throws(FileSystemError) in try assets.createFile(temporary) }
        let normal = try normalSize ? io { () throws(FileSystemError) in try assets.createFile(normalTemporary) } : nil
        let job = renderer.job(
            work, source: input.path, width: width, output: assets.path(of: temporary),
            normalOutput: normalSize ? assets.path(of: normalTemporary) : nil)
        let (answer, warnings) = try withExtendedLifetime(input) { () throws(ImportError) in
            try renderer.run(
                job, files: .init(source: input.descriptor, output: file.descriptor, normalOutput: normal?.descriptor),
                page: index + 1,
                shouldStop: shouldStop)
        }
        // The renderer reads a hostile file: what it says it wrote is checked against the job
        // and the files before the page is kept.
        guard case .rendered(let rendered, let normalBytes) = answer, rendered.width == width, rendered.height > 0,
            rendered.height % 2 == 0, rendered.format == .png || rendered.format == .jpeg, (normalBytes != nil) == normalSize,
            Self.size(of: file) == rendered.byteCount, normal.map({ Self.size(of: $0) == normalBytes }) ?? true
        else {
            throw .rendererFailed(
                page: index + 1, source: input.path, reason: "its answer does not fit the job or the files it wrote")
        }
        let name = stem + "." + (rendered.format == .jpeg ? "jpg" : "png")
        try io { () throws(FileSystemError) in
            try file.synchronize()
            try assets.rename(temporary, to: RetinaName.of(name))
            try file.close()
            if let normal {
                try normal.synchronize()
                try assets.rename(normalTemporary, to: name)
                try normal.close()
            }
        }
        return WrittenPage(
            baseImage: name, format: rendered.format, bytes: rendered.byteCount + (normalBytes ?? 0),
            warnings: warnings.map { "page \(index + 1): \($0)" })
    }

    private static func size(of file: WritableFile) -> Int64? {
        (try? FileStatus.of(descriptor: file.descriptor, path: file.path))?.size
    }
}

/// Runs file work, its failure an import's.
private func io<T>(_ body: () throws(FileSystemError) -> T) throws(ImportError) -> T {
    do {
        return try body()
    } catch {
        throw .fileSystem(error)
    }
}
