import Foundation
import NewsstandCore

extension IssueLibrary {
    /// How a streamed download went.
    enum StreamedDownload {
        /// The content is staged (`ContentSwap.stage`) as the bundle with this SHA-256, from `source`.
        case staged(sha256: String, source: BundleSource)
        /// Streaming cannot install this bundle: the `.part` path takes over, for this reason.
        case fallBack(FullDownloadReason)
        /// The download failed (cancelled, suspended, the network, a full disk): as the `.part`
        /// path would have failed; what was checked stays for the next run.
        case failed(LibraryError)
    }

    /// Downloads, checks and unpacks the bundle in one pass when its catalog entry has an index
    /// (and the bundle is the one it describes, the configured unpacker is the default one, and
    /// no `.part` file of an earlier whole download waits to be continued); nil when it cannot
    /// be tried, and the `.part` path runs as before. `reason` is why an update is a whole
    /// download (an index that disagreed with its bytes is not tried again).
    func streamDownload(
        _ record: IssueRecord, reason: FullDownloadReason, progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async -> StreamedDownload? {
        let name = record.name
        let source = record.bundleSource(scale: state.scale)
        let part = layout.part(of: name, scale: state.scale)
        switch reason {
        case .notInstalled, .noInstalledIndex, .tooMuchChanged, .noIndex: break
        case .indexUnusable, .rangesIgnored, .badRangeResponse, .indexMismatch, .rangesFailed: return nil
        }
        guard configuration.unpacker is ZipBundleUnpacker, FileStatus.kind(of: part) == nil,
            let fetch = indexFetch(for: record, source: source, policy: policy(of: name))
        else { return nil }
        let index: BundleIndex
        switch await fetch.run() {
        case .failure(let why): return .fallBack(why)
        case .success(let fetched): index = fetched
        }
        if let problem = Self.unusableShape(of: index, limits: configuration.extractionLimits) {
            return .fallBack(.indexUnusable(problem))
        }
        let layout = layout
        let hasher = configuration.hasher
        let prepared = await BlockingWork.run { () -> Result<BundleStream, StreamSetupFailure> in
            Self.prepareStream(
                layout: layout, part: part, url: source.url, index: index, indexSHA256: fetch.sha256, hasher: hasher)
        }
        let stream: BundleStream
        switch prepared {
        case .success(let made): stream = made
        case .failure(.file(let error)) where error.isNoSpace: return .failed(.diskFull(path: error.path, reason: error.reason))
        case .failure(.file(let error)): return .fallBack(.rangesFailed(error.description))
        case .failure(.unstreamable(let why)): return .fallBack(.indexUnusable(why))
        }
        log(.debug, "\(name): streaming \(source.url.absoluteString) from byte \(stream.position)")
        let outcome = await runStream(record, source: source, part: part.lastPathComponent, stream: stream, progress: progress)
        stream.close()
        if case .fallBack(let why) = outcome {
            // The checked entries stay for a later run while the index stands (the staging is
            // keyed on its SHA-256); the entry that disagreed was never moved into them.
            log(.notice, "\(name): streaming stopped: \(why)")
        }
        return outcome
    }

    /// Why a stream could not be set up.
    enum StreamSetupFailure: Error {
        case file(FileSystemError)
        case unstreamable(String)
    }

    /// The staging opened (an earlier run's checked entries kept when they still stand) and the
    /// stream over it. Blocking: the kept entries are read again.
    private static func prepareStream(
        layout: LibraryLayout, part: URL, url: URL, index: BundleIndex, indexSHA256: String, hasher: any ContentHasher
    ) -> Result<BundleStream, StreamSetupFailure> {
        do throws(FileSystemError) {
            let downloads = try OpenFolder.open(layout.downloads)
            let (staging, checked) = try StreamStaging.prepare(
                in: downloads, part: part.lastPathComponent, url: url, index: index, indexSHA256: indexSHA256)
            do throws(ZipExtractionError) {
                return .success(try BundleStream(index: index, staging: staging, checked: checked, hasher: hasher))
            } catch {
                StreamStaging.discard(in: downloads, part: part.lastPathComponent)
                return .failure(.unstreamable(error.description))
            }
        } catch {
            return .failure(.file(error))
        }
    }

    /// The requests of one streamed download, retried as the `.part` path retries (transient
    /// failures with backoff, a paid link renewed once), each continuing at the byte the last
    /// one stopped at; then the complete content staged.
    private func runStream(
        _ record: IssueRecord, source: BundleSource, part: String, stream: BundleStream,
        progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async -> StreamedDownload {
        let name = record.name
        let url = source.url
        let link = accessLink(record, url: url, resource: .bundle)
        var requestURL: URL
        do {
            requestURL = try await link.signed()
        } catch {
            return .failed(error)
        }
        var attempt = 0
        while true {
            attempt += 1
            if Task.isCancelled { return .failed(.cancelled(name: name)) }
            let offset = stream.position
            var request = HTTPRequest(
                url: requestURL, acceptsCompression: false, limits: configuration.downloadLimits, policy: policy(of: name))
            if offset > 0 {
                request.headers["Range"] = "bytes=\(offset)-"
                request.headers["If-Range"] = stream.staging.record.validator
            }
            log(.debug, "GET \(url.absoluteString) (streamed) attempt \(attempt), from byte \(offset)")
            let sink = BundleStreamSink(stream: stream, offset: offset) { received, expected in
                progress(DownloadProgress(bytesReceived: received, bytesExpected: expected))
            }
            do {
                try await request.perform(into: sink, on: configuration.transport)
                break
            } catch {
                if let problem = stream.problem { return .fallBack(Self.fullReason(problem)) }
                if error == .cancelled || Task.isCancelled { return .failed(.cancelled(name: name)) }
                if AccessLink.refuses(error), link.isPaid {
                    do {
                        guard let fresh = try await link.renewed() else { return .failed(Self.refusedAfterRenewal(name, error)) }
                        log(.notice, "\(name): \(url.absoluteString) refused the link (\(error)): renewed, resuming")
                        requestURL = fresh
                        continue
                    } catch {
                        return .failed(error)
                    }
                }
                // A missing bundle (a retina library may fall back to the normal one) or another
                // refusal: the `.part` path asks again and does what it does with that answer.
                if case .httpStatus(let status) = error, !error.isTransient {
                    return .fallBack(.badRangeResponse("the bundle answered HTTP \(status)"))
                }
                if await retries(name, after: error, attempt: attempt) { continue }
                if error.discardsPartialFile { await discardStream(part) }
                return .failed(Self.libraryError(error, name: name, url: url))
            }
        }
        let layout = layout
        return await BlockingWork.run { () -> StreamedDownload in
            switch stream.verify() {
            case .failure(let problem):
                // Every entry checked, yet the whole is not the catalog's bundle: nothing of it is kept.
                StreamStaging.discard(beside: layout.downloads.appendingPathComponent(part))
                return .fallBack(Self.fullReason(problem))
            case .success(let sha256):
                stream.staging.close()
                return Self.stageStreamed(name, stream: stream, sha256: sha256, layout: layout, source: source, part: part)
            }
        }
    }

    /// Moves the complete content into `Issues/` under a temporary name and stages it (the same
    /// step an unpacked bundle takes: `ContentSwap.stage`), then removes the staging. Blocking.
    private static func stageStreamed(
        _ name: String, stream: BundleStream, sha256: String, layout: LibraryLayout, source: BundleSource, part: String
    ) -> StreamedDownload {
        let temporary = layout.temporaryContent(of: name).lastPathComponent
        do throws(FileSystemError) {
            let issues = try OpenFolder.open(layout.issues)
            let downloads = try OpenFolder.open(layout.downloads)
            do throws(FileSystemError) {
                try stream.staging.moveContent(with: stream.index, to: issues, as: temporary)
                try ContentSwap.stage(temporary, as: name, sha256: sha256, in: issues, layout: layout)
            } catch {
                try? issues.removeTree(temporary)
                throw error
            }
            StreamStaging.discard(in: downloads, part: part)
            return .staged(sha256: sha256, source: source)
        } catch {
            if error.isNoSpace { return .failed(.diskFull(path: error.path, reason: error.reason)) }
            return .failed(.fileSystem(path: error.path, reason: error.reason))
        }
    }

    /// Removes the streaming staging of the `.part` file named `part` (what it holds is of no use any more).
    func discardStream(_ part: String) async {
        let part = layout.downloads.appendingPathComponent(part)
        await BlockingWork.run { StreamStaging.discard(beside: part) }
    }

    private static func fullReason(_ problem: BundleStream.Problem) -> FullDownloadReason {
        switch problem {
        case .mismatch(let reason): .indexMismatch(reason)
        case .badRange(let reason): .badRangeResponse(reason)
        }
    }
}
