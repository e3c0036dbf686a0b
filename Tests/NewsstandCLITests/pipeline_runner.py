#!/usr/bin/python3
"""Runs a pipeline that 'newsstand init --ci' wrote, on this machine, the way its CI would:
the jobs an event selects, in order, and in each the steps (GitHub) or the script lines
(GitLab) in order, with the pipeline's variables, the test's values laid over them (secrets,
folders), and a cache kept in a folder between runs. So the templates cannot drift from the
CLI: every command they hold is run here against a real magazine and a real server.

    pipeline_runner.py github|gitlab FILE EVENT WORKSPACE CACHE OVERRIDES.json

EVENT: pull_request or push. Lines that run apt-get are not run: each package they install
must already be installed here (dpkg -s), and is printed as 'package: NAME'. Anything this
runner does not know (an action, a job condition, a key) fails it, rather than being skipped.
Exit status: 0 every job passed, 1 a step failed, 3 the pipeline uses what this runner cannot run.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

KIND, FILE, EVENT, REPOSITORY, CACHE, OVERRIDES = sys.argv[1:7]
WORKSPACE = REPOSITORY
os.makedirs(CACHE + ".jobs", exist_ok=True)
OVERRIDES = json.loads(open(OVERRIDES).read())
BASE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def unsupported(what):
    print(f"runner: unsupported: {what}", flush=True)
    sys.exit(3)


def check_installed(packages):
    for package in packages:
        if package.startswith("-"):
            continue
        if subprocess.run(["dpkg", "-s", package], capture_output=True).returncode != 0:
            print(f"runner: package {package} is not installed", flush=True)
            sys.exit(1)
        print(f"package: {package}", flush=True)


def checked_packages(script):
    """The script with apt-get commands replaced by ':', after checking what they install."""
    lines = []
    continued = None
    for line in script.split("\n"):
        stripped = line.strip()
        indent = line[: len(line) - len(line.lstrip())]
        if continued is not None or stripped.startswith("apt-get "):
            words = (continued or []) + stripped.rstrip("\\").split()
            if stripped.endswith("\\"):
                continued = words
                lines.append(indent + ": \\")
                continue
            continued = None
            if "install" in words:
                check_installed(words[words.index("install") + 1:])
            lines.append(indent + ":")
        else:
            lines.append(line)
    return "\n".join(lines)


def fresh_checkout():
    """A new copy of the repository for a job, as a runner checks it out: nothing an earlier
    job left in its working folder is there."""
    global WORKSPACE
    WORKSPACE = tempfile.mkdtemp(prefix="checkout-", dir=CACHE + ".jobs")
    shutil.rmtree(WORKSPACE)
    shutil.copytree(REPOSITORY, WORKSPACE, symlinks=True)


def run_shell(script, env, name):
    print(f"step: {name}", flush=True)
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as handle:
        handle.write(checked_packages(script))
        path = handle.name
    result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", path],
                            cwd=WORKSPACE, env=env)
    os.unlink(path)
    if result.returncode != 0:
        print(f"runner: step '{name}' failed with exit status {result.returncode}", flush=True)
        sys.exit(1)


def restore(path, key_prefixes):
    for prefix in key_prefixes:
        candidates = sorted(k for k in os.listdir(CACHE) if k.startswith(prefix))
        if candidates:
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(os.path.join(CACHE, candidates[-1]), path, symlinks=True)
            print(f"cache: restored {candidates[-1]}", flush=True)
            return
    print("cache: miss", flush=True)


def save(path, key):
    target = os.path.join(CACHE, key)
    shutil.rmtree(target, ignore_errors=True)
    if os.path.isdir(path):
        shutil.copytree(path, target, symlinks=True)
        print(f"cache: saved {key}", flush=True)


def github():
    document = yaml.safe_load(open(FILE))
    run_id = OVERRIDES.get("github.run_id", "1")
    secrets = OVERRIDES.get("secrets", {})
    variables = dict(document.get("env", {}))
    variables.update(OVERRIDES.get("env", {}))

    def expand(text, env):
        def value(match):
            expression = match.group(1).strip()
            if expression.startswith("env."):
                return env.get(expression[4:], "")
            if expression.startswith("secrets."):
                return secrets.get(expression[8:], "")
            if expression == "github.run_id":
                return run_id
            unsupported(f"expression {expression}")
        return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))

    conditions = {
        "github.event_name == 'pull_request'": EVENT == "pull_request",
        "github.event_name == 'push' || github.event_name == 'workflow_dispatch'": EVENT == "push",
    }
    for name, job in document["jobs"].items():
        if job.get("if") not in conditions:
            unsupported(f"job condition {job.get('if')!r}")
        if not conditions[job["if"]]:
            continue
        print(f"job: {name}", flush=True)
        paths = []
        job_env = dict(variables)
        job_env.update({k: expand(v, job_env) for k, v in job.get("env", {}).items()})
        for step in job["steps"]:
            env = dict(job_env)
            env.update({k: expand(v, env) for k, v in step.get("env", {}).items()})
            uses = step.get("uses")
            if uses is not None:
                inputs = {k: expand(v, env) for k, v in step.get("with", {}).items()}
                if uses == "actions/checkout@v4":
                    fresh_checkout()
                    print("step: checkout", flush=True)
                elif uses == "actions/cache/restore@v4":
                    restore(inputs["path"], [inputs["key"], inputs.get("restore-keys", "")])
                elif uses == "actions/cache/save@v4":
                    save(inputs["path"], inputs["key"])
                else:
                    unsupported(f"action {uses}")
                continue
            temp = env.get("RUNNER_TEMP") or OVERRIDES["RUNNER_TEMP"]
            github_path = os.path.join(temp, "github_path")
            open(github_path, "w").close()
            shell_env = {"HOME": OVERRIDES["HOME"], "PATH": ":".join(paths + [BASE_PATH]),
                         "RUNNER_TEMP": temp, "GITHUB_PATH": github_path, "CI": "true",
                         "GITHUB_ACTIONS": "true", "LANG": "C.UTF-8"}
            shell_env.update({k: str(v) for k, v in env.items()})
            run_shell(expand(step["run"], env), shell_env, step.get("name", step["run"].split("\n")[0]))
            paths = [line for line in open(github_path).read().split("\n") if line][::-1] + paths


def gitlab():
    document = yaml.safe_load(open(FILE))
    reserved = {"image", "stages", "variables", "default", "workflow", "include"}
    for key in document:
        if key not in reserved and not key.startswith(".") and "script" not in document[key]:
            unsupported(f"key {key}")
    variables = {k: str(v) for k, v in document.get("variables", {}).items()}
    variables.update(OVERRIDES.get("env", {}))
    variables.update(OVERRIDES.get("secrets", {}))
    rules = {
        '$CI_PIPELINE_SOURCE == "merge_request_event"': EVENT == "pull_request",
        "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH": EVENT == "push",
    }
    before = document.get("default", {}).get("before_script", [])
    for stage in document["stages"]:
        for name, job in document.items():
            if name in reserved or name.startswith(".") or job.get("stage") != stage:
                continue
            conditions = [rule.get("if") for rule in job.get("rules", [])]
            for condition in conditions:
                if condition not in rules:
                    unsupported(f"rule {condition!r}")
            if not any(rules[c] for c in conditions):
                continue
            print(f"job: {name}", flush=True)
            fresh_checkout()
            cache = job.get("cache")
            if cache:
                for path in cache["paths"]:
                    restore(os.path.join(WORKSPACE, path.rstrip("/")), [f"{cache['key']}-{path.strip('/')}"])
            env = {"HOME": OVERRIDES["HOME"], "PATH": BASE_PATH, "CI": "true", "GITLAB_CI": "true",
                   "CI_PROJECT_DIR": WORKSPACE, "LANG": "C.UTF-8"}
            env.update(variables)
            # GitLab runs before_script and script in one shell, stopping at the first failure.
            run_shell("\n".join(before + job["script"]), env, name)
            if cache and cache.get("policy", "pull-push") != "pull":
                for path in cache["paths"]:
                    save(os.path.join(WORKSPACE, path.rstrip("/")), f"{cache['key']}-{path.strip('/')}")


if KIND == "github":
    github()
elif KIND == "gitlab":
    gitlab()
else:
    unsupported(f"kind {KIND}")
print("runner: every job passed", flush=True)
