#!/usr/bin/env python3
"""Run `racing --headless --seconds S` twice and require the same lap table and state hash.

usage: check_determinism.py RACING SECONDS
The whole standard output (lap table, lap times in seconds and steps, final FNV-1a hash of every
body's pose and velocity bits) must be identical, and at least one car must have finished a lap.
"""
import subprocess
import sys


def run(racing, seconds):
    result = subprocess.run([racing, "--headless", "--seconds", seconds],
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        sys.exit(f"racing exited with {result.returncode}:\n{result.stderr}")
    return result.stdout


def main():
    racing, seconds = sys.argv[1], sys.argv[2]
    first = run(racing, seconds)
    second = run(racing, seconds)
    print(first, end="")
    if first != second:
        print("second run differs:\n" + second, end="")
        sys.exit("FAIL: two headless runs gave different lap tables or hashes")
    if "state hash:" not in first:
        sys.exit("FAIL: no state hash in the output")
    laps = [line.split()[2] for line in first.splitlines()[2:] if line[:2].strip().isdigit()]
    if not any(int(count) > 0 for count in laps):
        sys.exit("FAIL: no car finished a lap")
    print("racing determinism: the two runs are identical")


if __name__ == "__main__":
    main()
