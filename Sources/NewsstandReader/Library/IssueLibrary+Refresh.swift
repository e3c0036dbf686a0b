import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Refreshes the shelf from a catalog (`issues.plist`) with a conditional GET: an unchanged
    /// catalog costs a 304 and no parsing. Adds new issues, updates known ones, flags downloaded
    /// issues whose content changed, drops issues that left the catalog unless downloaded, and
    /// fetches new or changed covers.
    /// - Parameter url: the catalog; nil uses the one of the last refresh.
    /// - Throws: `LibraryError`; a malformed catalog changes nothing.
    @discardableResult
    public func refresh(from url: URL? = nil) async throws(LibraryError) -> RefreshResult {
        try checkOpen()
        // Start from the rows as another process may have left them (its refresh, its downloads).
        await synchronize()
        await removeAbandonedCoverWrites()
        guard let catalogURL = url ?? state.catalogURL else { throw .noCatalogURL }
        let known = catalogURL == state.catalogURL
        let response = try await catalogClient.fetch(
            catalogURL, etag: known ? state.catalogETag : nil, lastModified: known ? state.catalogLastModified : nil)
        var result = RefreshResult()
        // Consumed, so that the entries are ours alone and `apply` can let each go once merged.
        guard case .modified(var entries, let problems, let etag, let lastModified) = consume response else {
            log("catalog \(catalogURL.absoluteString) not modified")
            result.notModified = true
            emit(.refreshed(result))
            return result
        }
        if entries.isEmpty, let first = problems.first {
            // Not one usable entry: applying it would empty the shelf.
            throw .catalogMalformed(url: catalogURL.absoluteString, reason: "no usable entry: \(first)")
        }
        result.problems = problems.map {
            switch $0 {
            case .badEntry(let name, let reason): .badEntry(name: name, reason: reason)
            case .malformed(let reason): .badEntry(name: nil, reason: reason)
            }
        }
        let dropped = apply(&entries, from: catalogURL, to: &result)
        state.catalogURL = catalogURL
        state.catalogETag = etag
        state.catalogLastModified = lastModified
        try await save()
        await discardFiles(of: dropped)
        await refreshCovers(&result)
        // What each update will cost by ranges, for `Issue.updateBytes` (`newsstand library list`):
        // the new index is fetched now, once per new content, capped and checked like any index.
        await measureUpdates(state.issues.values.filter { $0.hasUpdate && $0.updateBytes == nil }.map(\.name).sorted())
        log(
            "catalog \(catalogURL.absoluteString): \(result.added.count) added, \(result.updated.count) updated, \(result.removed.count) removed"
        )
        emit(.refreshed(result))
        return result
    }

    /// Merges catalog entries into the state, in the catalog's order, emptying `entries` as it
    /// goes: each entry's text is freed once its record is made, so the parsed catalog and the
    /// records are not both held whole (a 100,000-issue refresh peaked at 270 MB with both).
    /// Returns the records of the issues it dropped, whose files go once that is committed.
    private func apply(_ entries: inout [CatalogEntry], from catalogURL: URL, to result: inout RefreshResult) -> [IssueRecord] {
        let retina = state.scale.isRetina
        var seen: Set<String> = []
        seen.reserveCapacity(entries.count)
        state.issues.reserveCapacity(state.issues.count + entries.count)
        entries.reverse()
        while let entry = entries.popLast() {
            guard IssueName.isSafe(entry.name) else {
                result.problems.append(.unsafeName(entry.name))
                continue
            }
            guard !seen.contains(entry.name) else {
                result.problems.append(.badEntry(name: entry.name, reason: "listed twice; the first entry is used"))
                continue
            }
            guard let cover = CatalogURL.resolve(entry.coverURL(retina: retina), against: catalogURL) else {
                result.problems.append(.badURL(name: entry.name, url: entry.coverURL(retina: retina)))
                continue
            }
            guard let content = CatalogURL.resolve(entry.contentURL(retina: retina), against: catalogURL) else {
                result.problems.append(.badURL(name: entry.name, url: entry.contentURL(retina: retina)))
                continue
            }
            seen.insert(entry.name)
            let existing = state.issues[entry.name]
            var record =
                existing
                ?? IssueRecord(
                    name: entry.name, title: entry.title, date: entry.date, remoteCoverURL: cover,
                    remoteContentURL: content, status: .none, hasUpdate: false, isInCatalog: true)
            record.title = entry.title
            record.date = entry.date
            record.summary = entry.summary
            record.productID = entry.productID
            record.access = entry.access
            record.remoteCoverURL = cover
            record.remoteContentURL = content
            record.contentSize = entry.contentSize(retina: retina)
            record.contentSHA256 = entry.contentSHA256(retina: retina)?.lowercased()
            record.coverSHA256 = entry.coverSHA256(retina: retina)?.lowercased()
            // The index is used only with its size and SHA-256 from the catalog to check it by.
            if let index = entry.contentIndexURL(retina: retina), let size = entry.contentIndexSize(retina: retina),
                let sha256 = entry.contentIndexSHA256(retina: retina)
            {
                record.contentIndexURL = CatalogURL.resolve(index, against: catalogURL)
                record.contentIndexSize = size
                record.contentIndexSHA256 = sha256.lowercased()
            } else {
                record.contentIndexURL = nil
                record.contentIndexSize = nil
                record.contentIndexSHA256 = nil
            }
            record.fallback = retina && !entry.hasRetinaKeys ? Self.fallback(for: entry, relativeTo: catalogURL) : nil
            record.isInCatalog = true
            guard let existing else {
                result.added.append(entry.name)
                state.issues[entry.name] = record
                continue
            }
            let changed = record.catalogHasNewContent
            if record.status == .available {
                if changed && !record.hasUpdate { result.contentUpdates.append(entry.name) }
                if !changed || record.contentSHA256 != existing.contentSHA256
                    || record.contentIndexSHA256 != existing.contentIndexSHA256
                {
                    // Measured again for this content (`measureUpdates`), after the save.
                    record.updateBytes = nil
                }
            }
            state.issues[entry.name] = record
            // The comparison is the issue's lifecycle's to take in: it alone says whether an
            // update is available.
            if record.status == .available {
                state.apply(
                    .catalogCompared(hasNewContent: changed), to: entry.name, installing: installTask(of: entry.name) != nil)
            }
            if state.issues[entry.name] != existing { result.updated.append(entry.name) }
        }
        var dropped: [IssueRecord] = []
        for (name, var record) in state.issues where !seen.contains(name) {
            if record.status == .none, running[name] == nil {
                dropped.append(record)
                state.issues[name] = nil
                if state.currentlyReading == name { state.currentlyReading = nil }
                result.removed.append(name)
            } else if record.isInCatalog {
                record.isInCatalog = false
                state.issues[name] = record
                result.updated.append(name)
            }
        }
        result.added.sort()
        result.updated.sort()
        result.removed.sort()
        result.contentUpdates.sort()
        return dropped
    }

    /// Deletes the cover and any partial download of issues the catalog dropped, once that is
    /// committed (nothing is deleted for a change that was not); a partial file whose issue
    /// another process claims is its own.
    private func discardFiles(of dropped: [IssueRecord]) async {
        guard !dropped.isEmpty else { return }
        let layout = layout
        let scale = state.scale
        let claims = claims
        await BlockingWork.run {
            for record in dropped {
                if let cover = record.coverFileName { layout.removeCover(cover) }
                guard let claim = try? claims.take(record.name) else { continue }
                PartMetadata.discard(part: layout.part(of: record.name, scale: scale))
                StreamStaging.discard(beside: layout.part(of: record.name, scale: scale))
                claim.release()
            }
        }
    }

    /// The normal-scale files of an entry without retina keys (its URLs already proved valid
    /// for the `@2x` form, which only renames the last path component).
    private static func fallback(for entry: CatalogEntry, relativeTo catalogURL: URL) -> NormalScaleFallback? {
        guard let cover = CatalogURL.resolve(entry.cover, against: catalogURL),
            let content = CatalogURL.resolve(entry.content, against: catalogURL)
        else { return nil }
        return NormalScaleFallback(
            coverURL: cover, contentURL: content, contentSize: entry.contentSize,
            contentSHA256: entry.contentSHA256?.lowercased(), coverSHA256: entry.coverSHA256?.lowercased())
    }

    /// Removes what a process killed while fetching a cover left half-written. On each refresh
    /// (covers are fetched then), not on each open: the folder holds a file per cover, and
    /// listing a large shelf's is not free.
    private func removeAbandonedCoverWrites() async {
        let covers = layout.covers
        await BlockingWork.run {
            guard let folder = try? OpenFolder.open(covers) else { return }
            AtomicFile.removeAbandonedTemporaries(in: folder) { _ in true }
        }
    }

    /// Fetches the newest `coversFetchedOnRefresh` issues' covers that are not current
    /// (`coverJob`); the others wait for `cover(of:)`.
    private func refreshCovers(_ result: inout RefreshResult) async {
        let newest = state.newestFirst().prefix(max(0, configuration.coversFetchedOnRefresh))
        let jobs = newest.compactMap { state.issues[$0] }.compactMap(coverJob)
        guard !jobs.isEmpty else { return }
        let outcomes = await coverFetcher.fetch(jobs)
        for outcome in outcomes {
            switch outcome {
            case .fetched(let fetched):
                if keepCover(fetched), !result.added.contains(fetched.name), !result.updated.contains(fetched.name) {
                    result.updated.append(fetched.name)
                }
            case .failed(let problem):
                result.problems.append(problem)
            }
        }
        result.updated.sort()
        try? await save()
    }

    /// The fetch that brings an issue's cached cover up to date, or nil when it is: a cover is
    /// current while its file exists and it came from the catalog's URL (or, for a retina
    /// library that fell back, the normal one) with the checksum the catalog gives for it.
    func coverJob(for record: IssueRecord) -> CoverFetcher.Job? {
        // The catalog's cover first, then the fallback's: the first whose URL the cached one came from decides.
        let sources =
            [(url: record.remoteCoverURL, sha256: record.coverSHA256)]
            + (record.fallback.map { [(url: $0.coverURL, sha256: $0.coverSHA256)] } ?? [])
        if let file = record.coverFileName, FileStatus.kind(of: layout.covers.appendingPathComponent(file)) != nil,
            let source = sources.first(where: { $0.url == record.cachedCoverURL }),
            source.sha256 == nil || source.sha256 == record.cachedCoverSHA256
        {
            return nil
        }
        return CoverFetcher.Job(
            name: record.name, url: record.remoteCoverURL, sha256: record.coverSHA256,
            fallbackURL: record.fallback?.coverURL, fallbackSHA256: record.fallback?.coverSHA256)
    }

    /// Records a fetched cover (the old file replaced); returns whether it replaced one.
    @discardableResult
    func keepCover(_ fetched: CoverFetcher.Fetched) -> Bool {
        guard var record = state.issues[fetched.name] else { return false }
        if let old = record.coverFileName, old != fetched.fileName { layout.removeCover(old) }
        let replaced = record.cachedCoverURL != nil
        record.coverFileName = fetched.fileName
        record.cachedCoverURL = fetched.url
        record.cachedCoverSHA256 = fetched.sha256
        record.cachedCoverScale = fetched.isFallback ? .normal : scale
        state.issues[fetched.name] = record
        return replaced
    }
}
