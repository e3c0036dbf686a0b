#!/usr/bin/env python3
"""make mutants: one-line mutations of the rules that matter, each applied alone to a scratch
clone, rebuilt incrementally and run against the tests that should notice. A mutant the tests
do not notice ("survived") is a rule nothing checks; the run fails if any survives, if a mutant
no longer applies (its line moved or changed: update mutants.txt) or does not compile.

Usage: mutants/run.py [--only ID[,ID...]] [--list] [--keep-going]
Environment: MUTANTS_DIR (scratch clone, kept between runs for incremental builds;
default /tmp/newsstand-mutants), MUTANTS_TIMEOUT (seconds per test run, default 900).
"""
import argparse, os, re, signal, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
LIST = os.path.join(HERE, "mutants.txt")
SCRATCH = os.environ.get("MUTANTS_DIR", "/tmp/newsstand-mutants")
TIMEOUT = int(os.environ.get("MUTANTS_TIMEOUT", "900"))
ENV = dict(os.environ, TZ="Pacific/Auckland")
# As `make test` runs them: a few tests at once, so blocking tests cannot starve the others.
WIDTH = ["--experimental-maximum-parallelization-width", os.environ.get("TEST_WIDTH", "4")]


class Mutant:
    def __init__(self, ident):
        self.id, self.file, self.find, self.replace, self.tests, self.why = ident, None, None, None, None, None

    def check(self):
        missing = [k for k in ("file", "find", "replace", "tests", "why") if getattr(self, k) is None]
        if missing:
            sys.exit(f"mutants.txt: mutant {self.id} lacks {', '.join(missing)}")
        if self.find == self.replace:
            sys.exit(f"mutants.txt: mutant {self.id} replaces its line with itself")


def parse(path):
    """Blocks of `key: value` lines, each starting with `id:`; `#` lines are comments.
    `find` and `replace` are exact text on one line of `file` (leading spaces are not needed)."""
    mutants, current = [], None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(": ")
        if not sep or key not in ("id", "file", "find", "replace", "tests", "why"):
            sys.exit(f"mutants.txt:{number}: expected 'key: value' with key id/file/find/replace/tests/why")
        if key == "id":
            if current:
                current.check()
            current = Mutant(value.strip())
            mutants.append(current)
        elif current is None:
            sys.exit(f"mutants.txt:{number}: '{key}' before the first id")
        else:
            setattr(current, key, value if key in ("find", "replace") else value.strip())
    if current:
        current.check()
    ids = [m.id for m in mutants]
    duplicated = {i for i in ids if ids.count(i) > 1}
    if duplicated:
        sys.exit(f"mutants.txt: ids used twice: {', '.join(sorted(duplicated))}")
    return mutants


def run(command, timeout=None, cwd=SCRATCH):
    """Runs `command` in a session of its own; on a timeout the whole group goes (the test
    process, and the nginx and Python servers it started), and the status is None."""
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", start_new_session=True)
    try:
        out, _ = process.communicate(timeout=timeout)
        return process.returncode, out, time.monotonic() - started
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, _ = process.communicate()
        return None, out, time.monotonic() - started


def prepare_scratch():
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    if not os.path.isdir(os.path.join(SCRATCH, ".git")):
        subprocess.run(["git", "clone", "--quiet", REPO, SCRATCH], check=True)
    subprocess.run(["git", "fetch", "--quiet", REPO, head], cwd=SCRATCH, check=True)
    subprocess.run(["git", "reset", "--quiet", "--hard", head], cwd=SCRATCH, check=True)
    subprocess.run(["git", "clean", "--quiet", "-fdx", "-e", ".build"], cwd=SCRATCH, check=True)
    return head


def build():
    return run(["swift", "build", "--build-tests"], timeout=3600)


def tests_ran(output):
    counts = re.findall(r"Test run with (\d+) tests?", output) + re.findall(r"Executed (\d+) tests?", output)
    return sum(int(c) for c in counts)


def failed_tests(output):
    names = re.findall(r"✘ Test (\S+?\(.*?\)) (?:failed|recorded)", output)
    return sorted(set(names))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated mutant ids")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    args = parser.parse_args()
    mutants = parse(LIST)
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m.id for m in mutants}
        if unknown:
            sys.exit(f"unknown mutant ids: {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m.id in wanted]
    if args.list:
        for m in mutants:
            print(f"{m.id:32} {m.file}\n{'':32} {m.why}")
        return 0

    head = prepare_scratch()
    print(f"mutants: {len(mutants)} against {head[:12]} in {SCRATCH}", flush=True)
    # Every mutant must apply to today's code before anything is run.
    stale = []
    for m in mutants:
        path = os.path.join(SCRATCH, m.file)
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if text.count(m.find.strip()) != 1:
            stale.append(f"  {m.id}: {m.file} has {text.count(m.find.strip())} occurrences of: {m.find.strip()}")
    if stale:
        print("these mutants no longer apply (update mutants/mutants.txt):\n" + "\n".join(stale))
        return 2

    status, output, seconds = build()
    if status != 0:
        print(output[-4000:])
        print("the unmutated code does not build")
        return 2
    union = "|".join(sorted({m.tests for m in mutants}))
    status, output, seconds = run(["swift", "test", "--skip-build", *WIDTH, "--filter", union], timeout=TIMEOUT * 2)
    if status != 0 or tests_ran(output) == 0:
        print(output[-6000:])
        print(f"the unmutated code fails the selected tests ({', '.join(failed_tests(output)) or 'none ran'}): fix that first")
        return 2
    print(f"baseline: {tests_ran(output)} tests pass ({seconds:.0f} s)", flush=True)

    results = []
    for index, m in enumerate(mutants, 1):
        path = os.path.join(SCRATCH, m.file)
        original = open(path, encoding="utf-8").read()
        open(path, "w", encoding="utf-8").write(original.replace(m.find.strip(), m.replace.strip(), 1))
        try:
            status, output, build_seconds = build()
            if status != 0:
                verdict, detail, seconds = "STILLBORN", "does not compile: " + " ".join(
                    l.strip() for l in output.splitlines() if "error:" in l)[:300], build_seconds
            else:
                status, output, seconds = run(["swift", "test", "--skip-build", *WIDTH, "--filter", m.tests], timeout=TIMEOUT)
                if status is None:
                    verdict, detail = "caught", f"the tests did not finish within {TIMEOUT} s"
                elif tests_ran(output) == 0:
                    verdict, detail = "NO TESTS", f"no test matched '{m.tests}'"
                elif status != 0:
                    verdict, detail = "caught", ", ".join(failed_tests(output))[:300] or "the test run failed"
                else:
                    verdict, detail = "SURVIVED", f"{tests_ran(output)} tests passed"
                seconds += build_seconds
        finally:
            open(path, "w", encoding="utf-8").write(original)
        results.append((m, verdict, detail))
        print(f"[{index}/{len(mutants)}] {m.id:32} {verdict:9} {seconds:5.0f} s  {detail}", flush=True)

    caught = sum(1 for _, v, _ in results if v == "caught")
    print(f"\n{len(results)} mutants: {caught} caught, {len(results) - caught} not")
    for m, verdict, detail in results:
        if verdict != "caught":
            print(f"  {verdict}: {m.id} ({m.file}): {m.why}")
    return 0 if caught == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
