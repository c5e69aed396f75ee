import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// What a phone downloads: a page's first load with its style sheet and scripts, gzipped as a
/// browser asks for them, within its budget; the files kept for a year by an address that
/// changes with them, and asked again (ETag) by their plain one.
@Suite("The web app's weight and caching")
struct PageWeightTests {
    /// The bytes of `answer` over the wire: its body as sent and its header fields.
    static func weight(_ answer: Answer) -> Int {
        answer.body.count + answer.headers.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }

    /// The page at `path` and every style sheet and script it links, asked as a browser asks.
    static func firstLoad(_ path: String, _ browser: WebTests.Browser, _ client: TestClientProtocol) async throws -> (bytes: Int, assets: [String]) {
        let page = try await browser.get(path)
        try #require(page.status == .ok, "\(path): \(page.status)")
        let assets = page.text.matches(of: /<(?:link rel="stylesheet" href|script src)="([^"]+)"/).map { String($0.1) }
        var bytes = weight(page)
        for asset in assets {
            let answer = try await client.send(.get, asset, token: nil, headers: [.acceptEncoding: "gzip, deflate, br"])
            #expect(answer.status == .ok && answer.headers[.contentEncoding] == "gzip", "\(asset): \(answer.status)")
            bytes += weight(answer)
        }
        return (bytes, assets)
    }

    @Test("Today's page with 8 drinks loads in at most 60 KB with its files, a ledger's with 8 expenses in 80 KB; each loads only its scripts")
    func firstLoads() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            for volume in stride(from: 150, through: 500, by: 50) {
                _ = try await client.send(.post, "/api/v1/intakes", token: f.adaToken, json: #"{"volumeMl": \#(volume)}"#)
            }
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            for index in 1...8 {
                _ = try await client.addExpense(f.adaToken, "/api/v1/ledgers/\(ledger.id)/expenses",
                                                #"{"amount": "\#(index)2.40", "description": "Groceries \#(index)"}"#)
            }
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")

            let today = try await Self.firstLoad("/", browser, client)
            #expect(today.bytes <= 60 * 1024, "today's page: \(today.bytes) bytes")
            #expect(today.assets.map { $0.prefix { $0 != "?" } } == ["/static/app.css", "/static/app.js"], "\(today.assets)")
            let spending = try await Self.firstLoad("/spending/\(ledger.id)", browser, client)
            #expect(spending.bytes <= 80 * 1024, "a ledger's page: \(spending.bytes) bytes")
            #expect(spending.assets.map { $0.prefix { $0 != "?" } } == ["/static/app.css", "/static/app.js", "/static/spending.js"])
            print("First load, gzipped files: today's page \(today.bytes) bytes, a ledger's \(spending.bytes) bytes")
        }
    }

    @Test("A file's versioned address is kept a year; its plain address is asked again and answers 304 to its ETag; gzip only when taken")
    func caching() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let link = StaticAssets.link("app.js")
            #expect(link.wholeMatch(of: /\/static\/app\.js\?v=[0-9a-f]{12}/) != nil, "\(link)")
            let kept = try await client.send(.get, link, token: nil, headers: [.acceptEncoding: "gzip"])
            #expect(kept.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(kept.headers[.contentEncoding] == "gzip" && kept.headers[.vary] == "Accept-Encoding")
            #expect(kept.headers[.contentType] == "text/javascript; charset=utf-8")

            let plain = try await client.send(.get, "/static/app.js", token: nil)
            #expect(plain.status == .ok && plain.headers[.contentEncoding] == nil && plain.headers[.cacheControl] == "no-cache")
            #expect(String(decoding: plain.body, as: UTF8.self).contains("\"use strict\""))
            #expect(kept.body.count * 2 < plain.body.count, "gzipped \(kept.body.count) of \(plain.body.count) bytes")
            let etag = try #require(plain.headers[.eTag])
            #expect(try await client.send(.get, "/static/app.js", token: nil, headers: [.ifNoneMatch: etag]).status == .notModified)
            // An old version's address is not kept: the file it names has changed.
            #expect(try await client.send(.get, "/static/app.js?v=000000000000", token: nil).headers[.cacheControl] == "no-cache")
            #expect(try await client.send(.get, "/static/app.js", token: nil, headers: [.acceptEncoding: "gzip;q=0"]).headers[.contentEncoding] == nil)
            #expect(try await client.send(.get, "/static/nothing.js", token: nil).status == .notFound)
            // A PNG is compressed already: it goes as it is.
            #expect(try await client.send(.get, StaticAssets.link("icon-192.png"), token: nil, headers: [.acceptEncoding: "gzip"]).headers[.contentEncoding] == nil)

            // The service worker keeps the files by the addresses pages link them by, in a cache of their version.
            let worker = String(decoding: try await client.send(.get, "/sw.js", token: nil).body, as: UTF8.self)
            #expect(worker.contains("\"\(StaticAssets.link("app.css"))\"") && worker.contains("\"\(link)\""))
            #expect(worker.contains("\"tally-shell-\(StaticAssets.version)\"") && !worker.contains("\"/static/app.js\""))
        }
    }

    @Test("A file's version is a digest of its content")
    func versions() {
        let one = StaticAsset(name: "a.js", bytes: Array("let a = 1;".utf8))
        #expect(one.version == StaticAsset(name: "b.js", bytes: Array("let a = 1;".utf8)).version)
        #expect(one.version != StaticAsset(name: "a.js", bytes: Array("let a = 2;".utf8)).version)
        #expect(StaticAsset.acceptsGzip("br, gzip;q=0.8") && StaticAsset.acceptsGzip("*") && !StaticAsset.acceptsGzip("gzip;q=0")
                && !StaticAsset.acceptsGzip("br") && !StaticAsset.acceptsGzip(nil))
    }
}
