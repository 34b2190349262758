// swift-tools-version: 6.1
// The fuzz targets: their own package, so the project's package never links libFuzzer. Built
// and run by `make fuzz` (Fuzz/run.sh) with `-sanitize=fuzzer,address`; see Fuzz/README.md.
import PackageDescription

/// The project's targets whose decoders are fuzzed, as products of the root package.
func project(_ name: String) -> Target.Dependency { .product(name: name, package: "DragDrop") }

/// One libFuzzer executable: `Sources/NAME/main.swift`.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzSupport"] + dependencies, swiftSettings: [.swiftLanguageMode(.v6)])
}

let package = Package(
    name: "DragDropFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "DragDrop", path: ".."),
        // The showcase's model (the Files pane's URI-list reader), in the apps' package.
        .package(name: "DragDropApps", path: "../Apps"),
    ],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver, which each target's main calls.
        .target(name: "CFuzzDriver"),
        // The driver call, the input helpers (big inputs, chunk plans) and the oracle check.
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], swiftSettings: [.swiftLanguageMode(.v6)]),
        fuzzTarget("fuzz-scenario", [project("DragDropTesting"), project("DragDrop")]),
        fuzzTarget("fuzz-mime", [project("DragDrop")]),
        fuzzTarget("fuzz-uri-list", [project("DragDrop"), .product(name: "ShowcaseModel", package: "DragDropApps")]),
        // StyledHTML, the HTML reader of DragDropGTK's text views, compiled from its own file
        // (a link): it needs no GTK, and the fuzz build does not build the GTK backend.
        .target(name: "StyledHTMLUnderTest", dependencies: [project("DragDrop")], swiftSettings: [.swiftLanguageMode(.v6)]),
        fuzzTarget("fuzz-html", ["StyledHTMLUnderTest"]),
        fuzzTarget("fuzz-vcard", [project("DragDrop")]),
        fuzzTarget("fuzz-validation", [project("DragDrop")]),
        fuzzTarget("fuzz-mo", [project("DragDrop")]),
        fuzzTarget("fuzz-plural", [project("DragDrop")]),
    ]
)
