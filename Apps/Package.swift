// swift-tools-version: 6.1
// The apps built on DragDrop: the showcase (and its GRDB model), its tour, the `dragdrop` tool,
// and their tests. Its own package, depending on the libraries' package (..) by path, so that an
// app depending on DragDrop never resolves GRDB or swift-argument-parser. `make run`, `make
// tour`, `make test` and `make soak` build it.
import PackageDescription

/// A product of the libraries' package (the repository's root).
func root(_ name: String) -> Target.Dependency { .product(name: name, package: "DragDrop") }

let package = Package(
    name: "DragDropApps",
    platforms: [.macOS(.v15)],
    products: [
        // For Fuzz/ (fuzz-uri-list), which fuzzes the Files pane's URI-list reading.
        .library(name: "ShowcaseModel", targets: ["ShowcaseModel"]),
        .executable(name: "showcase", targets: ["showcase"]),
        .executable(name: "dragdrop", targets: ["dragdrop"]),
    ],
    dependencies: [
        // `name:` so that `package: "DragDrop"` works whatever the clone's folder is called.
        .package(name: "DragDrop", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The command-line tool: replay and audit scenarios, the random tester (`make soak`).
        .executableTarget(
            name: "dragdrop",
            dependencies: [
                root("DragDrop"), root("DragDropTesting"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // renameat2(RENAME_NOREPLACE) for the Files pane: atomic moves that never replace.
        .target(name: "CShowcaseFS"),
        .target(
            name: "ShowcaseModel",
            dependencies: [root("DragDrop"), "CShowcaseFS", .product(name: "GRDB", package: "GRDB.swift")],
            // The showcase's own words (Words/po/*.po), compiled to .mo resources like the engine's.
            exclude: ["Words/po/showcase.pot"],
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "CompileMessageCatalogs", package: "DragDrop")]
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
        // (GTK's C modules, CGtk4 and CDragDropGTKSupport, come with DragDropGTK.)
        .executableTarget(
            name: "showcase",
            dependencies: [root("DragDropGTK"), "ShowcaseModel", root("DriverProtocol")],
            path: "Sources/Showcase",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A hostile app for the tests: a GTK window offering any bytes under any type, answered
        // at once, never, a byte at a time, or dying mid-transfer (Tests/ShowcaseTests/HostileAppTests).
        .executableTarget(
            name: "dragdrop-hostile-source",
            dependencies: [root("DragDropGTK")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `make tour`: plays each situation in the showcase with real pointer events, takes
        // screenshots, and checks the app's state.
        .executableTarget(
            name: "showcase-tour",
            dependencies: [root("WindowDriver"), root("DriverProtocol"), root("DragDrop"), "ShowcaseModel"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ShowcaseTests",
            dependencies: [root("WindowDriver"), root("DriverProtocol"), root("DragDrop"), "ShowcaseModel"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "ShowcaseModelTests",
            dependencies: ["ShowcaseModel", root("DragDrop"), root("DragDropTesting")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The `dragdrop` tool run as a person runs it: replay, audit, rules, exit codes.
        .testTarget(
            name: "DragDropCLITests",
            dependencies: [root("DragDropTesting")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
