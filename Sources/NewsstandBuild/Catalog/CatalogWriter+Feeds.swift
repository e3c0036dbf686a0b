import Foundation
import NewsstandCore
import NewsstandFormat

/// The feeds that show when each issue's metadata last changed: the Atom feed and the OPDS feed,
/// both from the same `EntryUpdateRecord`s.
extension CatalogWriter {
    /// An issue as the timed feeds list it.
    struct TimedEntry {
        var catalog: CatalogEntry
        var manifest: BuildManifest
        /// When its metadata last changed.
        var updated: Date
    }

    /// The entries in catalog order, each with its manifest and its `updated` time (records
    /// read, and written again where the metadata changed, once per build for both feeds).
    func timedEntries(_ entries: [CatalogEntry], manifests: [BuildManifest], warnings: inout [String]) -> [TimedEntry] {
        let byName = Dictionary(uniqueKeysWithValues: manifests.map { ($0.name, $0) })
        return entries.compactMap { entry in
            guard let manifest = byName[entry.name] else { return nil }
            return TimedEntry(catalog: entry, manifest: manifest, updated: updated(of: manifest, warnings: &warnings))
        }
    }

    /// `atom.xml`, written on every build.
    func writeAtom(_ entries: [TimedEntry], baseURL: URL) throws(BuildError) {
        let atom = AtomFeed(
            magazineTitle: magazine.title ?? "", author: magazine.author, baseURL: baseURL, previewURL: magazine.previewURL)
        try writeFile(
            AtomFeed.fileName,
            Data(
                atom.render(
                    entries.map {
                        AtomFeed.Entry(
                            catalog: $0.catalog, updated: $0.updated, language: magazine.language(of: $0.manifest.metadata))
                    }
                ).utf8))
    }

    /// `opds.json`, left as it is when it already holds these bytes (its validators then stay,
    /// and readers get `304 Not Modified`). The covers' types and sizes are read from their
    /// headers in the output (through links, like the manifests: a gathered output may link them).
    func writeOPDS(_ entries: [TimedEntry], baseURL: URL, warnings: inout [String]) throws(BuildError) {
        let feedEntries = entries.map { entry in
            let manifest = entry.manifest
            let covers = [manifest.cover, manifest.retinaCover].map { record -> OPDSFeed.Picture? in
                let file = output.appendingPathComponent(manifest.name).appendingPathComponent(record.file)
                let probe = (try? OpenFile.open(file)).map(ImageSize.probe)
                if probe.map({ (try? $0.size.get()) == nil }) ?? true {
                    warnings.append(
                        "issue '\(manifest.name)': the size of \(file.path) cannot be read; opds.json gives none for it")
                }
                return OPDSFeed.Picture(probe, name: record.file)
            }
            return OPDSFeed.Entry(
                manifest: manifest, catalog: entry.catalog, updated: entry.updated, cover: covers[0], retinaCover: covers[1])
        }
        let data = OPDSFeed(
            magazineTitle: magazine.title ?? "", publisher: magazine.author, baseURL: baseURL, magazineLanguage: magazine.language
        ).render(feedEntries)
        try writeUnlessUnchanged(OPDSFeed.fileName, digest: XXH3.hex(of: data)) { data }
    }

    /// The entry's `updated` from its record, which is written again when it changed. An issue
    /// folder that is a link (a gathered output) is read through, like its manifest, but never
    /// written through: a changed record there is not kept (a warning).
    private func updated(of manifest: BuildManifest, warnings: inout [String]) -> Date {
        var folder: OpenFolder?
        var linkedFolder: OpenFolder?
        do {
            folder = try OpenFolder.open(output).folder(manifest.name)
        } catch .symbolicLink {
            linkedFolder = try? OpenFolder.open(output.appendingPathComponent(manifest.name, isDirectory: true))
        } catch {
            folder = nil
        }
        let resolution = EntryUpdateRecord.resolve(manifest, in: folder ?? linkedFolder, now: now)
        if let warning = resolution.warning { warnings.append(warning) }
        guard let record = resolution.write else { return resolution.updated }
        if let folder {
            do {
                try record.write(in: folder)
            } catch {
                warnings.append(
                    "issue '\(manifest.name)': its feed record cannot be written (\(error)); the next build gives its entry a new updated time"
                )
            }
        } else if linkedFolder != nil {
            warnings.append(
                "issue '\(manifest.name)': \(output.appendingPathComponent(manifest.name).path) is a symbolic link; its feed record is not written through it, so the next build gives its entry a new updated time"
            )
        }
        return resolution.updated
    }

}
