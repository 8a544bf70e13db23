#!/usr/bin/env python3
"""The house rules of docs/DESIGN.md ("Conventions"), over the tracked files
of a work tree: no non-test source file over 500 lines, no C++ function over
80 lines, and every library of a layered package named in the top BUILD's
layering list for it (so //:layering_test sees all of them). Prints each
breach as path:line: what, and exits 1 if any.

    scripts/house_rules.py [WORK_TREE]     (default: this script's repository)
"""
import os
import re
import subprocess
import sys

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80
SOURCE_SUFFIXES = (".cc", ".h", ".py", ".sh", ".js", ".bzl")
# Test sources, and data that is not code.
EXEMPT = re.compile(r"(_test\.(cc|sh|py|js)$|^testdata/|^fuzz/seeds/|^fuzz/regressions/)")
CONTROL = re.compile(r"\b(if|for|while|switch|catch)\s*\($")


def strip_code(text):
    """C++ text with comments, strings and characters blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def opens_function(before):
    """Whether a '{' preceded by `before` (stripped code) opens a function body."""
    s = before.rstrip()
    s = re.sub(r"(\s*(const|override|final|noexcept|mutable))+$", "", s)
    s = re.sub(r"\s*->\s*[\w:<>,\s\*&]+$", "", s)
    if not s.endswith(")"):
        return False
    # Find the matching '(' and look at what precedes it.
    depth = 0
    for k in range(len(s) - 1, -1, -1):
        if s[k] == ")":
            depth += 1
        elif s[k] == "(":
            depth -= 1
            if depth == 0:
                return not CONTROL.search(s[: k + 1].rstrip()[-12:] if k else "(")
    return False


def long_functions(text):
    code = strip_code(text)
    found = []
    stack = []  # for each open brace: the function's start line, or None
    line = 1
    inside = 0  # how many enclosing braces are function bodies
    last = 0
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            is_fn = inside == 0 and opens_function(code[max(last, i - 400):i])
            stack.append(line if is_fn else None)
            inside += 1 if is_fn else 0
            last = i + 1
        elif c == "}":
            start = stack.pop() if stack else None
            if start is not None:
                inside -= 1
                if line - start + 1 > MAX_FUNCTION_LINES:
                    found.append((start, line - start + 1))
            last = i + 1
        elif c == ";":
            last = i + 1
    return found


# Top-level BUILD list -> the packages (path prefixes) whose libraries it
# names; "prefix:a|b" names only the libraries a and b of those packages (an
# op family's facets each belong to the layer that uses them).
LAYER_LISTS = {
    "KERNELS": ("kernels",),
    "IR": ("ir", "ops:def"),
    "EVAL": ("eval", "ops:reference|params"),
    "RUNTIME": ("runtime", "ops:kernels"),
    "TARGET": ("target",),
    "PASSES": ("passes", "ops:layout"),
    "TUNING": ("tuning",),
}


def library_labels(root, build_files, prefix):
    """Labels of the cc_libraries under `prefix` other packages may use."""
    labels = set()
    for path in build_files:
        pkg = os.path.dirname(path)
        if pkg != prefix and not pkg.startswith(prefix + "/"):
            continue
        with open(os.path.join(root, path)) as f:
            text = f.read()
        for m in re.finditer(r'cc_library\(\s*name = "([^"]+)"(.*?)\n\)', text, re.S):
            name, body = m.group(1), m.group(2)
            if "visibility:private" in body or "testonly = True" in body:
                continue
            labels.add("//" + pkg + ("" if name == os.path.basename(pkg) else ":" + name))
        # An op family's facets (ops/op_family.bzl).
        for m in re.finditer(r'op_family\((.*?)\n\)', text, re.S):
            facets = ["def", "reference", "kernels"]
            if "layout = False" not in m.group(1):
                facets.append("layout")
            labels.update("//" + pkg + ":" + facet for facet in facets)
    return labels


def op_family_facets(root, args):
    """The labels op_family_facets(args) gives in a BUILD file (ops/op_family.bzl)."""
    with open(os.path.join(root, "ops", "op_family.bzl")) as f:
        bzl = f.read()
    lists = {n: re.findall(r'"([a-z_]+)"', v) for n, v in re.findall(r"^([A-Z_]+) = \[(.*?)\]", bzl, re.M)}
    facet, _, families = args.partition(",")
    families = lists[families.strip()] if families.strip() else lists["OP_FAMILIES"]
    return {"//ops/%s:%s" % (family, facet.strip().strip('"')) for family in families}


def unlisted_libraries(root, files):
    with open(os.path.join(root, "BUILD")) as f:
        top = f.read()
    build_files = [p for p in files if os.path.basename(p) == "BUILD"]
    breaches = []
    for name, prefixes in LAYER_LISTS.items():
        m = re.search(r"^%s = \[(.*?)\]( \+ op_family_facets\(([^)]*)\))?" % name, top, re.S | re.M)
        if not m:
            breaches.append(f"BUILD:1: no layering list {name}")
            continue
        listed = set(re.findall(r'"(//[^"]+)"', m.group(1)))
        if m.group(3):
            listed |= op_family_facets(root, m.group(3))
        for spec in prefixes:
            prefix, _, names = spec.partition(":")
            labels = library_labels(root, build_files, prefix)
            if names:
                labels = {l for l in labels if l.rpartition(":")[2] in names.split("|")}
            for label in sorted(labels - listed):
                breaches.append(f"BUILD:1: {label} is not in {name} (the layering test cannot see it)")
    return breaches


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    files = subprocess.run(["git", "-C", root, "ls-files"], check=True, capture_output=True,
                           text=True).stdout.split()
    breaches = []
    for path in files:
        if not path.endswith(SOURCE_SUFFIXES) or EXEMPT.search(path):
            continue
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            continue
        with open(full, errors="replace") as f:
            text = f.read()
        lines = text.count("\n")
        if lines > MAX_FILE_LINES:
            breaches.append(f"{path}:1: {lines} lines (at most {MAX_FILE_LINES})")
        if path.endswith((".cc", ".h")):
            for start, length in long_functions(text):
                breaches.append(f"{path}:{start}: a function of {length} lines (at most {MAX_FUNCTION_LINES})")
    breaches += unlisted_libraries(root, files)
    for b in breaches:
        print(b)
    print(f"house_rules: {len(files)} tracked files, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
