import Foundation
import NewsstandCore
import Testing

@testable import NewsstandReader

/// The app delegate hands the system's completion handler over synchronously at launch, before
/// any library is open (#34): the registry keeps it for the engine made later, and a library
/// opened again in the same process gets the engine, and the sessions, it had.
@Suite("Background session registry")
struct BackgroundSessionRegistryTests {
    static func settings(_ bundle: String, completions: DispatchQueue) -> BackgroundSessionEngine.Settings {
        BackgroundSessionEngine.Settings(
            identity: BackgroundSessionIdentity(bundleIdentifier: bundle, libraryFolder: URL(fileURLWithPath: "/apps/Library")),
            maxUnstatedBytes: 1 << 20, completionQueue: completions)
    }

    static func engine(_ settings: BackgroundSessionEngine.Settings) -> BackgroundSessionEngine {
        BackgroundSessionEngine(settings: settings) { URL(fileURLWithPath: "/nowhere/\($0.name).zip.part") }
    }

    @Test func aLibrarysSessionsAreKnownByTheAppsBundleIdentifier() {
        let app = "com.example.mag"
        #expect(BackgroundSessionIdentity.isLibrarySession("com.example.mag.newsstand.Library", appBundleIdentifier: app))
        #expect(
            BackgroundSessionIdentity.isLibrarySession("com.example.mag.newsstand.Library.automatic", appBundleIdentifier: app))
        #expect(
            BackgroundSessionIdentity.isLibrarySession(
                "com.example.mag.NotificationService.newsstand.Library", appBundleIdentifier: app),
            "an extension's (its bundle identifier starts with the app's)")
        #expect(!BackgroundSessionIdentity.isLibrarySession("com.example.magazine.newsstand.Library", appBundleIdentifier: app))
        #expect(!BackgroundSessionIdentity.isLibrarySession("com.other.newsstand.Library", appBundleIdentifier: app))
        #expect(!BackgroundSessionIdentity.isLibrarySession("com.example.mag.uploads", appBundleIdentifier: app))
        #expect(BackgroundSessionIdentity.isLibrarySession("tool.newsstand.Library", appBundleIdentifier: nil))
    }

    @Test func aHandlerGivenBeforeTheLibraryOpensIsCalledOnceItsEventsAreRecorded() async {
        let registry = BackgroundSessionRegistry()
        let completions = DispatchQueue(label: "test.completions")
        let settings = Self.settings("com.example.\(UUID().uuidString.prefix(8))", completions: completions)
        let calls = Locked(0)
        let user = settings.identity.identifier(of: .user)
        #expect(registry.handleEvents(forSession: user) { calls.withLock { $0 += 1 } }, "taken at launch, before any library")
        #expect(!registry.handleEvents(forSession: "com.example.uploads") {}, "not a library's: the caller's")
        let engine = registry.engine(for: settings, folder: URL(fileURLWithPath: "/apps/Library")) { Self.engine(settings) }
        completions.sync {}
        #expect(calls.current == 0, "not before the session delivered its events")
        engine.deliveredAllEvents(in: BackgroundSessionSlot(settings.identity, .user))
        completions.sync {}
        #expect(calls.current == 1)
        engine.deliveredAllEvents(in: BackgroundSessionSlot(settings.identity, .user))
        completions.sync {}
        #expect(calls.current == 1, "called once")
    }

    @Test func aLibraryOpenedAgainGetsTheEngineItHad() {
        let registry = BackgroundSessionRegistry()
        let settings = Self.settings("com.example.again", completions: DispatchQueue(label: "test.completions"))
        let folder = URL(fileURLWithPath: "/apps/Library")
        var made = 0
        let first = registry.engine(for: settings, folder: folder) {
            made += 1
            return Self.engine(settings)
        }
        let again = registry.engine(for: settings, folder: folder) {
            made += 1
            return Self.engine(settings)
        }
        #expect(first === again && made == 1, "one session per identifier in a process")
        let elsewhere = registry.engine(for: settings, folder: URL(fileURLWithPath: "/other/Library")) { Self.engine(settings) }
        #expect(elsewhere !== first)
        registry.remove(first)
        let fresh = registry.engine(for: settings, folder: folder) { Self.engine(settings) }
        #expect(fresh !== first, "an invalidated engine is not handed out again")
    }
}
