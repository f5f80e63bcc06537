// swift-tools-version:5.9
// glsnap: a headless, GPU-less MapLibre GL style renderer. Depends on nothing but the toolchain;
// C libraries come from Debian -dev packages (see tools/install-deps.sh) through system-library targets.
import PackageDescription

let package = Package(
    name: "glsnap",
    products: [
        .library(name: "GLSnap", targets: ["GLSnap"]),
        .executable(name: "glsnap", targets: ["glsnap"]),
        .executable(name: "glsnap-conformance", targets: ["glsnap-conformance"]),
        // The C ABI (include/glsnap.h), libGLSnapC.so, installed as libglsnap.so by tools/install-c.sh, python/ loads it.
        .library(name: "GLSnapC", type: .dynamic, targets: ["GLSnapC"]),
    ],
    targets: [
        // Thin C interop targets: module maps over Debian headers, no logic.
        .systemLibrary(name: "CMesa", path: "Sources/CMesa"),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng"),
        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        .systemLibrary(name: "CISAL", path: "Sources/CISAL"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
        .systemLibrary(name: "CRsvg", path: "Sources/CRsvg", pkgConfig: "librsvg-2.0"),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libturbojpeg"),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebp"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2"),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi"),

        .target(name: "GLSnapStyle"),
        .target(name: "GLSnapData", dependencies: ["GLSnapStyle", "CZlib", "CSQLite", "CCurl"]),
        .target(name: "GLSnapLayout", dependencies: ["GLSnapData", "GLSnapStyle", "CFriBidi"]),
        .target(name: "GLSnapImage", dependencies: ["CPNG", "CISAL", "CRsvg", "CJPEG", "CWebP", "CFreeType", "CFontconfig"]),
        .target(name: "GLSnapGL", dependencies: ["CMesa"]),
        .target(name: "GLSnapRender", dependencies: ["GLSnapGL", "GLSnapLayout", "GLSnapImage"]),
        .target(name: "GLSnap", dependencies: ["GLSnapRender", "GLSnapLayout", "GLSnapData", "GLSnapStyle", "GLSnapImage", "CSystem"]),
        .target(name: "GLSnapServer", dependencies: ["GLSnap", "GLSnapGL", "GLSnapImage", "GLSnapStyle", "GLSnapData", "CMicroHTTPD"]),
        .target(name: "GLSnapC", dependencies: ["GLSnap", "GLSnapData", "GLSnapGL", "GLSnapImage", "GLSnapLayout", "GLSnapStyle"]),
        // The command-line reader both executables use (one set of words for usage mistakes).
        .target(name: "GLSnapCommandLine", dependencies: ["GLSnap"]),
        .executableTarget(name: "glsnap", dependencies: ["GLSnap", "GLSnapData", "GLSnapGL", "GLSnapImage", "GLSnapStyle", "GLSnapServer", "GLSnapCommandLine"]),
        // The conformance runner's suites and case logic, shared by glsnap-conformance and the tests.
        .target(name: "GLSnapConformance", dependencies: ["GLSnap", "GLSnapData", "GLSnapGL", "GLSnapImage", "GLSnapStyle", "GLSnapCommandLine"]),
        .executableTarget(name: "glsnap-conformance", dependencies: ["GLSnapConformance", "GLSnap", "GLSnapGL", "GLSnapImage", "GLSnapStyle", "GLSnapCommandLine"]),

        .testTarget(name: "GLSnapStyleTests", dependencies: ["GLSnapStyle", "GLSnapTestSupport"]),
        .testTarget(name: "GLSnapDataTests", dependencies: ["GLSnapData", "GLSnapTestSupport"]),
        .testTarget(name: "GLSnapLayoutTests", dependencies: ["GLSnapLayout"]),
        .testTarget(name: "GLSnapImageTests", dependencies: ["GLSnapImage", "GLSnapTestSupport"]),
        .testTarget(name: "GLSnapGLTests", dependencies: ["GLSnapGL", "GLSnapTestSupport"]),
        .testTarget(name: "GLSnapRenderTests", dependencies: ["GLSnapRender", "GLSnapGL"]),
        // What the test targets share: where ../shared is (SharedFolder), whether EGL exists (EGLProbe), a loopback HTTP server.
        .target(name: "GLSnapTestSupport", path: "Tests/Support"),
        // References/<case>/{style.json,expected.png}: the project's own render references (ReferenceRenderTests).
        .testTarget(name: "GLSnapTests", dependencies: ["GLSnap", "GLSnapConformance", "GLSnapData", "GLSnapGL", "GLSnapImage", "GLSnapTestSupport"],
                    exclude: ["References"]),
        .testTarget(name: "GLSnapCTests", dependencies: ["GLSnapC", "GLSnapStyle"]),
        .testTarget(name: "GLSnapCommandLineTests", dependencies: ["GLSnapCommandLine"]),
        .testTarget(name: "GLSnapServerTests", dependencies: ["GLSnapServer", "GLSnap", "GLSnapImage", "GLSnapTestSupport"]),
    ]
)

// Fuzzing (tools/fuzz.sh). The entry points are a library so that XCTest replays kept crash
// inputs through the same code; glsnap-fuzz only links libFuzzer when tools/fuzz.sh builds it with
// -DGLSNAP_FUZZ -sanitize=fuzzer in its own scratch path. In a normal build it replays files.
package.targets += [
    .target(name: "GLSnapFuzz", dependencies: ["GLSnapData", "GLSnapStyle", "GLSnapImage", "GLSnapServer"]),
    .executableTarget(name: "glsnap-fuzz", dependencies: ["GLSnapFuzz"]),
    .testTarget(name: "GLSnapFuzzTests", dependencies: ["GLSnapFuzz"]),
]
