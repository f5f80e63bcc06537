import Foundation
import GLSnap

/// glsnap's command line: parses arguments, calls the library, maps errors to exit codes
/// (0 ok, 1 render or input failure, 2 usage error).
let usage = """
usage: glsnap <command> [options]

commands:
  render     render a map to a PNG (with no --style: the bundled example map)
  query      print the features drawn at a point or in a box (GeoJSON)
  bench      measure rendering throughput over a list of cameras
  validate   check a style against the style specification
  serve      serve static maps and raster tiles over HTTP (tileserver-gl's endpoints)
  tiles      render a raster tile pyramid to MBTiles, PMTiles or a folder (and merge shards)
  help       show this text (or `glsnap <command> --help`)
"""

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("glsnap: \(message)\n".utf8))
    exit(code)
}

tuneAllocatorForSnapshots()
var args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else {
    print(usage)
    exit(2)
}
args.removeFirst()
do {
    switch command {
    case "render":
        exit(try RenderCommand.run(args))
    case "query":
        exit(try QueryCommand.run(args))
    case "bench":
        exit(try BenchCommand.run(args))
    case "validate":
        exit(try ValidateCommand.run(args))
    case "serve":
        exit(try ServeCommand.run(args))
    case "tiles":
        exit(try TilesCommand.run(args))
    case "help", "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("unknown command '\(command)'\n\(usage)", code: 2)
    }
} catch let e as UsageError {
    fail("\(e) (see glsnap \(command) --help)", code: 2)
} catch let e as GLSnapError {
    // Options out of range (a size, a zoom, a pitch from the command line) are usage errors.
    if e.isInvalidOptions { fail("\(e) (see glsnap \(command) --help)", code: 2) }
    fail("\(e)", code: 1)
} catch {
    fail("\(error)", code: 1)
}
