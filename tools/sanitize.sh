#!/usr/bin/env bash
# Builds the unit tests with a sanitizer in a scratch path of their own and runs them.
# usage: tools/sanitize.sh address|thread [swift test arguments, e.g. --filter GLSnapStyleTests]
#   address: AddressSanitizer, in .build-asan
#   thread:  ThreadSanitizer, in .build-tsan
# A report fails the run (the sanitizer exits the process, the test or a CLI it starts, non-zero).
# Races inside third-party code (Mesa, LLVM...) are suppressed by name in tools/tsan.supp; the
# project's own frames are never suppressed.
# Leak checking is off (detect_leaks=0): at exit LeakSanitizer reports XCTest's own test objects
# (and all they hold), and Swift objects referenced only from multi-payload enums, whose case tag
# Swift packs into the pointer's spare bits so LSan does not see the pointer (false reports in
# e.g. LegacyFilter and LineBucket arrays). Leaks per input are checked by tools/fuzz.sh instead.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) echo "usage: tools/sanitize.sh address|thread [swift test arguments]" >&2; exit 2 ;;
esac
kind=$1
shift
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" 2>&1 | grep -v "Cannot export local symbol" \
    | grep -vE "^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Wrapping|Write|Linking)" || true
[ -f "$scratch/debug/glsnapPackageTests.xctest" ] || { echo "sanitize.sh: the $kind build failed" >&2; exit 1; }
# Swift's crash backtracer would hold a crashing test process; the sanitizer prints the stack.
export SWIFT_BACKTRACE=enable=no
# Under ASan, one copy of Mesa: a copy loaded with dlmopen has a C library of its own, whose
# malloc ASan does not intercept; memory passed between the namespaces aborts the process
# ("munmap_chunk(): invalid pointer"). The test of separate copies skips. TSan runs them.
if [ "$kind" = address ]; then export GLSNAP_MESA_COPIES="${GLSNAP_MESA_COPIES:-1}"; fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-suppressions=$PWD/tools/tsan.supp:halt_on_error=0:exitcode=66:report_signal_unsafe=0}"
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" --disable-swift-testing "$@"
