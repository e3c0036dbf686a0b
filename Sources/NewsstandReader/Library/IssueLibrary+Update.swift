import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Brings a downloaded issue with an update (`Issue.hasUpdate`) to the catalog's content and
    /// says how: by ranges (only the entries that changed, fetched with HTTP `Range` requests into
    /// the new bundle, checked against its index) or by a whole download, with the reason. The
    /// old version stays readable until the new one is swapped in whole. An issue not downloaded
    /// is downloaded (`.full(.notInstalled)`); one without an update returns `.upToDate`.
    /// Also emits `LibraryEvent.updated`.
    /// - Throws: `LibraryError`, as `download(_:)`; the installed version is then unchanged.
    @discardableResult
    public func update(_ name: String) async throws(LibraryError) -> UpdateResult {
        guard let record = state.issues[name] else { throw .unknownIssue(name: name) }
        if record.status == .available, !record.hasUpdate { return .upToDate }
        // Another process may have updated it while this one waited for the claim: then how is
        // not known here, only that the issue is whole (a full download, as far as this one saw).
        return try await join(name).update ?? .full(.notInstalled)
    }

    /// Outcome of trying an update by ranges.
    enum RangedUpdate {
        case done(Issue, UpdateResult)
        case fallBack(FullDownloadReason)
        case failed(LibraryError)
    }

    /// The fetch of `record`'s bundle index, checked against `source`, the bundle it is fetched
    /// for: the one set-up of every index fetch (an update by ranges, a streamed download, an
    /// install that keeps the index, a refresh's measure). Nil when the catalog gives no index
    /// for that bundle (a retina library that fell back to the normal bundle has none for it).
    func indexFetch(for record: IssueRecord, source: BundleSource, policy: NetworkPolicy) -> IndexFetch? {
        guard source.url == record.remoteContentURL, let url = record.contentIndexURL, let size = record.contentIndexSize,
            let sha256 = record.contentIndexSHA256
        else { return nil }
        return IndexFetch(
            link: accessLink(record, url: url, resource: .index), size: size, sha256: sha256, bundleSize: source.size,
            bundleSHA256: source.sha256, limits: configuration.indexLimits, transferLimits: configuration.requestLimits,
            policy: policy, transport: configuration.transport)
    }

    /// Whether the issue's installed content can be the base of an update by ranges.
    func canUpdateByRanges(_ record: IssueRecord) -> Bool {
        record.hasUpdate && record.installedSHA256 != nil && FileStatus.kind(of: layout.content(of: record.name)) == .folder
    }

    /// Updates an installed issue by ranges, or says why a whole download is needed.
    func updateByRanges(_ name: String, progress: @escaping @Sendable (DownloadProgress) -> Void) async -> RangedUpdate {
        guard let record = state.issues[name] else { return .failed(.unknownIssue(name: name)) }
        let source = record.bundleSource(scale: state.scale)
        guard let fetch = indexFetch(for: record, source: source, policy: policy(of: name)) else { return .fallBack(.noIndex) }
        let index: BundleIndex
        switch await fetch.run() {
        case .failure(let reason): return .fallBack(reason)
        case .success(let fetched): index = fetched
        }
        if let problem = Self.unusableShape(of: index, limits: configuration.extractionLimits) {
            return .fallBack(.indexUnusable(problem))
        }
        guard let plan = await plan(name, installed: record.installedSHA256, to: index) else {
            return .fallBack(.noInstalledIndex)
        }
        if plan.bytes * 2 > index.bundleSize {
            return .fallBack(.tooMuchChanged(bytes: plan.bytes, bundleSize: index.bundleSize))
        }
        log(
            "\(name): updating by ranges: \(plan.fetched.count) entries in \(plan.ranges.count) ranges (\(plan.bytes) bytes), \(plan.kept.count) kept"
        )

        let spoolName = LibraryLayout.rangesFileName(of: name)
        let downloads: OpenFolder
        do {
            downloads = try OpenFolder.open(layout.downloads)
        } catch {
            return Self.rangesFailed(error)
        }
        defer { try? downloads.removeRegularFile(spoolName) }
        let fetcher = RangeFetcher(
            link: accessLink(record, url: source.url, resource: .bundle), bundleSize: index.bundleSize, ranges: plan.ranges,
            spool: downloads, spoolName: spoolName,
            limits: configuration.downloadLimits, policy: policy(of: name),
            transport: configuration.transport, maxAttempts: configuration.maxAttempts, retryDelay: configuration.retryDelay,
            clock: configuration.clock)
        let total = plan.bytes
        // A running total, shared with the transfer's thread.
        let counter = Locked<Int64>(0)
        let requests: Int
        do {
            requests = try await fetcher.run { count in
                let sum = counter.withLock { total in
                    total += count
                    return total
                }
                progress(DownloadProgress(bytesReceived: sum, bytesExpected: total))
            }
        } catch {
            switch error {
            case .ignoresRanges: return .fallBack(.rangesIgnored)
            case .refused(let reason): return .fallBack(.badRangeResponse(reason))
            case .transfer(.cancelled): return .failed(.cancelled(name: name))
            case .denied(let error): return .failed(error)
            case .transfer(.file(let failure)): return Self.rangesFailed(failure)
            case .transfer(let failure): return .fallBack(.badRangeResponse(failure.description))
            }
        }
        if Task.isCancelled { return .failed(.cancelled(name: name)) }
        let assembler = UpdateAssembler(
            name: name, layout: layout, plan: plan, index: index, spool: URL(fileURLWithPath: downloads.path(of: spoolName)))
        switch await BlockingWork.run({ assembler.run() }) {
        case .failure(.mismatch(let reason)): return .fallBack(.indexMismatch(reason))
        case .failure(.file(let failure)): return Self.rangesFailed(failure)
        case .success: break
        }
        let current: IssueRecord
        switch await commitStaged(name, sha256: index.bundleSHA256, source: source) {
        case .failure(let error): return .failed(error)
        case .success(let record): current = record
        }
        // A whole download of an earlier bundle, cut before it ended, is of no use any more.
        PartMetadata.discard(part: layout.part(of: name, scale: state.scale))
        let result = UpdateResult.ranges(
            bytesFetched: total, requests: requests, entriesFetched: plan.fetched.count,
            entriesKept: plan.kept.count)
        log("\(name) is available: \(result)")
        return .done(current.issue(in: layout), result)
    }

    /// What updating `name`'s installed files to `index` takes, on a thread of its own; nil when
    /// the content has no index describing `installed`, the bundle the record says is installed.
    func plan(_ name: String, installed sha256: String?, to index: BundleIndex) async -> UpdatePlan? {
        guard let sha256 else { return nil }
        let content = layout.content(of: name)
        let limits = configuration.indexLimits
        return await BlockingWork.run { () -> UpdatePlan? in
            guard let folder = try? OpenFolder.open(content),
                let installed = InstalledIndex.load(from: folder, describing: sha256, limits: limits)
            else { return nil }
            return UpdatePlan.make(installed: installed, new: index, content: folder)
        }
    }

    /// What a file error on the ranges path leads to: a whole download, which needs none of the
    /// spool, links or folders that failed; but a full disk stays an error, as the whole bundle
    /// needs more room than the ranges (its `.part` file and its unpacked copy).
    static func rangesFailed(_ failure: FileSystemError) -> RangedUpdate {
        failure.isNoSpace
            ? .failed(.diskFull(path: failure.path, reason: failure.reason)) : .fallBack(.rangesFailed(failure.description))
    }

    /// Why the new version cannot be assembled from the index as it stands, or nil: the unpack
    /// limits hold for ranges too (entries, total size, compression ratio: an entry inflates only
    /// up to its stated size, so the sizes bound it), and the index's names must be the issue's
    /// files (its root: `pages.plist` there, no `__MACOSX/`), as an unpack would lay them out.
    static func unusableShape(of index: BundleIndex, limits: ZipExtractionLimits) -> String? {
        if index.entries.count > limits.maxEntries { return "it has more than \(limits.maxEntries) entries, the unpack limit" }
        var total: Int64 = 0
        for entry in index.entries {
            let sum = total.addingReportingOverflow(entry.size)
            guard !sum.overflow, sum.partialValue <= limits.maxTotalSize else {
                return "its files add up to more than the unpack limit of \(limits.maxTotalSize) bytes"
            }
            total = sum.partialValue
        }
        if total > limits.ratioGraceSize, Double(total) / Double(max(index.bundleSize, 1)) > limits.maxCompressionRatio {
            return "its files are more than \(limits.maxCompressionRatio) times the bundle's size"
        }
        guard index.entries.contains(where: { $0.name == BundleShape.pageConfig }),
            !index.entries.contains(where: { $0.name.hasPrefix(BundleShape.macOSMetadata + "/") })
        else { return "its files are not laid out with the issue at the bundle's root" }
        return nil
    }

    /// Measures what updating each of `names` by ranges will fetch (the new index against the
    /// installed one), for `Issue.updateBytes`; nil where it will be a whole download. A paid
    /// issue is not measured (nil): a refresh does not ask the access provider.
    func measureUpdates(_ names: [String]) async {
        for name in names {
            guard let record = state.issues[name], record.access == .free, canUpdateByRanges(record),
                let fetch = indexFetch(
                    for: record, source: record.bundleSource(scale: state.scale), policy: configuration.networkPolicy),
                case .success(let index) = await fetch.run(),
                Self.unusableShape(of: index, limits: configuration.extractionLimits) == nil
            else { continue }
            let bytes = await plan(name, installed: record.installedSHA256, to: index).flatMap {
                $0.bytes * 2 > index.bundleSize ? nil : $0.bytes
            }
            guard var current = state.issues[name], current.contentSHA256 == record.contentSHA256 else { continue }
            current.updateBytes = bytes
            state.issues[name] = current
        }
        try? await save()
    }
}
