import Foundation
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// `PlistWriter` is what puts a validated config into a bundle, so whatever it accepts it must
/// write as something every reader reads back as the same value: our reader, Foundation's
/// (the reader library's, Apple's) and Python's plistlib. What it cannot write that way it
/// refuses. Found by FuzzPlist: a signalling NaN was written `snan(0x1000000000000)`, which no
/// reader parses, and a bundle went out that readers could not open.
@Suite(.tags(.needsTools)) struct PlistWriterTotalityTests {
    /// Every NaN (quiet, signalling, negative, with a payload) and both infinities, as Apple's
    /// writer spells them: `nan`, `+infinity`, `-infinity`.
    static let nonFinite: [(Double, String)] = [
        (.nan, "nan"), (.signalingNaN, "nan"), (-.nan, "nan"), (Double(bitPattern: 0x7FF4_0000_0000_0001), "nan"),
        (Double(bitPattern: 0xFFF8_0000_DEAD_BEEF), "nan"), (.infinity, "+infinity"), (-.infinity, "-infinity"),
    ]

    @Test func nanAndTheInfinitiesAreWrittenAsApplesPlistsWriteThem() throws {
        let root = PlistNode(.array(Self.nonFinite.map { PlistNode(.real($0.0), line: 0) }), line: 0)
        let written = try PlistWriter.xml(root)
        let text = String(decoding: written, as: UTF8.self)
        for (_, spelling) in Self.nonFinite { #expect(text.contains("<real>\(spelling)</real>"), "\(text)") }
        #expect(!text.contains("snan") && !text.contains("0x"), "\(text)")
        try expectReadsBack(root, from: written)
        // Python's plistlib, the reader most strict about a real's text.
        let file = try Shell.temporaryFolder("plist").appendingPathComponent("reals.plist")
        try written.write(to: file)
        let python = try Shell.python(
            "import plistlib, sys; print(' '.join(repr(x) for x in plistlib.load(open(sys.argv[1], 'rb'))))", [file.path])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "nan nan nan nan nan inf -inf")
    }

    /// Random trees (a fixed seed, so a failure repeats) of every kind of value, with the edges
    /// that broke writers before: non-finite and subnormal reals, the extreme integers, every
    /// character class (carriage returns, `]]>`, characters XML cannot carry), dates with
    /// fractions and outside the years a plist date can name. Each is written, or refused for a
    /// reason it really has; what is written reads back the same with our reader and Foundation
    /// and writes again to the same bytes.
    @Test func whateverTheWriterAcceptsReadsBackAsTheSameValue() throws {
        var random = SeededRandom(seed: 0x5EED_2312)
        var written: [(PlistNode, Data)] = []
        var refused = 0
        for _ in 0..<400 {
            let root = PlistNode(.array((0..<4).map { _ in Self.node(depth: 0, &random) }), line: 0)
            let data: Data
            do {
                data = try PlistWriter.xml(root)
            } catch {
                #expect(Self.hasUnwritable(root.plistValue), "refused \(root.plistValue): \(error.reason)")
                refused += 1
                continue
            }
            #expect(!Self.hasUnwritable(root.plistValue), "wrote what it should refuse: \(root.plistValue)")
            try expectReadsBack(root, from: data)
            written.append((root, data))
        }
        // The generator reaches both outcomes.
        #expect(refused > 20 && written.count > 200, "\(refused) refused, \(written.count) written")
        try expectPythonReadsBack(written.prefix(60))
    }

    /// Our reader and Foundation's read `data` as `root`'s value (dates to the whole second:
    /// an XML plist date has none, as Apple's writer has none), and it writes again to itself.
    func expectReadsBack(_ root: PlistNode, from data: Data, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let ours = try PlistReader.read(data: data, displayPath: "w.plist")
        #expect(Self.same(root.plistValue, ours.plistValue), "ours: \(ours.plistValue)", sourceLocation: sourceLocation)
        #expect(try PlistWriter.xml(ours) == data, "not stable", sourceLocation: sourceLocation)
        let object = try PropertyListSerialization.propertyList(from: data, format: nil)
        let foundation = try #require(PlistValue(foundationObject: object) as PlistValue?, sourceLocation: sourceLocation)
        #expect(Self.same(root.plistValue, foundation), "Foundation: \(foundation)", sourceLocation: sourceLocation)
    }

    /// plistlib reads each written file and writes it as a binary plist; our reader reads that
    /// back to the value we wrote.
    func expectPythonReadsBack(_ cases: ArraySlice<(PlistNode, Data)>) throws {
        let folder = try Shell.temporaryFolder("plist")
        for (index, (_, data)) in cases.enumerated() { try data.write(to: folder.appendingPathComponent("\(index).plist")) }
        let python = try Shell.python(
            """
            import plistlib, sys, os
            folder = sys.argv[1]
            for name in sorted(os.listdir(folder)):
                if name.endswith('.plist'):
                    value = plistlib.load(open(os.path.join(folder, name), 'rb'))
                    open(os.path.join(folder, name + '.bin'), 'wb').write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False))
            """, [folder.path])
        #expect(python.status == 0, "\(python.stderr)")
        for (index, (root, _)) in cases.enumerated() {
            let binary = try Data(contentsOf: folder.appendingPathComponent("\(index).plist.bin"))
            let back = try PlistReader.read(data: binary, displayPath: "p.plist")
            #expect(Self.same(root.plistValue, back.plistValue), "plistlib: \(back.plistValue) for \(root.plistValue)")
        }
    }

    // MARK: The generator

    static func node(depth: Int, _ random: inout SeededRandom) -> PlistNode {
        let kind = depth >= 3 ? Int.random(in: 0..<6, using: &random) : Int.random(in: 0..<8, using: &random)
        switch kind {
        case 0: return PlistNode(.string(string(&random)), line: 0)
        case 1: return PlistNode(.integer(integer(&random)), line: 0)
        case 2: return PlistNode(.real(real(&random)), line: 0)
        case 3: return PlistNode(.boolean(Bool.random(using: &random)), line: 0)
        case 4: return PlistNode(.date(date(&random)), line: 0)
        case 5:
            return PlistNode(
                .data(Data((0..<Int.random(in: 0..<40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })),
                line: 0)
        case 6:
            return PlistNode(
                .array((0..<Int.random(in: 0..<4, using: &random)).map { _ in node(depth: depth + 1, &random) }), line: 0)
        default:
            var keys = Set<String>()
            var entries: [PlistNode.Entry] = []
            for _ in 0..<Int.random(in: 0..<4, using: &random) {
                let key = string(&random)
                guard keys.insert(key).inserted else { continue }
                entries.append(PlistNode.Entry(key: key, keyLine: 0, node: node(depth: depth + 1, &random)))
            }
            return PlistNode(.dictionary(entries), line: 0)
        }
    }

    /// Characters from every class that matters to XML: markup, white space (a carriage return
    /// becomes a line feed unless escaped), letters beyond ASCII, combining marks, astral
    /// characters, and (rarely) ones XML 1.0 cannot carry at all.
    static let alphabet: [[Unicode.Scalar]] = [
        ["a", "Z", "0", " ", "&", "<", ">", "\"", "'", "]", ";", "#"], ["\n", "\r", "\t"], ["л", "é", "\u{301}", "ß", "中"],
        ["😀", "\u{10FFFD}", "\u{E000}", "\u{FFFD}", "\u{85}", "\u{2028}"],
    ]
    static let unwritable: [Unicode.Scalar] = ["\u{0}", "\u{7}", "\u{1B}", "\u{FFFE}", "\u{FFFF}", "\u{B}"]

    static func string(_ random: inout SeededRandom) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0..<12, using: &random) {
            if Int.random(in: 0..<150, using: &random) == 0 {
                scalars.append(unwritable.randomElement(using: &random)!)
            } else {
                scalars.append(alphabet.randomElement(using: &random)!.randomElement(using: &random)!)
            }
        }
        return String(scalars)
    }

    static func integer(_ random: inout SeededRandom) -> Int {
        [Int.min, Int.max, 0, -1, Int(Int32.max) + 1, Int.random(in: .min ... .max, using: &random)].randomElement(
            using: &random)!
    }

    static func real(_ random: inout SeededRandom) -> Double {
        let special: [Double] = [
            .nan, .signalingNaN, -.nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude,
            .greatestFiniteMagnitude, 0.1, 1e-5, 1.0000000000000002, 123_456_789.125,
        ]
        // Any bit pattern: NaNs with payloads, subnormals and everything else.
        return Bool.random(using: &random)
            ? special.randomElement(using: &random)! : Double(bitPattern: UInt64.random(in: 0 ... .max, using: &random))
    }

    /// Seconds since 1970: mostly within the years 0001 to 9999 (with fractions), sometimes
    /// outside them or not a number at all.
    static func date(_ random: inout SeededRandom) -> Date {
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return Date(timeIntervalSince1970: .nan)
        case 1: return Date(timeIntervalSince1970: 253_402_300_800)  // 10000-01-01
        case 2: return Date(timeIntervalSince1970: -62_135_596_801)  // 0000-12-31T23:59:59
        case 3: return Date(timeIntervalSince1970: 253_402_300_799.75)  // the last second of 9999
        case 4: return Date(timeIntervalSince1970: -62_135_596_800)  // 0001-01-01
        default: return Date(timeIntervalSince1970: Double.random(in: -62_135_596_800..<253_402_300_800, using: &random))
        }
    }

    // MARK: Judging

    /// Whether a value holds what an XML property list cannot carry: a character outside XML
    /// 1.0, or a date outside the years 0001 to 9999 (a plist date has four digits of year).
    static func hasUnwritable(_ value: PlistValue) -> Bool {
        switch value {
        case .string(let s): return s.unicodeScalars.contains { !Markup.isXMLCharacter($0) }
        case .date(let d):
            let seconds = d.timeIntervalSince1970.rounded(.down)
            return !(-62_135_596_800...253_402_300_799).contains(seconds)
        case .array(let items): return items.contains(where: hasUnwritable)
        case .dictionary(let entries):
            return entries.contains { key, value in hasUnwritable(.string(key)) || hasUnwritable(value) }
        default: return false
        }
    }

    /// Equal, with every NaN equal to every other and dates compared to the whole second.
    static func same(_ a: PlistValue, _ b: PlistValue) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)): return x == y && x.sign == y.sign || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)): return x.timeIntervalSince1970.rounded(.down) == y.timeIntervalSince1970.rounded(.down)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        default: return a == b
        }
    }
}
