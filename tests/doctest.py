#!/usr/bin/env python3
"""Executable docs: every shell session shown in README.md and docs/*.md is run and its output
compared, in the manner of Python's doctest.

A session is a fenced code block whose first line starts with "$ ". Each "$ " line is a command
(run with bash, stderr merged into stdout, in a scratch folder where `build` is the build
directory under test and `scenes` the repository's scenes); the lines after it, up to the next
"$ " line or the end of the block, are its exact output. The sessions of one document share
their scratch folder, in order, so a later block may read a file an earlier one wrote.

- `$ cat FILE` of a file that does not exist yet writes FILE with the text shown: that is how a
  document shows an input file (bad.json) and the test gets it.
- A line of exactly `...` in an expected output stands for any number of lines.
- An HTML comment `<!-- doctest: illustrative -->` on the line before the fence marks a block
  that is shown, not run (output that depends on the machine, such as timings).
- A ```c block with a `main` is a program: it is compiled against the build's static library
  (C11, warnings as errors) into the scratch folder and must run with exit status 0. Its name is
  the NAME of a first line `/* NAME.c: ...`, so that a later session can run `./NAME` and show
  what it prints; otherwise it is only compiled and run.

On a mismatch the test fails and prints the command, what the document says and what the
build printed: the text to paste into the document if the change was meant. With --fix the
document is rewritten with the new outputs instead (read the diff before committing it).

    tests/doctest.py [--fix] BUILD_DIR SOURCE_DIR [DOCUMENT ...]
"""
import os
import re
import subprocess
import sys
import tempfile

ILLUSTRATIVE = "<!-- doctest: illustrative -->"


def fenced_blocks(path):
    """Yield (index of the opening fence, its line, the lines inside, the line before it) for
    each fenced block."""
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        yield start, lines[start], body, lines[start - 1] if start > 0 else ""


def sessions(path):
    """Yield (line number, [(command, expected lines, index of the first)]) for each session
    of the document (indices into its lines)."""
    for start, _, body, before in fenced_blocks(path):
        if before.strip() == ILLUSTRATIVE or not body or not body[0].startswith("$ "):
            continue
        steps = []
        for k, line in enumerate(body):
            if line.startswith("$ "):
                steps.append((line[2:], [], start + 2 + k))
            else:
                steps[-1][1].append(line)
        yield start + 1, steps


def c_programs(path):
    """Yield (line number, name or None, source) for each C program of the document."""
    for start, fence, body, _ in fenced_blocks(path):
        source = "\n".join(body) + "\n"
        if fence.strip() != "```c" or re.search(r"\bint main\(", source) is None:
            continue
        named = re.match(r"/\* ([A-Za-z_][A-Za-z0-9_]*)\.c:", body[0]) if body else None
        yield start + 1, named.group(1) if named else None, source


def build_program(name, source, folder, build_dir, source_dir):
    """Compile a document's program; returns the compiler's complaint or None."""
    with open(os.path.join(folder, name + ".c"), "w", encoding="utf-8") as file:
        file.write(source)
    libraries = [os.path.join(build_dir, library) for library in
                 ("libcarom.a", "libcarom_lanes4.a", "libcarom_lanes8.a")
                 if os.path.exists(os.path.join(build_dir, library))]
    # a library built with sanitizers needs the program linked with them too
    sanitize = os.environ.get("CAROM_SANITIZE", "none")
    sanitizers = [f"-fsanitize={sanitize}"] if sanitize not in ("", "none") else []
    command = ["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I",
               os.path.join(source_dir, "include"), name + ".c", "-o", name] + libraries + \
              ["-lm", "-pthread"] + sanitizers
    result = subprocess.run(command, cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    return result.stdout.decode("utf-8", "replace") if result.returncode != 0 else None


def matches(expected, got):
    """Whether the output lines match, `...` standing for any number of lines."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and expected[0].rstrip() == got[0].rstrip() and matches(expected[1:], got[1:])


def cat_fixture(command, folder, expected):
    """Write the file of a `cat FILE` whose file does not exist yet; whether it did."""
    match = re.fullmatch(r"cat (\S+)", command.strip())
    if match is None or "/" in match.group(1):
        return False
    target = os.path.join(folder, match.group(1))
    if os.path.exists(target):
        return False
    with open(target, "w", encoding="utf-8") as file:
        file.write("\n".join(expected) + "\n")
    return True


def run_document(path, build_dir, source_dir, fix):
    """Run the document's sessions; returns how many outputs mismatched. With fix, the
    mismatched outputs (without `...`) are replaced in the document by what the build printed."""
    failures = 0
    replacements = []
    with tempfile.TemporaryDirectory(prefix="carom-doctest-") as folder:
        os.symlink(os.path.abspath(build_dir), os.path.join(folder, "build"))
        os.symlink(os.path.join(source_dir, "scenes"), os.path.join(folder, "scenes"))
        name_of = os.path.relpath(path, source_dir)
        for number, (line_number, name, source) in enumerate(c_programs(path)):
            program = name or f"example{number}"
            complaint = build_program(program, source, folder, os.path.abspath(build_dir),
                                      source_dir)
            if complaint is None and name is None:
                result = subprocess.run(["./" + program], cwd=folder, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, timeout=300)
                if result.returncode != 0:
                    complaint = f"exit status {result.returncode}"
            if complaint is not None:
                failures += 1
                print(f"FAIL {name_of}:{line_number}: the C program does not build or run:")
                print("\n".join("    " + line for line in complaint.split("\n")))
        for line_number, steps in sessions(path):
            for command, expected, first in steps:
                if cat_fixture(command, folder, expected):
                    continue
                result = subprocess.run(["bash", "-c", command], cwd=folder,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        timeout=300)
                got = result.stdout.decode("utf-8", "replace").split("\n")
                if got and got[-1] == "":
                    got.pop()
                if not matches(expected, got):
                    failures += 1
                    print(f"FAIL {name_of}:{line_number}: $ {command}")
                    print("  the document says:")
                    print("\n".join("    " + line for line in expected) or "    (nothing)")
                    print("  the build printed (paste this if the change was meant):")
                    print("\n".join("    " + line for line in got) or "    (nothing)")
                    if "..." not in expected:
                        replacements.append((first, len(expected), got))
    if fix and replacements:
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
        for first, count, got in sorted(replacements, reverse=True):
            lines[first:first + count] = got
        with open(path, "w", encoding="utf-8") as file:
            file.write("\n".join(lines))
        print(f"fixed {len(replacements)} outputs in {os.path.relpath(path, source_dir)}")
    return failures


def main():
    if len([a for a in sys.argv[1:] if a != "--fix"]) < 2:
        print(__doc__.strip().split("\n")[-1].strip(), file=sys.stderr)
        return 2
    arguments = [a for a in sys.argv[1:] if a != "--fix"]
    fix = len(arguments) < len(sys.argv) - 1
    build_dir, source_dir = arguments[0], os.path.abspath(arguments[1])
    documents = arguments[2:]
    if not documents:
        documents = [os.path.join(source_dir, "README.md")] + sorted(
            os.path.join(source_dir, "docs", name)
            for name in os.listdir(os.path.join(source_dir, "docs")) if name.endswith(".md"))
    failures = 0
    count = 0
    for document in documents:
        count += sum(len(steps) for _, steps in sessions(document))
        failures += run_document(document, build_dir, source_dir, fix)
    programs = sum(len(list(c_programs(document))) for document in documents)
    print(f"doctest: {count} commands and {programs} C programs in {len(documents)} documents, "
          f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
