#!/usr/bin/env python3
"""The programs of examples/ are the ones the documents show: each examples/NAME.c opens with
`/* NAME.c: ...` and must stand, to the byte, as a ```c block with that first line in README.md
or docs/*.md (which tests/doctest.py compiles, and runs where a session shows its output). So a
program edited in one place and not the other fails here, naming both places.

    examples/check_docs.py SOURCE_DIR
"""
import glob
import os
import re
import sys


def doc_programs(source_dir):
    """Yield (document, line number, first line, source) for each ```c block of the docs."""
    documents = [os.path.join(source_dir, "README.md")]
    documents += sorted(glob.glob(os.path.join(source_dir, "docs", "*.md")))
    for document in documents:
        with open(document, encoding="utf-8") as file:
            lines = file.read().split("\n")
        i = 0
        while i < len(lines):
            if lines[i].strip() != "```c":
                i += 1
                continue
            start = i + 1
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            body = lines[start:end]
            if body:
                yield document, start + 1, body[0], "\n".join(body) + "\n"
            i = end + 1


def main():
    source_dir = sys.argv[1]
    shown = {}
    for document, line, first, source in doc_programs(source_dir):
        shown.setdefault(first, []).append((document, line, source))
    problems = 0
    wrong = set()
    examples = sorted(glob.glob(os.path.join(source_dir, "examples", "*.c")))
    for example in examples:
        name = os.path.basename(example)
        with open(example, encoding="utf-8") as file:
            source = file.read()
        first = source.split("\n", 1)[0]
        where = os.path.relpath(example, source_dir)
        if not re.match(r"/\* " + re.escape(name) + ":", first):
            print(f"{where}: the first line must be `/* {name}: ...` (what the program shows)")
            problems += 1
            wrong.add(name)
            continue
        copies = shown.get(first, [])
        if not copies:
            print(f"{where}: no document shows it (a ```c block starting `{first}`)")
            problems += 1
            wrong.add(name)
        for document, line, copy in copies:
            if copy != source:
                print(f"{where} differs from its copy at {os.path.relpath(document, source_dir)}"
                      f":{line}: make them the same")
                problems += 1
                wrong.add(name)
    print(f"examples: {len(examples) - len(wrong)} of {len(examples)} programs match the docs")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
