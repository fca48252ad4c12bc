#!/usr/bin/env python3
"""The images in docs/images/ are what their commands draw: tools/regenerate_images.sh draws
them all into a scratch folder with the build under test, and each must equal the committed file
byte for byte (the drawing and the encoders are deterministic, like the runs behind them).
An image the script does not draw, or one it draws that is not committed, fails too. The
screenshots of the web pages (web-*.png, web/tests/browser/screenshots.mjs) are left out.

    tests/check_images.py BUILD_DIR SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile


def is_browser_screenshot(name):
    return name.startswith("web-") and name.endswith(".png")


def main(build, source):
    images = os.path.join(source, "docs", "images")
    script = os.path.join(source, "tools", "regenerate_images.sh")
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run([script, build, scratch], capture_output=True, text=True)
        if result.returncode != 0:
            print(f"{script} failed with exit status {result.returncode}:\n{result.stderr}")
            return 1
        drawn = set(os.listdir(scratch))
        # web-*.png are screenshots of the web pages in Chromium, taken by
        # web/tests/browser/screenshots.mjs: a browser's text and antialiasing change with its
        # version, so they cannot be redrawn byte for byte here, and are not checked.
        committed = {name for name in os.listdir(images)
                     if not name.startswith(".") and not is_browser_screenshot(name)}
        for name in sorted(committed - drawn):
            problems.append(f"docs/images/{name}: no command in tools/regenerate_images.sh "
                            "draws it")
        for name in sorted(drawn - committed):
            problems.append(f"docs/images/{name}: drawn but not committed")
        for name in sorted(drawn & committed):
            with open(os.path.join(scratch, name), "rb") as a, \
                    open(os.path.join(images, name), "rb") as b:
                if a.read() != b.read():
                    problems.append(f"docs/images/{name} differs from what its command draws")
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        print(f"If the change was meant: tools/regenerate_images.sh {build}, then commit "
              "docs/images/.")
    print(f"{len(problems)} failure(s) in docs/images")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
