import Foundation
import NewsstandBuild
import NewsstandCore

/// What a publish did.
public struct PublishReport: Sendable {
    /// Bundles and covers uploaded under their own names.
    public var uploaded: [String] = []
    /// Bundles and covers that replaced a served file in place (staged, then swapped).
    public var swapped: [String] = []
    public var replacedCatalogs: [String] = []
    public var deleted: [String] = []
    public var unchanged = 0
    /// Temporary copies the publish could not delete (hidden `.…old` files), to delete by hand.
    public var leftovers: [String] = []
    /// Problems found by verification (empty when it passed or did not run).
    public var verificationProblems: [String] = []
}

/// Publishes a built magazine so that the served magazine is consistent whatever fails: every
/// URL in the served catalog answers with the bytes whose size and SHA-256 it lists.
///
/// 1. Records the files about to be uploaded in the state file (as not yet referred to), so a
///    failure never leaves files `--prune` does not know.
/// 2. Uploads changed bundles and covers that no earlier publish put at their names (with
///    content-versioned names, all of them) straight under those names: nothing served changes.
/// 3. With a `beforeSwitch` check (the command's: the new files at their public URLs), stops
///    when it fails, before anything served changes.
/// 4. Uploads changed files that replace served ones (fixed names), and the catalogs, under
///    temporary names.
/// 5. Switches them in, catalogs last, keeping each old file aside; any failure puts back
///    everything switched (`Switchover`). Each catalog is given a modification time in a later
///    second than the one it replaces (where the destination lets a client set it), so the
///    `ETag` and `Last-Modified` a static server makes from time and size change with it.
/// 6. Writes the new state file; with `prune`, deletes files no current catalog refers to
///    (recorded as retired first, so an interrupted prune still knows them).
public struct Publisher: Sendable {
    public var destination: any PublishDestination
    public var prune: Bool

    public init(destination: any PublishDestination, prune: Bool) {
        self.destination = destination
        self.prune = prune
    }

    /// Reads what the destination holds and plans the publish of `builtFolder`. A state file
    /// that is too large, does not decode or names a path outside the destination is an error.
    public func plan(builtFolder: URL) async throws(PublishError) -> PublishPlan {
        do throws(PublishError) {
            return try await makePlan(builtFolder: builtFolder)
        } catch {
            throw error.noting("Nothing was changed at \(destination.description).")
        }
    }

    private func makePlan(builtFolder: URL) async throws(PublishError) -> PublishPlan {
        var remote: PublishManifest?
        let source = "\(destination.description)\(destination.description.hasSuffix("/") ? "" : "/")\(PublishManifest.path)"
        if let data = try await destination.read(PublishManifest.path, limit: PublishManifest.sizeLimit) {
            remote = try PublishManifest.decode(data, source: source)
        }
        // In a folder, checking that the recorded files are still there costs a stat each.
        if let local = destination as? LocalFolderDestination, let recorded = remote {
            remote = try await PublishFiles.offload { () throws(PublishError) in try local.confirming(recorded) }
        }
        var servedCatalog = true
        var servedIndexPage = true
        if remote == nil {
            servedCatalog = try await destination.read("issues.plist", limit: BuiltMagazine.catalogLimit) != nil
            // Only a web edition's plan asks whether an index page is served.
            if FileStatus.kind(of: builtFolder.appendingPathComponent(WebEditionRecord.path)) == .regularFile {
                servedIndexPage = try await destination.read(BuiltMagazine.indexPage, limit: BuiltMagazine.catalogLimit) != nil
            }
        }
        // Reading the built folder hashes every catalog: on a thread of its own.
        let known = remote
        let served = (servedCatalog, servedIndexPage)
        return try await PublishFiles.offload { () throws(PublishError) in
            try PublishPlan.make(builtFolder: builtFolder, remote: known, servedCatalog: served.0, servedIndexPage: served.1)
        }
    }

    /// Carries out `plan`; `progress` hears each step as it starts. `beforeSwitch` runs once the
    /// new files are under their final names and before anything is staged or switched: an error
    /// it returns stops the publish there, with nothing readers are served changed.
    public func run(
        _ plan: PublishPlan, beforeSwitch: (@Sendable () async -> PublishError?)? = nil,
        progress: @Sendable (String) -> Void = { _ in }
    ) async throws(PublishError) -> PublishReport {
        let lock = try await destination.lock()
        if let notice = lock?.notice { progress(notice) }
        do {
            let report = try await runLocked(plan, lock: lock, beforeSwitch: beforeSwitch, progress: progress)
            await lock?.release()
            return report
        } catch {
            await lock?.release()
            throw error
        }
    }

    private func runLocked(
        _ plan: PublishPlan, lock: PublishLock?, beforeSwitch: (@Sendable () async -> PublishError?)?,
        progress: @Sendable (String) -> Void
    ) async throws(PublishError) -> PublishReport {
        var report = PublishReport(unchanged: plan.unchanged)
        if let intent = plan.intentManifest() {
            try await writeManifest(intent, step: "state")
        }
        let unchangedNote = "Nothing that readers are served was changed; run the command again to finish."
        for file in plan.uploads {
            progress("upload \(file.path)")
            do { try await destination.upload(file.source, to: file.path) } catch {
                throw error.noting(unchangedNote)
            }
            report.uploaded.append(file.path)
        }
        let uploadedNote =
            "Nothing that readers are served was changed: the files uploaded stay under names no catalog gives yet (--prune deletes them once unused)."
        if let beforeSwitch, let failure = await beforeSwitch() {
            throw failure.noting(uploadedNote)
        }
        // Still this publish's lock (one that expires may have been taken over): else another
        // publish runs, and nothing is switched.
        do { try await lock?.confirm() } catch { throw error.noting(uploadedNote) }
        let switchover = Switchover(destination: destination, run: Self.runTag())
        var items: [Switchover.Item] = []
        for file in plan.swaps + plan.catalogs {
            let staged = switchover.temporaryName(for: file.path, "new")
            progress("stage \(file.path)")
            do throws(PublishError) {
                if file.isCatalog {
                    // In a later second than the served one's, so the validators a server makes
                    // from time and size change though a rebuilt catalog keeps its size.
                    let served = try await destination.modificationTime(of: file.path)
                    try await destination.upload(file.source, to: staged, modified: CatalogTimes.time(replacing: served))
                } else {
                    try await destination.upload(file.source, to: staged)
                }
            } catch {
                if !error.isCredentialsRefusal {
                    for item in items { try? await destination.delete(item.staged) }
                    try? await destination.delete(staged)
                }
                throw error.noting(unchangedNote)
            }
            items.append(Switchover.Item(path: file.path, staged: staged, sha256: file.sha256, isCatalog: file.isCatalog))
        }
        report.leftovers = try await switchover.perform(items, progress: progress)
        report.swapped = plan.swaps.map(\.path)
        report.replacedCatalogs = plan.catalogs.map(\.path)
        // Stale files are recorded as retired before any is deleted, so that an interrupted
        // prune still knows, next time, which files were ours.
        let published = plan.resultingManifest(pruned: false)
        if published != plan.remote {
            try await writeManifest(published, step: "state", after: "the new catalogs are in place and consistent")
        }
        if prune, !plan.stale.isEmpty {
            do { try await lock?.confirm() } catch {
                throw error.noting("The new catalogs are in place and consistent; nothing was deleted.")
            }
            for path in plan.stale {
                progress("delete \(path)")
                do { try await destination.delete(path) } catch {
                    throw error.noting(
                        "The new catalogs are in place and consistent; the files not yet deleted stay recorded: run the command again with --prune to finish."
                    )
                }
                report.deleted.append(path)
            }
            try await writeManifest(plan.resultingManifest(pruned: true), step: "state", after: "the stale files are deleted")
        }
        return report
    }

    /// Eight random hex digits naming this run's temporary files.
    static func runTag() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(8)).lowercased()
    }

    /// Writes the state file: uploaded under a temporary name, then moved into place.
    private func writeManifest(_ manifest: PublishManifest, step: String, after: String? = nil) async throws(PublishError) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-publish-\(UUID().uuidString)")
        let data = manifest.encoded()
        do {
            // A scratch copy to upload from, removed below: best effort.
            try AtomicFile.write(data, named: "state.json", in: try OpenFolder.open(folder, create: true), .bestEffort)
        } catch {
            throw .fileSystem(step, error)
        }
        defer { try? OpenFolder.open(folder.deletingLastPathComponent()).removeTree(folder.lastPathComponent) }
        let source = UploadSource(
            folder: folder, path: "state.json", size: Int64(data.count), sha256: SHA256.hex(of: data))
        let temporary = ".newsstand-publish.\(Self.runTag()).tmp"
        do throws(PublishError) {
            try await destination.upload(source, to: temporary)
            try await destination.move(temporary, to: PublishManifest.path)
        } catch {
            if !error.isCredentialsRefusal { try? await destination.delete(temporary) }
            throw error.noting(
                after.map {
                    "The publish state file could not be written, but \($0): readers are served the new magazine; run the command again to record it."
                } ?? "Nothing that readers are served was changed; run the command again to finish.")
        }
    }
}
