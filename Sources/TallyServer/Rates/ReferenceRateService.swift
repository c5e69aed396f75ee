import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TallyCore
import TallyRepositories

/// Keeps the day's reference rates from the configured source (TALLY_RATES_URL, in the ECB's
/// `eurofxref-daily.xml` format), inside `tally serve`: at start, then every `interval`. No
/// source, no fetch. A failed fetch is logged and the rates kept before stay.
struct ReferenceRateService: Service {
    let store: any TallyStorage
    let source: URL
    var interval: Duration = .seconds(6 * 3600)
    var logger = Logger(label: "tally.rates")

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await fetch()
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Takes the rates once; true when they were kept.
    @discardableResult
    func fetch() async -> Bool {
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                                configuration: HTTPClient.Configuration(redirectConfiguration: .follow(max: 3, allowCycles: false),
                                                                        timeout: .init(connect: .seconds(10), read: .seconds(20))))
        let kept = await take(with: client)
        try? await client.shutdown()
        return kept
    }

    private func take(with client: HTTPClient) async -> Bool {
        do {
            let response = try await client.execute(HTTPClientRequest(url: source.absoluteString), timeout: .seconds(30))
            guard response.status == .ok else {
                logger.warning("The rates source answered \(response.status.code); the rates kept before stay.")
                return false
            }
            let body = try await response.body.collect(upTo: ECBRates.maximumBytes)
            let rates = try ECBRates.parse(Data(body.readableBytesView))
            try await store.keepReferenceRates(rates)
            logger.info("Took \(rates.perEuro.count) reference rates of \(rates.date).")
            return true
        } catch {
            logger.warning("Could not take the reference rates: \(error); the rates kept before stay.")
            return false
        }
    }
}
