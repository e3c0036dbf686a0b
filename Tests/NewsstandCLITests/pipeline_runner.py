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
    artifacts = tempfile.mkdtemp(prefix="artifacts-", dir=CACHE + ".jobs")
    job_outputs = {}

    def lookup(expression, env, context):
        if expression.startswith("fromJSON(") and expression.endswith(")"):
            return json.loads(lookup(expression[9:-1].strip(), env, context))
        parts = expression.split(".")
        if parts[0] == "env" and len(parts) == 2:
            return env.get(parts[1], "")
        if parts[0] == "secrets" and len(parts) == 2:
            return secrets.get(parts[1], "")
        if expression == "github.run_id":
            return run_id
        if parts[0] == "matrix" and len(parts) == 2 and parts[1] in context["matrix"]:
            return context["matrix"][parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return context["steps"].get(parts[1], {}).get(parts[3], "")
        if parts[0] == "needs" and len(parts) == 4 and parts[2] == "outputs":
            return job_outputs.get(parts[1], {}).get(parts[3], "")
        unsupported(f"expression {expression}")

    def expand(text, env, context):
        whole = re.fullmatch(r"\$\{\{([^}]*)\}\}", str(text).strip())
        if whole:
            value = lookup(whole.group(1).strip(), env, context)
            return value if isinstance(value, list) else str(value)
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(lookup(m.group(1).strip(), env, context)), str(text))

    def outputs_of(path):
        values = {}
        for line in open(path).read().split("\n"):
            if "=" in line:
                key, value = line.split("=", 1)
                values[key] = value
        return values

    def run_job(name, job, matrix):
        print(f"job: {name}" + (f" {matrix}" if matrix else ""), flush=True)
        context = {"matrix": matrix, "steps": {}}
        paths = []
        job_env = dict(variables)
        job_env.update({k: expand(v, job_env, context) for k, v in job.get("env", {}).items()})
        for step in job["steps"]:
            env = dict(job_env)
            env.update({k: expand(v, env, context) for k, v in step.get("env", {}).items()})
            uses = step.get("uses")
            if uses is not None:
                inputs = {k: expand(v, env, context) for k, v in step.get("with", {}).items()}
                if uses == "actions/checkout@v4":
                    fresh_checkout()
                    print("step: checkout", flush=True)
                elif uses == "actions/cache/restore@v4":
                    restore(inputs["path"], [inputs["key"], inputs.get("restore-keys", "")])
                elif uses == "actions/cache/save@v4":
                    save(inputs["path"], inputs["key"])
                elif uses == "actions/upload-artifact@v4":
                    if not os.path.isdir(inputs["path"]):
                        print(f"runner: nothing to upload at {inputs['path']}", flush=True)
                        sys.exit(1)
                    shutil.copytree(inputs["path"], os.path.join(artifacts, inputs["name"]), symlinks=True)
                    print(f"artifact: uploaded {inputs['name']}", flush=True)
                elif uses == "actions/download-artifact@v4" and set(inputs) == {"path"}:
                    for artifact in sorted(os.listdir(artifacts)):
                        shutil.copytree(os.path.join(artifacts, artifact), os.path.join(inputs["path"], artifact),
                                        symlinks=True, dirs_exist_ok=True)
                        print(f"artifact: downloaded {artifact}", flush=True)
                else:
                    unsupported(f"action {uses} with {sorted(inputs)}")
                continue
            temp = env.get("RUNNER_TEMP") or OVERRIDES["RUNNER_TEMP"]
            github_path = os.path.join(temp, "github_path")
            github_output = os.path.join(temp, "github_output")
            open(github_path, "w").close()
            open(github_output, "w").close()
            shell_env = {"HOME": OVERRIDES["HOME"], "PATH": ":".join(paths + [BASE_PATH]),
                         "RUNNER_TEMP": temp, "GITHUB_PATH": github_path, "GITHUB_OUTPUT": github_output,
                         "CI": "true", "GITHUB_ACTIONS": "true", "LANG": "C.UTF-8"}
            shell_env.update({k: str(v) for k, v in env.items()})
            run_shell(expand(step["run"], env, context), shell_env, step.get("name", step["run"].split("\n")[0]))
            paths = [line for line in open(github_path).read().split("\n") if line][::-1] + paths
            if "id" in step:
                context["steps"][step["id"]] = outputs_of(github_output)
        return {k: expand(v, job_env, context) for k, v in job.get("outputs", {}).items()}

    conditions = {
        "github.event_name == 'pull_request'": EVENT == "pull_request",
        "github.event_name == 'push' || github.event_name == 'workflow_dispatch'": EVENT == "push",
    }
    ran = set()
    for name, job in document["jobs"].items():
        if job.get("if") not in conditions:
            unsupported(f"job condition {job.get('if')!r}")
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        if not conditions[job["if"]] or any(n not in ran for n in needs):
            continue
        matrix = job.get("strategy", {}).get("matrix")
        if matrix is None:
            job_outputs[name] = run_job(name, job, {})
        else:
            if len(matrix) != 1:
                unsupported("a matrix of more than one key")
            key, values = next(iter(matrix.items()))
            values = expand(values, variables, {"matrix": {}, "steps": {}})
            if not isinstance(values, list) or not values:
                print(f"runner: the matrix of {name} is empty or not a list: {values!r}", flush=True)
                sys.exit(1)
            for value in values:
                run_job(name, job, {key: value})
        ran.add(name)


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
