import ArgumentParser
import Foundation
import Testing
@testable import tally_server

// What keeps `tally` quick to start (bench/hydration.sh measures it): each of these, undone,
// costs every command a few milliseconds without changing any output.
@Suite("start-up")
struct StartUpTests {
    @Test("every command names itself: argument-parser would otherwise find the name through String(describing:), a scan of the binary's conformances at every start")
    func everyCommandIsNamed() {
        var unnamed: [String] = []
        func visit(_ command: any ParsableCommand.Type) {
            if command.configuration.commandName == nil { unnamed.append(String(reflecting: command)) }
            command.configuration.subcommands.forEach(visit)
        }
        // tally-server's commands: tally's, and those it hands over.
        visit(Tally.self)
        #expect(unnamed.isEmpty, "give these a commandName: \(unnamed)")
    }

    #if os(Linux)
    @Test("the command needs no libcurl (FoundationNetworking): its thirty shared libraries would cost every start about 2 ms")
    func noCurl() throws {
        let binary = try CLI.binary.get()
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [binary.path]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let libraries = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(libraries.contains("libc.so"), "ldd gave: \(libraries)")
        #expect(!libraries.contains("libcurl"), "ldd gave: \(libraries)")
    }
    #endif
}
