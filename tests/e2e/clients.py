"""Generating API clients from openapi.yaml the way the API's users do, once per run.

Python clients come from the generators' PyPI packages (openapi-python-client, and
openapi-generator-cli, which runs openapi-generator's jar on the machine's Java); the
TypeScript tools come from the npm registry, pinned by tests/e2e/node/package-lock.json
and installed into .cache/ by `npm ci`. A missing Java or Node fails the test with a
message saying so: these machines have both.
"""

import hashlib
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
NODE_PROJECT = Path(__file__).resolve().parent / "node"
NODE_CACHE = ROOT / ".cache" / "node-clients"
BIN = Path(sys.executable).parent


def need(program):
    """The path of `program`, or a failure that names what is missing."""
    path = shutil.which(program)
    assert path, f"{program} is not installed: the generated-client tests need it"
    return path


def run(command, cwd=None, timeout=300):
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
        env={"PATH": f"{BIN}:/usr/local/bin:/usr/bin:/bin", "HOME": str(Path.home())},
    )  # fmt: skip
    assert done.returncode == 0, f"{command[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def python_client(directory, spec=SPEC, name="tablestream_client"):
    """openapi-python-client's package for `spec` (openapi.yaml), imported as `name`."""
    target = directory / name
    run([str(BIN / "openapi-python-client"), "generate", "--path", str(spec),
         "--output-path", str(target), "--meta", "none"])  # fmt: skip
    sys.path.insert(0, str(directory))
    return importlib.import_module(name)


def generator_models(directory):
    """openapi-generator's `python` client for openapi.yaml; returns its models module."""
    need("java")
    quiet = "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false"
    run([str(BIN / "openapi-generator-cli"), "generate", "-i", str(SPEC), "-g", "python",
         "-o", str(directory), "--package-name", "og_client",
         "--global-property", quiet])  # fmt: skip
    sys.path.insert(0, str(directory))
    return importlib.import_module("og_client.models")


def node_tools():
    """The pinned npm packages (typescript, openapi-typescript, openapi-fetch, Redocly),
    installed once per lock file; returns their node_modules/.bin."""
    need("node")
    npm = need("npm")
    lock = (NODE_PROJECT / "package-lock.json").read_bytes()
    stamp = NODE_CACHE / ".lock-sha256"
    digest = hashlib.sha256(lock).hexdigest()
    if not stamp.exists() or stamp.read_text() != digest:
        NODE_CACHE.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(NODE_PROJECT / name, NODE_CACHE / name)
        run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NODE_CACHE)
        stamp.write_text(digest)
    return NODE_CACHE / "node_modules" / ".bin"


# Debian's jars (/usr/share/java) the Java client compiles against.
JVM_JARS = ("jackson-databind", "jackson-core", "jackson-annotations", "jsr305",
            "geronimo-annotation-1.3-spec")  # fmt: skip
# openapi-generator `java` flags, as docs/clients.md gives them. A card list that a
# redacted event shows as a count (array or integer) is mapped to Jackson's JsonNode:
# the generator's Java oneOf of an array and a number does not compile.
JAVA_FLAGS = [
    "-g", "java", "--library", "native",
    "--additional-properties", "openApiNullable=false,supportUrlQuery=false,"
    "hideGenerationTimestamp=true,invokerPackage=tablestream,apiPackage=tablestream.api,"
    "modelPackage=tablestream.model",
    "--schema-mappings", "AlienCardsOrCount=com.fasterxml.jackson.databind.JsonNode,"
    "AlakablastSpellsOrCount=com.fasterxml.jackson.databind.JsonNode,"
    "PlayerCount=com.fasterxml.jackson.databind.JsonNode",
]  # fmt: skip


def jvm_classpath():
    """The classpath of Debian's Jackson and annotation jars; a failure naming the
    packages when one is missing."""
    jars = [Path("/usr/share/java") / f"{name}.jar" for name in JVM_JARS]
    missing = [str(jar) for jar in jars if not jar.exists()]
    assert not missing, (
        f"missing {missing}: apt-get install libjackson2-databind-java "
        "libjsr305-java libgeronimo-annotation-1.3-spec-java (make test-slow does)"
    )
    return ":".join(map(str, jars))


def java_client(directory):
    """openapi-generator's Java client (library native) for openapi.yaml; returns its
    source root. Without jackson-datatype-jsr310 (not in Debian 12) the ApiClient's
    JavaTimeModule is taken out: the API has no date-time fields."""
    need("java")
    quiet = "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false"
    run([str(BIN / "openapi-generator-cli"), "generate", "-i", str(SPEC), "-o", str(directory),
         *JAVA_FLAGS, "--global-property", quiet], timeout=600)  # fmt: skip
    source = directory / "src" / "main" / "java"
    invoker = source / "tablestream"
    for name in ("RFC3339InstantDeserializer.java", "RFC3339JavaTimeModule.java"):
        (invoker / name).unlink()
    # The import and the registrations (ApiClient also registers the RFC 3339 module).
    for name, taken in (("ApiClient.java", 3), ("JSON.java", 2)):
        path = invoker / name
        lines = path.read_text().splitlines(keepends=True)
        kept = [line for line in lines if "jsr310" not in line and "JavaTimeModule()" not in line]
        assert len(lines) - len(kept) == taken, f"{name}: the generator's template changed"
        path.write_text("".join(kept))
    return source
