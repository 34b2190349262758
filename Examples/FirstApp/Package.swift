// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FirstApp",
    dependencies: [
        .package(name: "DragDrop", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "FirstApp",
            dependencies: [.product(name: "DragDropGTK", package: "DragDrop")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
