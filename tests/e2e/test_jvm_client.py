"""A Java client generated from openapi.yaml plays one whole game with typed calls and
reads a game of each of the four (views and every event) as typed models.

openapi-generator's `java` generator (library `native`: java.net.http and Jackson)
makes the client; javac compiles it offline against Debian's Jackson jars (`make
test-slow` installs libjackson2-databind-java, libjsr305-java and
libgeronimo-annotation-1.3-spec-java). docs/clients.md gives the same flags. Debian 12
ships no jackson-datatype-jsr310, whose JavaTimeModule the generated ApiClient
registers; the API has no date-time fields (timestamps are int64 milliseconds), so the
registration and the RFC 3339 helpers are taken out before compiling.
"""

import json
import os
from pathlib import Path

import pytest

from tests.e2e import clients

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PROGRAM = Path(__file__).resolve().parent / "jvm" / "Play.java"


def test_a_java_client_compiles_plays_a_whole_game_and_reads_all_four(stack, tmp_path):
    java, javac = clients.need("java"), clients.need("javac")
    classpath = clients.jvm_classpath()
    source = clients.java_client(tmp_path / "client")
    classes = tmp_path / "classes"
    files = [str(p) for p in source.rglob("*.java")]
    assert len(files) > 150
    clients.run([javac, "-nowarn", "-d", str(classes), "-cp", classpath, *files], timeout=600)
    clients.run([javac, "-nowarn", "-d", str(classes), "-cp", f"{classes}{os.pathsep}{classpath}",
                 str(PROGRAM)])  # fmt: skip
    out = clients.run([java, "-cp", f"{classes}{os.pathsep}{classpath}", "Play", stack.base])
    played, *watched = [json.loads(line) for line in out.strip().splitlines()[-5:]]
    # A person at every seat: typed views and commands to the end.
    assert played["game"] == "alebrijes" and played["status"] == "finished"
    assert played["moves"] > 5 and len(played["scores"]) == 3
    # Each game's bots-only table: its typed view to the end, every event of its log
    # read as its own class.
    assert [w["game"] for w in watched] == ["alebrijes", "alien", "alakablast", "abluxxen"]
    for summary in [played, *watched]:
        assert summary["status"] == "finished" and len(summary["scores"]) == 3, summary
        assert summary["at"] > 2**31  # a millisecond timestamp, read as a Java long
        assert summary["typed"] == summary["events"] > 10, summary


def test_the_java_models_type_timestamps_as_long_and_unions_as_classes(tmp_path):
    source = clients.java_client(tmp_path / "client")
    model = source / "tablestream" / "model"
    assert "public Long getAt()" in (model / "GameStarted.java").read_text()
    assert "public Long getDeadline()" in (model / "TableTimer.java").read_text()
    assert "List<Long> getDeadlines()" in (model / "AlienView.java").read_text()
    union = (model / "SeatSpec.java").read_text()
    for member in ("HumanSeat", "BotSeat", "OpenSeat", "PlayerSeat"):
        assert f"public SeatSpec({member} o)" in union
    creation = (model / "CreateGame.java").read_text()
    for game in ("Alebrijes", "Alien", "Alakablast", "Abluxxen"):
        assert f"public CreateGame(Create{game}Game o)" in creation
    assert "stackSeconds" in (model / "AlienTableOptions.java").read_text()
    assert "stackSeconds" not in (model / "AlebrijesTableOptions.java").read_text()
