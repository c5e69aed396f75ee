// swift-tools-version:6.0
import PackageDescription

// --static-swift-stdlib exports every Swift symbol (58,000) for dlsym, which the executables do not
// use; the runtime's start-up scans them (dladdr), about 0.5 ms of every command.
let leanLinking: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release)),
]
// `tally` is linked at a fixed address: the loader then has none of the 100,000 relocations of a
// position-independent executable to apply, nor the pages they write to copy, about 2 ms of every
// command. It takes no input from a network (`tally-server` does, and stays position-independent
// for the address randomisation of its code).
let fixedAddress: [LinkerSetting] = [
    .unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
        .executable(name: "tally-server", targets: ["tally-server"]),
        .library(name: "TallyCore", targets: ["TallyCore"]),
        .library(name: "TallyStore", targets: ["TallyStore"]),
        .library(name: "TallyServices", targets: ["TallyServices"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        // The rules: values and pure functions, no I/O: Foundation, and the system's Unicode
        // library for look-alike names.
        .target(name: "TallyCore", dependencies: ["CUnicodeSecurity"]),
        // UTS #39's confusable skeleton from ICU's spoof checker (Debian's libicu-dev to build,
        // libicu at run time, opened on first use).
        .target(name: "CUnicodeSecurity"),
        // Receipt photos decoded, cleaned of their metadata and written again by libvips (Debian's
        // libvips-dev to build, libvips42 at run time, opened on first use). Its headers include
        // GLib's, whose configuration lives under the architecture's library folder.
        .target(
            name: "CReceiptImages",
            cSettings: [.unsafeFlags(["-I/usr/include/glib-2.0", "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include",
                                      "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include"])]
        ),
        // QR codes of invite links, drawn by the server (Debian's libqrencode-dev to build,
        // libqrencode4 at run time).
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Tally's languages: the catalogs of its phrases, CLDR plural rules from the ICU that
        // Foundation formats with (its toolchain's `_FoundationICU`), and `Written`, the one place
        // where phrases, numbers and dates become text in the reader's language and locale.
        .target(
            name: "TallyLanguages",
            dependencies: ["TallyCore"],
            resources: [.copy("Catalogs")],
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        // The API's wire format, for the server and its clients: each route with its method, path,
        // body and answer; the JSON coders; problems; Foundation and TallyCore only.
        .target(name: "TallyAPI", dependencies: ["TallyCore"]),
        // What a store is: the repository protocols every store implements, with the values,
        // refusals and cross-row rules they share; no database, no wire format.
        .target(
            name: "TallyRepositories",
            // Crypto: name-based UUIDs (an entry's id from a client's id and its ledger), and
            // ledger invite codes kept as SHA-256 hashes.
            dependencies: ["TallyCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The embedded store: SQLite through GRDB, the default.
        .target(
            name: "TallyStore",
            dependencies: ["TallyCore", "TallyRepositories", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The same store on a PostgreSQL server, for several instances on one database.
        .target(
            name: "TallyPostgres",
            dependencies: [
                "TallyCore", "TallyRepositories",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The application services (hydration, spending): the rules that span a request, over any
        // store; they take the API's bodies, one input shape per command.
        .target(
            name: "TallyServices",
            dependencies: ["TallyCore", "TallyAPI", "TallyRepositories", "CReceiptImages"]
        ),
        // The HTTP server: the JSON API, the web app, accounts and sessions.
        .target(
            name: "TallyServer",
            dependencies: [
                "TallyAPI",
                "TallyCore",
                "TallyLanguages",
                "TallyRepositories",
                "TallyServices",
                "TallyImport",
                "CQRencode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                // Posts push messages to the address that was checked, with no redirects; asks
                // the OpenID provider for its configuration, keys and tokens.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Checks the OpenID provider's ID tokens against its published keys (RS256, ES256).
                .product(name: "JWTKit", package: "jwt-kit"),
                // Gzips the web app's scripts and style sheet once, at start (the system's zlib).
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            resources: [.copy("Resources")]
        ),
        // Reading other apps' exports and writing Tally's (IHateMoney, Apple Health, CSV, JSON).
        .target(
            name: "TallyImport",
            dependencies: [
                "TallyAPI",
                "TallyCore",
                "TallyRepositories",
                "TallyServices",
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The command line's commands, its local backends and its text: argument parsing and
        // rendering over the services, nothing else. Whatever needs a network or PostgreSQL is
        // reached through `Reach`, which only `tally-server` fills in.
        .target(
            name: "TallyCommands",
            dependencies: [
                "TallyAPI",
                "TallyCore",
                "TallyImport",
                "TallyLanguages",
                "TallyRepositories",
                "TallyServices",
                "TallyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `tally`: a person's own tallies on the local SQLite file, without the server, NIO or
        // PostgreSQL, whose libraries would cost every command's start; it hands everything else
        // to `tally-server`, installed beside it.
        .executableTarget(
            name: "tally",
            dependencies: ["TallyCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: leanLinking + fixedAddress
        ),
        // `tally-server`: every command, `tally serve` and the accounts, PostgreSQL and the
        // commands against a server's API among them.
        .executableTarget(
            name: "tally-server",
            dependencies: [
                "TallyAPI",
                "TallyCommands",
                "TallyCore",
                "TallyImport",
                "TallyLanguages",
                "TallyPostgres",
                "TallyRepositories",
                "TallyServer",
                "TallyServices",
                "TallyStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The remote client: NIO's, so that the command needs no libcurl (FoundationNetworking),
                // whose thirty shared libraries cost every start of the process about 2 ms.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            linkerSettings: leanLinking
        ),
        // Fills a database with years of realistic data for the benchmarks in bench/.
        .executableTarget(
            name: "tally-bench-fill",
            dependencies: ["TallyCore", "TallyRepositories", "TallyServices", "TallyStore"],
            path: "bench/Fill"
        ),
        // Times the exact settle-up plan for 20 balances (bench/spending.sh).
        .executableTarget(
            name: "tally-bench-settle",
            dependencies: ["TallyCore"],
            path: "bench/Settle"
        ),
        .testTarget(
            name: "TallyCoreTests",
            dependencies: ["TallyCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "TallyAPITests", dependencies: ["TallyAPI", "TallyCore"]),
        .testTarget(name: "TallyLanguagesTests", dependencies: ["TallyCore", "TallyLanguages"]),
        // Fixtures/: a database made by an older Tally, for the migrations (see its README).
        .testTarget(
            name: "TallyStoreTests",
            dependencies: [
                "TallyAPI", "TallyCore", "TallyRepositories", "TallyServices", "TallyStore", "TallyPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // Reads the real IHateMoney exports in Fixtures/ (made by scripts/ihatemoney-fixtures).
        .testTarget(
            name: "TallyImportTests",
            dependencies: [
                "TallyAPI", "TallyCore", "TallyImport", "TallyRepositories", "TallyServices", "TallyStore",
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TallyServerTests",
            dependencies: [
                "TallyAPI", "TallyCore", "TallyLanguages", "TallyRepositories", "TallyServer", "TallyServices", "TallyStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // Receipts/: photos with EXIF (a GPS position, a camera) in each format taken.
            resources: [.copy("Fixtures")]
        ),
        // Runs the built `tally` binary (and through it `tally-server`); reads its database with
        // GRDB only to prove that a refused command changed nothing.
        .testTarget(
            name: "TallyCLITests",
            dependencies: ["tally", "tally-server", "TallyAPI", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
    ]
)
