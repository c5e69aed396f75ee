// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
        .library(name: "TallyCore", targets: ["TallyCore"]),
        .library(name: "TallyStore", targets: ["TallyStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The rules: values and pure functions, Foundation only, no I/O.
        .target(name: "TallyCore"),
        // Persistence (repository protocols, SQLite) and the application services over it.
        .target(
            name: "TallyStore",
            dependencies: ["TallyCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The command-line tool: argument parsing and rendering, nothing else.
        .executableTarget(
            name: "tally",
            dependencies: [
                "TallyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fills a database with years of realistic data for the benchmarks in bench/.
        .executableTarget(
            name: "tally-bench-fill",
            dependencies: ["TallyStore"],
            path: "bench/Fill"
        ),
        .testTarget(name: "TallyCoreTests", dependencies: ["TallyCore"]),
        .testTarget(name: "TallyStoreTests", dependencies: ["TallyStore"]),
        // Runs the built `tally` binary; reads its database with GRDB only to prove that a refused
        // command changed nothing.
        .testTarget(
            name: "TallyCLITests",
            dependencies: ["tally", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
