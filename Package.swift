// swift-tools-version: 6.1
// DragDrop's libraries (DragDrop, DragDropTesting, DragDropGTK), their tests, the GTK test
// fixture and the first app of the guide. No package dependencies, so an app that depends on
// this package resolves nothing else. The showcase, its model (GRDB), the tour and the
// `dragdrop` tool (swift-argument-parser) are in Apps/, a package depending on this one by path.
import PackageDescription

let package = Package(
    name: "DragDrop",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DragDrop", targets: ["DragDrop"]),
        .library(name: "DragDropTesting", targets: ["DragDropTesting"]),
        .library(name: "DragDropGTK", targets: ["DragDropGTK"]),
        // The window driver of the GTK tests and the lines apps print for it, for the apps'
        // package (Apps/: the showcase, its tests and tour); not meant for apps.
        .library(name: "DriverProtocol", targets: ["DriverProtocol"]),
        .library(name: "WindowDriver", targets: ["WindowDriver"]),
        // Compiles an app's own gettext catalogs (`po/<lang>.po` in a target) to `.mo`
        // resources at build time, as it does the engine's: an app adds its languages this way.
        .plugin(name: "CompileMessageCatalogs", targets: ["CompileMessageCatalogs"]),
    ],
    targets: [
        // The engine. Its message catalogs (Localization/po/*.po, gettext's format) are compiled
        // to .mo resources at build time by CompileMessageCatalogs with dragdrop-msgfmt, so
        // building needs no GNU gettext.
        .target(
            name: "DragDrop",
            exclude: ["Localization/po/dragdrop.pot"],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: ["CompileMessageCatalogs"]
        ),
        // Compiles a gettext .po file to .mo (the build-time half of msgfmt), for the plugin.
        .executableTarget(
            name: "dragdrop-msgfmt",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .plugin(
            name: "CompileMessageCatalogs",
            capability: .buildTool(),
            dependencies: ["dragdrop-msgfmt"]
        ),
        .target(
            name: "DragDropTesting",
            dependencies: ["DragDrop"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // GTK 4 through pkg-config. SwiftPM keeps only -I/-L/-l from gtk4.pc and its requirements
        // and warns "prohibited flag(s): -pthread … -mfpmath=sse, -msse, -msse2" on every build:
        // those flags (GLib's, graphene's) are no-ops for Swift on x86-64; see README.md,
        // "Depending on DragDrop".
        .systemLibrary(
            name: "CGtk4",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // ICU (libicu-dev) for word selection in text (L4: Japanese words from ICU's dictionary),
        // called from CDragDropGTKSupport's C: its module declares nothing, since Foundation's own
        // ICU headers clash with the system's in Swift.
        .systemLibrary(
            name: "CICU",
            pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"])]
        ),
        // GObject subclassing, X11 event reading and ICU's word breaks for DragDropGTK (C: Swift
        // cannot subclass GObject types); calls back into Swift through function pointers.
        .target(
            name: "CDragDropGTKSupport",
            dependencies: ["CGtk4", "CICU"],
            linkerSettings: [.linkedLibrary("X11")]
        ),
        .target(
            name: "DragDropGTK",
            dependencies: ["DragDrop", "CGtk4", "CDragDropGTKSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The app of the DocC guide "Your first app" (Examples/FirstApp, a standalone package a
        // user can copy), built here as well so `make test` drives it (FirstAppTests) without
        // compiling the library a second time.
        .executableTarget(
            name: "FirstApp",
            dependencies: ["DragDropGTK", "CGtk4"],
            path: "Examples/FirstApp/Sources/FirstApp",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "dragdrop-gtk-probe",
            dependencies: ["DragDropGTK", "CGtk4"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "dragdrop-gtk-fixture",
            dependencies: ["DragDropGTK", "DriverProtocol", "CGtk4"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The lines an app prints for its driver (ready, state, layout, the engine's feedback...):
        // one Codable type a kind, written by the apps (showcase, GTK fixture) with its one line
        // writer and read back by the driver, the tour and the tests.
        .target(
            name: "DriverProtocol",
            dependencies: ["DragDrop"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Drives a GUI window on a private display from outside: Xvfb (or weston), xdotool
        // pointer and keys, screenshots, the app's lines (DriverProtocol). Used by the tour, the
        // showcase tests and the GTK tests.
        .target(
            name: "WindowDriver",
            dependencies: ["DriverProtocol"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "DragDropTests",
            dependencies: ["DragDrop", "DragDropTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Real GTK windows under a private Xvfb, driven with xdotool through WindowDriver; runs
        // the fixture built from `dragdrop-gtk-fixture` (every `swift build` / `swift test` builds it).
        .testTarget(
            name: "DragDropGTKTests",
            dependencies: ["DragDropGTK", "DragDropTesting", "WindowDriver", "DriverProtocol"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
