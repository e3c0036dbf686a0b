import Foundation
import NewsstandCore
import NewsstandFormat
import NewsstandImaging

/// Makes, before a round's bundles are written, the images they hold that are not in
/// `assets/` as they are: normal sizes derived from `@2x` masters (`DeriveNormalSize`), then,
/// with `--optimize`, every PNG and JPEG of the bundles made smaller without changing a pixel.
///
/// Each result is kept in the issue's image cache (`ImageCache`), keyed by the XXH3 of what
/// it was made from and the engine's fingerprint, so a rebuild with the same master does not
/// resize again. A cached file is used only when it still has its recorded size and XXH3.
/// Work runs on up to `width` threads of their own (libvips blocks); the steps that change a
/// cache's list are serial, and every file is listed (as pending) before it is written.
struct ImagePreparer {
    let plans: [IssuePlan]
    /// The output folder, opened.
    let root: OpenFolder
    let width: Int
    let optimize: Bool
    let limits: ImagingLimits
    /// Hears each image made: the stage ("deriving images", "optimizing images"), the count
    /// made so far and the stage's total (only the images not already cached are counted).
    var progress: @Sendable (_ stage: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }

    enum Operation: String, Sendable {
        case derive, optimize
    }

    /// One image to make.
    struct Task: Sendable {
        enum Source: Sendable {
            /// A file of the issue's `assets/`.
            case asset(String)
            /// A file of the issue's image cache (a derived image, to optimise).
            case cached(String)
        }

        /// Index into `plans`.
        let issue: Int
        let operation: Operation
        let source: Source
        /// The name in the bundle it stands for.
        let target: String
    }

    /// What reading a task's input found.
    struct Look: Sendable {
        let key: String
        /// The input's record, when it is a file of `assets/`.
        let record: InputRecord?
        let xxh3: String
        /// The cache's entry for the key, when it is finished and its file intact.
        let hit: ImageCacheEntry?
    }

    /// The engine's fingerprint and the tool's version: a new libvips or a new optimiser makes
    /// every image again instead of mixing outputs.
    static var fingerprint: String { "\(ImagingEngine.derivationFingerprint); newsstand \(ToolVersion.current)" }

    /// The key of `operation` on an input whose XXH3 is `xxh3`.
    static func key(_ operation: Operation, input xxh3: String, fingerprint: String) -> String {
        XXH3.hex(of: Data("newsstand image cache\n\(operation.rawValue)\n\(xxh3)\n\(fingerprint)\n".utf8))
    }

    /// Prepares every plan's images, by issue name; `warnings` gets what was left alone in the
    /// caches.
    func prepare(warnings: inout [String]) throws(BuildError) -> [String: PreparedImages] {
        var prepared = Array(repeating: PreparedImages(), count: plans.count)
        var caches: [Int: ImageCache] = [:]
        var used: [Int: Set<String>] = [:]
        for (index, plan) in plans.enumerated() {
            guard let output = try IssueOutputFolder.open(plan.name, in: root, create: false) else {
                throw .issueOutputVanished(issue: plan.name, path: root.path(of: plan.name))
            }
            if plan.derived.isEmpty && !optimize {
                // Nothing to make now: what an earlier build cached is no longer used.
                warnings += ImageCache.removeAll(in: output.folder)
                continue
            }
            caches[index] = try ImageCache.open(in: output.folder, issue: plan.name, warnings: &warnings)
            used[index] = []
        }
        guard !caches.isEmpty else { return byIssue(prepared) }
        let fingerprint = Self.fingerprint
        let derivations = plans.enumerated().flatMap { index, plan in
            plan.derived.sorted().map { Task(issue: index, operation: .derive, source: .asset(RetinaName.of($0)), target: $0) }
        }
        try run(
            derivations, stage: "deriving images", caches: caches, used: &used, prepared: &prepared, fingerprint: fingerprint)
        if optimize {
            var optimizations: [Task] = []
            for (index, plan) in plans.enumerated() {
                for asset in plan.assets where asset.kind == .image {
                    for retina in [false, true] {
                        let name = asset.fileName(retina: retina)
                        guard let format = FileSignature.expected(forFileName: name), format == .png || format == .jpeg else {
                            continue
                        }
                        let source = prepared[index].substitutes[name].map(Task.Source.cached) ?? .asset(name)
                        optimizations.append(Task(issue: index, operation: .optimize, source: source, target: name))
                    }
                }
            }
            try run(
                optimizations, stage: "optimizing images", caches: caches, used: &used, prepared: &prepared,
                fingerprint: fingerprint)
        }
        for (index, cache) in caches.sorted(by: { $0.key < $1.key }) {
            warnings += cache.removeAll(besides: used[index] ?? [])
            try cache.save(issue: plans[index].name)
        }
        return byIssue(prepared)
    }

    /// Each issue's images under its name (`prepared` is made in the order of `plans`).
    private func byIssue(_ prepared: [PreparedImages]) -> [String: PreparedImages] {
        Dictionary(zip(plans.map(\.name), prepared), uniquingKeysWith: { first, _ in first })
    }

    /// One stage: reads every input (in parallel) and takes what the cache has; lists what is
    /// missing as pending, saves the lists, makes it (in parallel), and lists it as done.
    private func run(
        _ tasks: [Task], stage: String, caches: [Int: ImageCache], used: inout [Int: Set<String>],
        prepared: inout [PreparedImages], fingerprint: String
    ) throws(BuildError) {
        guard !tasks.isEmpty else { return }
        let snapshot = caches.mapValues { (entries: $0.entries, folder: $0.folder, journal: ImageJournal(records: $0.records)) }
        let plans = self.plans
        let looks = try WorkQueue<Task, Look, BuildError>(tasks).run(
            width: width,
            perform: { task throws(BuildError) in
                guard let cache = snapshot[task.issue] else {
                    throw .issueOutputVanished(issue: plans[task.issue].name, path: "")
                }
                return try Self.look(
                    task, plan: plans[task.issue], cache: cache.folder, entries: cache.entries, fingerprint: fingerprint)
            }, finished: { _ in })
        // Misses, once per issue and key (two identical masters are derived once).
        var misses: [(task: Task, look: Look, entry: ImageCacheEntry)] = []
        var pendingKeys: Set<String> = []
        for (task, look) in zip(tasks, looks) {
            used[task.issue, default: []].insert(look.key)
            if look.hit != nil || !pendingKeys.insert("\(task.issue) \(look.key)").inserted { continue }
            let file = "\(look.key).\(Self.fileExtension(of: task.target))"
            let entry = ImageCacheEntry(
                key: look.key, file: file, temporary: AtomicFile.temporaryName(for: file), size: nil, xxh3: nil, saved: 0)
            caches[task.issue]?.recordPending(entry)
            misses.append((task, look, entry))
        }
        for index in Set(misses.map(\.task.issue)).sorted() { try caches[index]?.save(issue: plans[index].name) }
        let limits = self.limits
        let progress = self.progress
        let total = misses.count
        if total > 0 { progress(stage, 0, total) }
        let made = try WorkQueue<(task: Task, look: Look, entry: ImageCacheEntry), ImageCacheEntry, BuildError>(misses).run(
            width: width,
            perform: { miss throws(BuildError) in
                guard let cache = snapshot[miss.task.issue] else {
                    throw .issueOutputVanished(issue: plans[miss.task.issue].name, path: "")
                }
                let made = try Self.make(
                    miss.task, expecting: miss.look.xxh3, entry: miss.entry, plan: plans[miss.task.issue], cache: cache.folder,
                    limits: limits)
                // Kept at once: a build stopped after this keeps the image (`ImageJournal`).
                do throws(FileSystemError) {
                    try cache.journal.append(made)
                } catch {
                    throw .output(issue: plans[miss.task.issue].name, error)
                }
                return made
            }, finished: { progress(stage, $0, total) })
        var done: [String: ImageCacheEntry] = [:]
        for (miss, entry) in zip(misses, made) {
            caches[miss.task.issue]?.recordDone(entry)
            done["\(miss.task.issue) \(entry.key)"] = entry
        }
        for index in Set(misses.map(\.task.issue)).sorted() {
            try caches[index]?.save(issue: plans[index].name)
            snapshot[index]?.journal.finish()
        }
        for (task, look) in zip(tasks, looks) {
            let fresh = done["\(task.issue) \(look.key)"]
            guard let entry = look.hit ?? fresh else { continue }
            var images = prepared[task.issue]
            if let file = entry.file { images.substitutes[task.target] = file }
            if let record = look.record { images.inputs.append(record) }
            switch (task.operation, look.hit != nil) {
            case (.derive, false): images.work.derived += 1
            case (.derive, true): images.work.derivedFromCache += 1
            case (.optimize, false): images.work.optimized += 1
            case (.optimize, true): images.work.optimizedFromCache += 1
            }
            images.work.bytesSaved += entry.saved
            prepared[task.issue] = images
        }
    }

    /// The extension of a cache file standing for `name`: its own, lowercased.
    static func fileExtension(of name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? "png"
        return ["png", "jpg", "jpeg", "webp"].contains(ext) ? ext : "png"
    }

    /// Opens a task's input (without following links).
    private static func openInput(_ task: Task, plan: IssuePlan, cache: OpenFolder) throws(BuildError) -> OpenFile {
        switch task.source {
        case .asset(let name):
            let source = try IssueSource(plan)
            return try source.file(name, in: try source.assets())
        case .cached(let name):
            do {
                return try cache.file(name)
            } catch {
                throw .output(issue: plan.name, error)
            }
        }
    }

    /// Reads a task's input through XXH3 and looks its key up in the cache.
    private static func look(
        _ task: Task, plan: IssuePlan, cache: OpenFolder, entries: [String: ImageCacheEntry], fingerprint: String
    ) throws(BuildError) -> Look {
        let file = try openInput(task, plan: plan, cache: cache)
        var recorder: InputRecorder?
        if case .asset(let name) = task.source { recorder = InputRecorder(relative: "assets/\(name)", file: file) }
        let hasher = XXH3()
        do {
            try FileCopy.copy(file, to: nil) { chunk in
                hasher.update(chunk)
                recorder?.observe(chunk)
            }
        } catch {
            throw .inputFile(issue: plan.name, error)
        }
        let xxh3 = hasher.finalizeHex()
        let key = Self.key(task.operation, input: xxh3, fingerprint: fingerprint)
        let hit = entries[key].flatMap { ImageCache.isIntact($0, in: cache) ? $0 : nil }
        return Look(key: key, record: recorder?.finish(), xxh3: xxh3, hit: hit)
    }

    /// Makes one image into its pending entry's file; returns the finished entry.
    private static func make(
        _ task: Task, expecting xxh3: String, entry: ImageCacheEntry, plan: IssuePlan, cache: OpenFolder, limits: ImagingLimits
    ) throws(BuildError) -> ImageCacheEntry {
        let input = try openInput(task, plan: plan, cache: cache)
        // The bytes made from must be the ones the key was made of.
        let hasher = XXH3()
        do {
            try FileCopy.copy(input, to: nil) { hasher.update($0) }
        } catch {
            throw .inputFile(issue: plan.name, error)
        }
        guard hasher.finalizeHex() == xxh3 else { throw .configChanged(issue: plan.name, path: input.path) }
        guard let name = entry.file else { return entry }
        let pending: AtomicFile
        do {
            pending = try AtomicFile.create(named: name, in: cache, temporaryName: entry.temporary)
        } catch {
            throw .output(issue: plan.name, error)
        }
        let source = ImageInput.descriptor(input.descriptor, name: input.path)
        let output = ImageOutput.descriptor(pending.file.descriptor, name: pending.temporaryPath)
        var finished = entry
        finished.temporary = nil
        do throws(ImagingError) {
            switch task.operation {
            case .derive:
                _ = try NormalSizeDeriver(limits: limits).derive(from: source, to: output)
            case .optimize:
                let outcome = try LosslessOptimizer(limits: limits).optimize(source, to: output)
                guard case .optimized = outcome else {
                    pending.discard()
                    finished.file = nil
                    return finished
                }
                finished.saved = outcome.bytesSaved
            }
        } catch {
            pending.discard()
            throw .image(issue: plan.name, path: input.path, error)
        }
        do {
            try pending.commit(.bestEffort)
            let written = try cache.file(name)
            let check = XXH3()
            finished.size = try FileCopy.copy(written, to: nil) { check.update($0) }
            finished.xxh3 = check.finalizeHex()
        } catch {
            throw .output(issue: plan.name, error)
        }
        return finished
    }
}
