"""The indented code blocks of a Markdown document, for tests that run a document's
examples as written."""


def blocks(text):
    """Every indented (4-space) block of `text`, dedented, blank lines inside kept."""
    found, current = [], []
    for line in text.splitlines():
        if line.startswith("    ") or (current and not line.strip()):
            current.append(line[4:])
            continue
        if current:
            found.append("\n".join(current).strip("\n"))
            current = []
    if current:
        found.append("\n".join(current).strip("\n"))
    return found
