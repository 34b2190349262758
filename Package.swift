// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DragDrop",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DragDrop", targets: ["DragDrop"]),
        .library(name: "DragDropTesting", targets: ["DragDropTesting"]),
        .library(name: "DragDropGTK", targets: ["DragDropGTK"]),
        .library(name: "ShowcaseModel", targets: ["ShowcaseModel"]),
        .executable(name: "dragdrop", targets: ["dragdrop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "DragDrop",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "DragDropTesting",
            dependencies: ["DragDrop"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .systemLibrary(
            name: "CGtk4",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // GObject subclassing and X11 event reading for DragDropGTK (C: Swift cannot subclass
        // GObject types); calls back into Swift through function pointers.
        .target(
            name: "CDragDropGTKSupport",
            dependencies: ["CGtk4"],
            linkerSettings: [.linkedLibrary("X11")]
        ),
        .target(
            name: "DragDropGTK",
            dependencies: ["DragDrop", "CGtk4", "CDragDropGTKSupport"],
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
        .executableTarget(
            name: "dragdrop",
            dependencies: [
                "DragDrop", "DragDropTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // renameat2(RENAME_NOREPLACE) for the Files pane: atomic moves that never replace.
        .target(name: "CShowcaseFS"),
        .target(
            name: "ShowcaseModel",
            dependencies: ["DragDrop", "CShowcaseFS", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Runs one store operation and stops inside (or right after) its transaction so the
        // crash tests can kill it there; see Tests/ShowcaseModelTests/CrashTests.swift.
        .executableTarget(
            name: "showcase-store-crash-helper",
            dependencies: ["ShowcaseModel"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The showcase app: one window, a sidebar of the twelve example situations, each a pane
        // built on DragDropGTK and ShowcaseModel. `--tour` prints its state as JSON lines.
        .executableTarget(
            name: "showcase",
            dependencies: ["DragDropGTK", "ShowcaseModel", "DriverProtocol", "CGtk4"],
            path: "Sources/Showcase",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A hostile app for the tests: a GTK window offering any bytes under any type, answered
        // at once, never, a byte at a time, or dying mid-transfer (Tests/ShowcaseTests/HostileAppTests).
        .executableTarget(
            name: "dragdrop-hostile-source",
            dependencies: ["DragDropGTK", "CDragDropGTKSupport", "CGtk4"],
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
        // `make tour`: plays each situation in the showcase with real pointer events, takes
        // screenshots, and checks the app's state.
        .executableTarget(
            name: "showcase-tour",
            dependencies: ["WindowDriver", "DriverProtocol", "ShowcaseModel"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ShowcaseTests",
            dependencies: ["WindowDriver", "DriverProtocol", "ShowcaseModel"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ShowcaseModelTests",
            dependencies: ["ShowcaseModel", "DragDrop", "DragDropTesting"],
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
            dependencies: ["DragDropGTK", "WindowDriver", "DriverProtocol"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
