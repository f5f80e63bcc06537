import Foundation
import GLSnapFuzz

// Built by tools/fuzz.sh (-DGLSNAP_FUZZ -sanitize=fuzzer,address): libFuzzer drives the target
// named by GLSNAP_FUZZ_TARGET. A normal build replays files instead, so a kept input can be run
// without libFuzzer: `glsnap-fuzz TARGET FILE...`.
//
// There is no main.swift: SwiftPM links an executable target with `main` aliased to
// `glsnap_fuzz_main`, so the fuzzing build defines that symbol and enters libFuzzer's driver.

#if GLSNAP_FUZZ
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<Int32>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// Read once, before libFuzzer starts calling in.
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selected else { return 0 }
    target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("glsnap_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let name = ProcessInfo.processInfo.environment["GLSNAP_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("glsnap-fuzz: set GLSNAP_FUZZ_TARGET to one of: \(names)\n".utf8))
        return 2
    }
    selected = target
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzTestOneInput)
}
#else
@main
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: glsnap-fuzz \(names) FILE...\n(tools/fuzz.sh builds the libFuzzer version)\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("glsnap-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            target.run([UInt8](data))
            print("\(path): ok")
        }
    }
}
#endif
