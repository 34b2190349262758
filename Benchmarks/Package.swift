// swift-tools-version: 6.1
// The benchmark suite: its own package, so the engine's package never depends on benchmark
// tooling. Run with `make bench` from the repository root (release build, one table).
import PackageDescription

let package = Package(
    name: "DragDropBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "DragDrop", path: ".."),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
    ],
    targets: [
        // Scenes shared by the engine benchmarks and the GTK tool, so both measure the same
        // rectangles and the same pointer positions.
        .target(
            name: "BenchGeometry",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The harness: timing with the clock's own cost subtracted, percentiles from an
        // HdrHistogram, allocations counted by the preloaded malloc interposer.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // GTK 4 for the `gtk_widget_pick` baseline. Named apart from the root package's CGtk4.
        .systemLibrary(
            name: "CGtk4Bench",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .executableTarget(
            name: "gtk-pick-bench",
            dependencies: ["CGtk4Bench", "BenchGeometry", "BenchmarkSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // End-to-end figures for big lists (issue 12): DragCollectionView beside plain
        // GtkListView and GtkListBox, one measurement per process.
        // Input-to-screen latency of a drag image on X11, timed from outside the toolkit (XTest
        // in, the X server's ConfigureNotify of the image's window out).
        .target(
            name: "CDragLatency",
            linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("dl")]
        ),
        .executableTarget(
            name: "gtk-list-bench",
            dependencies: ["CDragLatency", .product(name: "DragDropGTK", package: "DragDrop")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "dragdrop-bench",
            dependencies: [
                "BenchGeometry", "BenchmarkSupport",
                .product(name: "DragDrop", package: "DragDrop"),
                .product(name: "DragDropTesting", package: "DragDrop"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
