#!/usr/bin/env python3
"""The Swift SDK as an app gets it (CI runs this after the tests):

1. its manifest names no other package and no unsafe flag (SwiftPM refuses unsafe flags in a package
   depended on by version);
2. its StoreKit code compiles on Linux against a stand-in with StoreKit's shape
   (Tests/Fixtures/swift-sdk-consumer/StoreKit.swift), since Linux has no StoreKit;
3. scripts/publish-swift-sdk.sh publishes it, tagged with the version docs/sending-events.md names;
4. a consumer package written with the docs' lines (the URL pointed at that published clone) resolves
   exactly one package, builds the docs' Swift examples, and links and runs a program that queues an event.

    python3 scripts/check_swift_sdk.py [--keep DIRECTORY]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SDK = os.path.join(ROOT, "sdk", "purchase-sli-swift")
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "swift-sdk-consumer")
DOCS = os.path.join(ROOT, "docs", "sending-events.md")
SWIFT_SETTINGS = '[.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]'


def fail(message):
    print(f"check_swift_sdk: {message}", file=sys.stderr)
    sys.exit(1)


def run(arguments, cwd):
    print("$ " + " ".join(arguments), flush=True)
    result = subprocess.run(arguments, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print(result.stdout)
        fail(f"`{' '.join(arguments)}` in {cwd} exited {result.returncode}")
    return result.stdout


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(text)


def check_manifest():
    with open(os.path.join(SDK, "Package.swift")) as file:
        manifest = file.read()
    for pattern, what in [(r"unsafeFlags", "an unsafe flag"), (r"\.package\(", "a package dependency")]:
        if re.search(pattern, manifest):
            fail(f"sdk/purchase-sli-swift/Package.swift has {what}: apps add the SDK by version with Foundation only")


def check_storekit_code(work):
    """The SDK's sources beside the StoreKit stand-in, in a package where the SDK depends on it."""
    package = os.path.join(work, "storekit-shape")
    shutil.copytree(os.path.join(SDK, "Sources", "PurchaseSLIClient"), os.path.join(package, "Sources", "PurchaseSLIClient"))
    write(os.path.join(package, "Sources", "StoreKit", "StoreKit.swift"), open(os.path.join(FIXTURES, "StoreKit.swift")).read())
    write(os.path.join(package, "Package.swift"), f"""// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "storekit-shape", platforms: [.macOS(.v13)],
    targets: [
        .target(name: "StoreKit"),
        .target(name: "PurchaseSLIClient", dependencies: ["StoreKit"], swiftSettings: {SWIFT_SETTINGS}),
    ])
""")
    output = run(["swift", "build"], package)
    warnings = [line for line in output.splitlines() if "PurchaseSLIClient/" in line and "warning:" in line]
    if warnings:
        fail("the SDK's StoreKit code compiles with warnings:\n" + "\n".join(warnings))


def docs_lines():
    """The two lines docs/sending-events.md shows for Package.swift, and the Swift examples of that page
    and the README that use the SDK."""
    with open(DOCS) as file:
        text = file.read()
    with open(os.path.join(ROOT, "README.md")) as file:
        readme = file.read()
    package = re.search(r'^\.package\(url: "https://github\.com/[^"]+/purchase-sli-swift", from: "(\d+\.\d+\.\d+)"\),$', text, re.M)
    target = re.search(r'^\.target\(name: "(\w+)", dependencies: \[\.product\(name: "PurchaseSLIClient", package: "purchase-sli-swift"\)\]\),$', text, re.M)
    if not package or not target:
        fail("docs/sending-events.md no longer shows the .package(url: …, from: …) and .target(… PurchaseSLIClient …) lines this check builds")
    examples = [block for block in re.findall(r"^```swift\n(.*?)^```", text, re.M | re.S) if "import PurchaseSLIClient" in block]
    if not examples:
        fail("docs/sending-events.md has no Swift example that imports PurchaseSLIClient")
    # The README's excerpt uses the page's `sli` without its imports.
    excerpts = [block for block in re.findall(r"^```swift\n(.*?)^```", readme, re.M | re.S) if "sli." in block]
    if not excerpts:
        fail("README.md no longer shows the SDK's excerpt this check compiles")
    examples += ["import Foundation\nimport PurchaseSLIClient\nimport StoreKit\n" + block for block in excerpts]
    return package, target, examples


def example_source(index, block):
    """A docs example as a file: its imports on top, its statements the body of a function (compile-only)."""
    imports = [line for line in block.splitlines() if line.startswith("import ")]
    body = [line for line in block.splitlines() if not line.startswith("import ")]
    return "\n".join(imports) + f"\n\nfunc docsExample{index}() async throws {{\n" + "\n".join("    " + line for line in body) + "\n}\n"


def check_consumer(work):
    package, target, examples = docs_lines()
    version = package.group(1)
    published = os.path.join(work, "purchase-sli-swift.git")
    run([os.path.join(ROOT, "scripts", "publish-swift-sdk.sh"), version, published], ROOT)

    consumer = os.path.join(work, "consumer")
    package_line = re.sub(r'"https://github\.com/[^"]+"', json.dumps("file://" + published), package.group(0))
    # On Linux the app's module also sees the StoreKit stand-in (the docs' examples import StoreKit).
    target_line = target.group(0).replace(
        "dependencies: [", 'dependencies: [.target(name: "StoreKit", condition: .when(platforms: [.linux])), ', 1)
    write(os.path.join(consumer, "Package.swift"), f"""// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "consumer", platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        {package_line}
    ],
    targets: [
        .target(name: "StoreKit"),
        {target_line}
        .executableTarget(name: "LinkCheck", dependencies: ["{target.group(1)}"]),
    ])
""")
    write(os.path.join(consumer, "Sources", "StoreKit", "StoreKit.swift"), open(os.path.join(FIXTURES, "StoreKit.swift")).read())
    app = os.path.join(consumer, "Sources", target.group(1))
    write(os.path.join(app, "AppContext.swift"), open(os.path.join(FIXTURES, "AppContext.swift")).read())
    for index, block in enumerate(examples, 1):
        write(os.path.join(app, f"DocsExample{index}.swift"), example_source(index, block))
    write(os.path.join(consumer, "Sources", "LinkCheck", "main.swift"), open(os.path.join(FIXTURES, "LinkCheck.swift")).read())

    run(["swift", "package", "resolve"], consumer)
    with open(os.path.join(consumer, "Package.resolved")) as file:
        pins = [pin["identity"] for pin in json.load(file)["pins"]]
    if pins != ["purchase-sli-swift"]:
        fail(f"resolving the SDK brought {len(pins)} packages into the app: {', '.join(pins)}")
    checkouts = sorted(os.listdir(os.path.join(consumer, ".build", "checkouts")))
    if checkouts != ["purchase-sli-swift"]:
        fail(f"the app's checkouts hold {', '.join(checkouts)}")
    # The stand-in first: where it is built, the SDK's `canImport(StoreKit)` finds it (SwiftPM gives every
    # module the one module directory), so the SDK is built with its StoreKit code, as on Apple's systems.
    run(["swift", "build", "--target", "StoreKit"], consumer)
    run(["swift", "build"], consumer)
    output = run([os.path.join(consumer, ".build", "debug", "LinkCheck")], consumer)
    print(output, end="")
    print(f"ok: the SDK {version}, added by URL and version, resolves alone ({pins[0]}), builds {len(examples)} docs examples and links")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", help="work in this directory and keep it (default: a temporary one, removed)")
    arguments = parser.parse_args()
    work = arguments.keep or tempfile.mkdtemp(prefix="purchase-sli-sdk-")
    os.makedirs(work, exist_ok=True)
    try:
        check_manifest()
        check_storekit_code(work)
        check_consumer(work)
    finally:
        if not arguments.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
