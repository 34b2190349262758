// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DragDrop",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DragDrop", targets: ["DragDrop"]),
        .library(name: "DragDropTesting", targets: ["DragDropTesting"]),
        .library(name: "DragDropGTK", targets: ["DragDropGTK"]),
        .executable(name: "dragdrop", targets: ["dragdrop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .target(
            name: "DragDropGTK",
            dependencies: ["DragDrop", "CGtk4"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "dragdrop-gtk-probe",
            dependencies: ["DragDropGTK", "CGtk4"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "dragdrop-gtk-fixture",
            dependencies: ["DragDropGTK", "DragDropTesting", "CGtk4"],
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
        .testTarget(
            name: "DragDropTests",
            dependencies: ["DragDrop", "DragDropTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Real GTK windows under a private Xvfb, driven with xdotool; runs the fixture built
        // from `dragdrop-gtk-fixture` (every `swift build` / `swift test` builds it).
        .testTarget(
            name: "DragDropGTKTests",
            dependencies: ["DragDropGTK"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
