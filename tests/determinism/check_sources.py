#!/usr/bin/env python3
"""Checks that carom's determinism survives vendoring (docs/determinism.md), on the sources
themselves rather than on one build's results:

1. every engine/*.c includes "core.h" before anything else (core.h holds the guards below);
2. no libm transcendental function is called in engine/ or in the public headers (results of
   sin, cos, exp, pow... differ in their last bits between libms; carom has its own sin, cos
   and atan2 in engine/math.c);
3. every engine/*.c refuses to compile with -ffast-math (core.h's #error);
4. every engine/*.c, compiled the way someone who drops engine/ into their own build might
   (the compiler's default C dialect, which for GCC means -ffp-contract=fast, no flag of ours,
   -O3, a target with fused multiply-add), contains no fused multiply-add instruction: core.h's
   pragmas must turn contraction off by themselves.

usage: check_sources.py SOURCE_ROOT CC [CC ARGS...]
"""
import concurrent.futures
import pathlib
import re
import subprocess
import sys

TRANSCENDENTAL = re.compile(
    r"\b(sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|exp|exp2|expm1|"
    r"log|log2|log10|log1p|logb|pow|cbrt|hypot|erf|erfc|tgamma|lgamma|sincos)[fl]?\s*\(")

# Fused multiply-add instructions by target, as they appear in GCC's and clang's assembly.
FMA_TARGETS = {
    "x86_64": (["-march=haswell"], re.compile(r"\bvf(n)?m(add|sub)\w*")),
    "aarch64": ([], re.compile(r"\b(fmadd|fmsub|fnmadd|fnmsub|fmla|fmls)\b")),
}


COMMENT_OR_LITERAL = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'', re.S)


def strip_comments(text, blank_literals):
    """C source with comments blanked out, and string and character literals too if asked."""
    def replace(match):
        token = match.group(0)
        if token.startswith("/"):
            return "\n" * token.count("\n") or " "  # keeps line numbers
        return '""' if blank_literals else token
    return COMMENT_OR_LITERAL.sub(replace, text)


def check_first_include(path, failures):
    code = strip_comments(path.read_text(), blank_literals=False)
    first = next((line.strip() for line in code.splitlines() if line.strip()), None)
    if first is None or not re.fullmatch(r'#\s*include\s*"core\.h"', first):
        failures.append(f"{path}: the first line of code must be #include \"core.h\" (its "
                        f"determinism guards must come before anything else), found: {first}")


def check_no_transcendental(path, failures):
    code = strip_comments(path.read_text(), blank_literals=True)
    for number, line in enumerate(code.splitlines(), 1):
        for match in TRANSCENDENTAL.finditer(line):
            # A definition or call of a carom function such as carom_atan2( does not count.
            start = match.start()
            if start > 0 and (line[start - 1].isalnum() or line[start - 1] == "_"):
                continue
            failures.append(f"{path}:{number}: calls libm's {match.group(1)}(): use carom's own "
                            f"(engine/math.c) or no transcendental function in the step")


def compile_file(cc, root, path, args):
    command = cc + ["-I", str(root / "include"), "-I", str(root / "engine")] + args + [str(path)]
    return subprocess.run(command, capture_output=True, text=True)


def check_fast_math_refused(cc, root, path):
    result = compile_file(cc, root, path, ["-ffast-math", "-fsyntax-only"])
    if result.returncode == 0 or "must not be compiled with -ffast-math" not in result.stderr:
        return f"{path}: compiles with -ffast-math; core.h's #error should refuse it"
    return None


def check_no_fma(cc, root, path, target_args, instructions):
    result = compile_file(cc, root, path, ["-O3", "-S", "-o", "-"] + target_args)
    if result.returncode != 0:
        return f"{path}: does not compile with {' '.join(target_args)} -O3:\n{result.stderr}"
    found = sorted(set(m.group(0) for m in instructions.finditer(result.stdout)))
    if found:
        return (f"{path}: compiled -O3 {' '.join(target_args)} without our flags, it has fused "
                f"multiply-add instructions ({', '.join(found)}): core.h's pragmas no longer "
                f"turn contraction off by themselves")
    return None


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1]).resolve()
    cc = sys.argv[2:]
    sources = sorted((root / "engine").glob("*.c"))
    headers = sorted((root / "engine").glob("*.h")) + sorted((root / "include/carom").glob("*.h"))
    failures = []
    for path in sources:
        check_first_include(path, failures)
    for path in sources + headers:
        check_no_transcendental(path, failures)

    machine = subprocess.run(cc + ["-dumpmachine"], capture_output=True, text=True).stdout
    fma = next((value for key, value in FMA_TARGETS.items() if machine.startswith(key)), None)
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        jobs = [pool.submit(check_fast_math_refused, cc, root, path) for path in sources]
        if fma is not None:
            jobs += [pool.submit(check_no_fma, cc, root, path, *fma) for path in sources]
        failures += [job.result() for job in jobs if job.result() is not None]

    checked = ["core.h first", "no libm transcendental", "-ffast-math refused"]
    checked.append("no FMA at -O3 " + " ".join(fma[0]) if fma else
                   f"FMA check skipped: no pattern for target {machine.strip()}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(sources)} engine sources, {len(headers)} headers: {'; '.join(checked)}: "
          f"{'ok' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
