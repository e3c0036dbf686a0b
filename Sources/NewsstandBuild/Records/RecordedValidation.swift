import Foundation
import NewsstandCore
import NewsstandFormat

/// Validation that reuses an issue's build record when nothing the recorded validation depended
/// on has changed: the same magazine-wide key (tool version, page-class schemas), the same
/// listing of `assets/`, and every file it opened (configs and referenced assets, the
/// manifest's inputs) with its recorded size and times or, when the times moved, its recorded
/// XXH3. Otherwise the issue is validated in full, and every problem is reported.
///
/// The record comes from the output folder, which a CI cache may restore from anywhere: it is
/// opened without following links, decoded with `BuildManifest`'s checks (plain names only,
/// size limit), and a record that cannot be trusted is reported and treated as absent. Nothing
/// is written here: the build brings records up to date when it writes its outputs.
public enum RecordedValidation {
    /// Where an issue's validation came from.
    public enum Outcome: Sendable, Equatable {
        /// From its build record.
        case reused
        /// Validated: there is no record (never built, or built without one).
        case noRecord
        /// Validated: the record was made by another version of newsstand (given).
        case otherVersion(String)
        /// Validated: something the recorded validation depended on changed.
        case changed
        /// Validated: the record cannot be trusted (unreadable, not a record, names that are
        /// not plain file names).
        case untrusted(BuildRecordError)
    }

    /// Validates the issue `name`, reusing its record in the build output `records` (the
    /// output folder, opened; nil to validate in full).
    public static func validate(
        issue name: String, in magazine: Magazine, feeds: Set<Feed> = [], records: OpenFolder?
    ) -> (IssueValidation, Outcome) {
        guard let records else { return (IssueValidator.validate(issue: name, in: magazine, feeds: feeds), .noRecord) }
        let outcome: Outcome
        switch reuse(issue: name, in: magazine, feeds: feeds, records: records) {
        case .reused(let validation): return (validation, .reused)
        case .refused(let why): outcome = why
        }
        return (IssueValidator.validate(issue: name, in: magazine, feeds: feeds), outcome)
    }

    /// Validates the issues `names` in order, reusing records in `records` where they hold,
    /// and hands each result to `each` in that order on the calling thread. Records are checked
    /// on up to `width` threads (`batch` issues at a time, so results are printed as they come
    /// and memory does not grow with the magazine); issues that must be validated in full are
    /// validated one at a time on the calling thread, as without records (a config may take
    /// tens of MB to read: two at once would double the peak). 256 issues a batch: each batch
    /// starts its helper threads and waits for the last of them, which at 64 cost a no-change
    /// build of 500 issues 4% of its time; a reused validation holds a few KB.
    public static func validate(
        issues names: [String], in magazine: Magazine, feeds: Set<Feed> = [], records: OpenFolder?, index: BuildIndex? = nil,
        width: Int,
        batch: Int = 256, each: (String, IssueValidation, Outcome) -> Void
    ) {
        var start = 0
        while start < names.count {
            let slice = Array(names[start..<min(names.count, start + max(1, batch))])
            start += slice.count
            let attempts: [Attempt]
            if let records {
                // `issues/`, opened once for the batch (not once per issue) without following a link.
                let issues = try? OpenFolder.open(magazine.folder).folder("issues")
                // Nothing here throws: Never is the queue's failure type.
                let queue = WorkQueue<String, Attempt, Never>(slice)
                attempts = queue.run(
                    width: width,
                    perform: { name in
                        reuse(issue: name, in: magazine, feeds: feeds, records: records, index: index, issues: issues)
                    },
                    finished: { _ in })
            } else {
                attempts = slice.map { _ in .refused(.noRecord) }
            }
            for (name, attempt) in zip(slice, attempts) {
                switch attempt {
                case .reused(let validation): each(name, validation, .reused)
                case .refused(let outcome): each(name, IssueValidator.validate(issue: name, in: magazine, feeds: feeds), outcome)
                }
            }
        }
    }

    private enum Attempt: Sendable {
        case reused(IssueValidation)
        case refused(Outcome)
    }

    private static func reuse(
        issue name: String, in magazine: Magazine, feeds: Set<Feed>, records: OpenFolder, index: BuildIndex? = nil,
        issues: OpenFolder? = nil
    ) -> Attempt {
        let output: OpenFolder
        let manifest: BuildManifest?
        do throws(FileSystemError) {
            output = try records.folder(name)
        } catch .missing {
            return .refused(.noRecord)
        } catch {
            return .refused(.untrusted(.unreadable(error)))
        }
        do {
            // Through the build index when there is one: one stat instead of reading and decoding.
            if let index {
                manifest = try index.manifest(in: output, name: name)
            } else {
                manifest = try BuildManifest.load(from: output)
            }
        } catch {
            return .refused(.untrusted(error))
        }
        guard let manifest else { return .refused(.noRecord) }
        guard manifest.toolVersion == ToolVersion.current else { return .refused(.otherVersion(manifest.toolVersion)) }
        guard let recorded = manifest.validation, manifest.name == name,
            recorded.key == ValidationRecord.key(magazine, feeds: feeds),
            !recorded.diagnostics.hasErrors, recorded.diagnostics.allSatisfy(isPrintable),
            Set(recorded.configDigests.keys) == ["issue.plist", "pages.plist"]
        else { return .refused(.changed) }
        let plan = IssuePlan(
            name: name, folder: magazine.issueFolder(name), magazineFolder: magazine.folder, metadata: manifest.metadata,
            assets: recorded.assets, derived: recorded.derived, configDigests: recorded.configDigests, validation: recorded)
        // Every file validation opened must have a record to compare with.
        guard Set(manifest.inputs.map(\.path)) == BuildCache.inputPaths(of: plan) else { return .refused(.changed) }
        let source: OpenFolder
        do {
            source = try issues?.folder(name) ?? IssueSource.openFolder(magazine: magazine.folder, issue: name)
        } catch {
            return .refused(.changed)
        }
        let assets: OpenFolder?
        let listing: String
        do throws(FileSystemError) {
            let folder = try source.folder("assets")
            (assets, listing) = (folder, AssetListing.digest(try folder.entries()))
        } catch .missing {
            (assets, listing) = (nil, AssetListing.digest(nil))
        } catch {
            return .refused(.changed)
        }
        guard listing == recorded.listing else { return .refused(.changed) }
        var touched = false
        for input in manifest.inputs {
            switch BuildCache.check(input, source: source, assets: assets) {
            case .same: continue
            case .touched: touched = true
            case .changed: return .refused(.changed)
            }
        }
        var reused = plan
        reused.recorded = RecordedBuild(
            settings: OutputSettings(of: manifest),
            isCurrent: !touched
                && BuildCache.outputsPresent(
                    manifest, in: output, content: BuildCache.contentFolder(of: manifest, issueFolder: output, output: records),
                    buildIndex: index)
        )
        return .reused(IssueValidation(diagnostics: recorded.diagnostics, plan: reused))
    }

    /// A recorded diagnostic is printed again as it is: one with control characters (which
    /// could drive a terminal) is not taken from a record.
    private static func isPrintable(_ diagnostic: Diagnostic) -> Bool {
        let texts = [diagnostic.message, diagnostic.location?.file ?? ""]
        return texts.allSatisfy { text in !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } }
    }
}
