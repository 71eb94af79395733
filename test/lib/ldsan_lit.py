# ldsan's lit test format: one suite over test/ holding two kinds of test.
#
#  - A source file with RUN: lines (.ll, .hip, .test; lit's ShTest, as in LLVM):
#    a file of one of those suffixes without a RUN: line is a test input, not a test.
#    In its RUN lines %{exe} is the file's program as make built it in mode full
#    (test/programs.mk), %{exe:MODE} in another mode (test/lib/build_program.sh).
#  - A line of a test list (test/*.list): "<name> <shell command>", run with bash
#    from the repository root; exit 0 passes, 77 is a skip (lit's UNSUPPORTED, the
#    reason is the output's last line), anything else fails. The test's name is
#    <name> (the lists give names like emulator/clean_reduction).
#
# Every test gets its own TMPDIR (under the suite's exec root, emptied before the
# run, removed after a pass) so that tests run side by side cannot meet in /tmp.
# Tiers: a test belongs to the quick tier when its name matches one of the
# patterns the config passes in; with tier=quick the others are not discovered.
import os
import re
import shutil
import signal
import subprocess

import lit.formats
import lit.Test
import lit.TestRunner

RUN_LINE = re.compile(rb"^\s*(//|;|#)\s*RUN:", re.M)
EXE = re.compile(r"%\{exe(?::([A-Za-z0-9+-]+))?\}")


def _has_run_line(path):
    """True when the file at path has a RUN: line in a comment (it is a test)."""
    try:
        with open(path, "rb") as f:
            return RUN_LINE.search(f.read(65536)) is not None
    except OSError:
        return False


def read_list(path):
    """The (name, command) pairs of a test list; '#' starts a comment."""
    tests = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            # A '#' inside a command (${#x}, a quoted '#') is kept: only a '#'
            # after white space or at the start begins a comment, as bash reads it.
            line = re.sub(r"(^|\s)#.*$", "", raw.rstrip("\n")).strip()
            if not line:
                continue
            name, _, command = line.partition(" ")
            tests.append((name, command.strip()))
    return tests


class LdsanFormat(lit.formats.ShTest):
    def __init__(self, repo, build, timeout, quick_patterns=None):
        super().__init__(execute_external=True)
        self.repo = repo
        self.build = build
        self.timeout = timeout
        self.quick = [re.compile(p) for p in quick_patterns] if quick_patterns is not None else None

    def _in_tier(self, name):
        return self.quick is None or any(p.search(name) for p in self.quick)

    def _list_tests(self, suite, list_path, local_config):
        for name, command in read_list(list_path):
            if not self._in_tier(name):
                continue
            test = lit.Test.Test(suite, tuple(name.split("/")), local_config, file_path=list_path)
            test.ldsan_command = command
            yield test

    def getTestsForPath(self, suite, path_in_suite, lit_config, local_config):
        filename = path_in_suite[-1]
        path = suite.getSourcePath(path_in_suite)
        if filename.startswith(".") or filename in local_config.excludes:
            return
        if filename.endswith(".list"):
            yield from self._list_tests(suite, path, local_config)
        elif any(filename.endswith(s) for s in local_config.suffixes) and _has_run_line(path):
            if self._in_tier("/".join(path_in_suite)):
                yield lit.Test.Test(suite, path_in_suite, local_config)

    def getTestsInDirectory(self, suite, path_in_suite, lit_config, local_config):
        source = suite.getSourcePath(path_in_suite)
        for filename in sorted(os.listdir(source)):
            if not os.path.isdir(os.path.join(source, filename)):
                yield from self.getTestsForPath(suite, path_in_suite + (filename,), lit_config, local_config)

    def execute(self, test, lit_config):
        tmp = test.getExecPath() + ".tmp.d"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        test.config.environment["TMPDIR"] = tmp
        if hasattr(test, "ldsan_command"):
            result = self._run_list_line(test, tmp)
        else:
            result = lit.TestRunner.executeShTest(test, lit_config, True, self._program_substitutions(test))
        code = result[0] if isinstance(result, tuple) else result.code
        if code in (lit.Test.PASS, lit.Test.UNSUPPORTED):
            shutil.rmtree(tmp, ignore_errors=True)
        return result

    def _program_substitutions(self, test):
        """%{exe} and each %{exe:MODE} the test's file names: where make built its program."""
        rel = os.path.splitext(os.path.relpath(test.getSourcePath(), test.suite.source_root))[0]
        with open(test.getSourcePath(), encoding="utf-8", errors="replace") as f:
            modes = {m.group(1) or "full" for m in EXE.finditer(f.read())}
        subs = []
        for mode in sorted(modes):
            path = os.path.join(self.build, "test", "programs", mode, rel)
            subs.append((re.escape("%{exe}" if mode == "full" else "%%{exe:%s}" % mode), path))
        if "full" in modes:
            subs.append((re.escape("%{exe:full}"), os.path.join(self.build, "test", "programs", "full", rel)))
        return subs

    def _run_list_line(self, test, tmp):
        """Runs one list line: bash -c <command> from the repository root."""
        proc = subprocess.Popen(
            ["bash", "-c", test.ldsan_command],
            cwd=self.repo,
            env=test.config.environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a timeout ends all of it
        )
        try:
            out, _ = proc.communicate(timeout=self.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            timed_out = True
        out = out.decode("utf-8", errors="replace")
        header = "$ %s\n" % test.ldsan_command
        if timed_out:
            return lit.Test.TIMEOUT, "%s%s\nldsan-test: timed out after %d s\n" % (header, out, self.timeout)
        if proc.returncode == 0:
            return lit.Test.PASS, header + out
        if proc.returncode == 77:
            last = out.rstrip("\n").rsplit("\n", 1)[-1]
            return lit.Test.UNSUPPORTED, "%s%s\nskipped: %s\n" % (header, out, last)
        return lit.Test.FAIL, "%s%s\nldsan-test: exit %d\n" % (header, out, proc.returncode)
