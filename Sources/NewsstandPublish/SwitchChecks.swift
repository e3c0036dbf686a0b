import Foundation
import NewsstandCore

/// What a publish can check at the public URLs (`BaseURL` + path) before it switches the
/// catalogs in, and what it cannot.
///
/// With content-named files (the build's default), every new bundle, index, cover, book and
/// EPUB is at its final name before the switch, so each is asked for there. A publish that
/// uploads nothing under a final name asks for one file already served instead: either way a
/// `BaseURL` that does not lead to the destination is found before readers are sent to it.
/// Files that replace served ones in place (`build --fixed-names`) reach their URLs only with
/// the switch: until then those URLs serve the old bytes, so their new bytes are checked after
/// it, with the catalogs.
public struct SwitchChecks: Sendable, Equatable {
    /// One file to ask for: its path under `BaseURL`, the size it must have, and whether this
    /// publish uploaded it (else it was served already).
    public struct Probe: Sendable, Equatable {
        public var path: String
        public var size: Int64
        public var isNew: Bool
        /// Whether it is a paid issue's content, asked for signed.
        public var isPaid: Bool { path.hasPrefix(IssueAccess.paidFolder + "/") }
    }

    /// The files asked for before the switch.
    public var probes: [Probe]
    /// Files replacing served ones in place: not checkable before the switch.
    public var replacedInPlace: [String]
    /// Paid issues' new files, not asked for without the host's signing secret.
    public var unsigned: Int
}

extension PublishPlan {
    /// The checks possible before the switch; paid content is asked for only when `canSign`.
    public func switchChecks(canSign: Bool) -> SwitchChecks {
        let paid = IssueAccess.paidFolder + "/"
        let signable = { (path: String) in canSign || !path.hasPrefix(paid) }
        var probes = uploads.filter { signable($0.path) }.map { SwitchChecks.Probe(path: $0.path, size: $0.size, isNew: true) }
        if probes.isEmpty {
            let swapped = Set(swaps.map(\.path))
            let uploaded = Set(uploads.map(\.path))
            if let served = files.first(where: {
                !$0.isCatalog && !swapped.contains($0.path) && !uploaded.contains($0.path) && signable($0.path)
            }) {
                probes.append(SwitchChecks.Probe(path: served.path, size: served.size, isNew: false))
            } else if let swap = swaps.first(where: { signable($0.path) }), let old = remote?.files[swap.path] {
                // Its URL serves the old bytes until the switch: they say whether BaseURL leads here.
                probes.append(SwitchChecks.Probe(path: swap.path, size: old.size, isNew: false))
            }
        }
        return SwitchChecks(
            probes: probes, replacedInPlace: swaps.map(\.path),
            unsigned: uploads.filter { !signable($0.path) }.count)
    }
}

extension PublishVerifier {
    /// Asks for each of `checks`' files at `base` + its path; the problems found (empty when
    /// every one answers 200 with its size).
    public func check(_ checks: SwitchChecks, at base: URL) async -> [String] {
        var problems: [String] = []
        for probe in checks.probes {
            let url = base.appendingPathComponent(probe.path).absoluteString
            problems += await check(url, expectedSize: Int(clamping: probe.size), signed: probe.isPaid)
        }
        return problems.map(Redacted.message)
    }
}
