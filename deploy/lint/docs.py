#!/usr/bin/env python3
"""The docs check (`./deploy/local.sh test` runs it after the function-length lint).

Fails, printing `file:line: message` for each problem, when:
- README.md has 200 lines or more (it is the front door; the pages under docs/ hold the rest),
  or lacks the two commands `./deploy/local.sh run` and `./deploy/local.sh test`;
- a line of README.md or docs/*.md is over 120 characters outside tables, fenced code and
  generated blocks (between `<!-- NAME: begin ... -->` and `<!-- NAME: end -->`);
- a relative link in README.md, CHANGELOG.md or docs/*.md names a file that does not exist, or
  a heading anchor the linked page (or the page itself) does not have;
- a path of the source tree written as code (`deploy/rules/example.yaml`, `Sources/...`) in
  README.md or docs/*.md does not exist (the code tour in docs/design.md names 25 files);
- a page under docs/ is not linked from README.md (every page is one click from it);
- docs/partners.md's callback examples are not what deploy/lint/partner-examples.py makes from
  the OpenAPI document (one example per transition kind).

Usage: python3 deploy/lint/docs.py [ROOT]   (ROOT defaults to the repository this file is in)
"""
import importlib.util
import pathlib
import re
import sys

MAX_README_LINES = 200
MAX_LINE = 120
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"`[^`]*`")
GENERATED_BEGIN = re.compile(r"^<!-- ([\w -]+): begin\b")
TREE_PATH = re.compile(r"^(Sources|Tests|deploy|migrations|docs)/[\w./@+-]*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def prose_lines(text):
    """(line number, line, kind) for each line; kind is code, table, generated or prose."""
    fence, generated = None, None
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if fence:
            yield number, line, "code"
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            yield number, line, "code"
            continue
        if generated:
            yield number, line, "generated"
            if stripped.startswith(f"<!-- {generated}: end"):
                generated = None
            continue
        begin = GENERATED_BEGIN.match(stripped)
        if begin:
            generated = begin.group(1)
            yield number, line, "generated"
            continue
        yield number, line, "table" if stripped.startswith("|") else "prose"


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for _, line, kind in prose_lines(path.read_text()):
            if kind == "code":
                continue
            found.update(HTML_ANCHOR.findall(line))
            heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading:
                base = slug(heading.group(1))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
        cache[path] = found
    return cache[path]


def link_problems(root, page):
    problems = []
    for number, line, kind in prose_lines(page.read_text()):
        if kind == "code":
            continue
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto:, file:
            path_part, _, anchor = target.partition("#")
            linked = (page.parent / path_part).resolve() if path_part else page
            where = f"{page.relative_to(root)}:{number}"
            if not linked.exists():
                problems.append(f"{where}: link to a missing file: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                problems.append(f"{where}: link to a missing heading: {target}")
    return problems


def path_problems(root, page):
    """Paths of the tree written as code spans that name nothing (a file moved or renamed)."""
    problems = []
    for number, line, kind in prose_lines(page.read_text()):
        if kind == "code":
            continue
        for span in re.findall(r"`([^`\s]+)`", line):
            if TREE_PATH.match(span) and not any(mark in span for mark in "…*<>{}$"):
                if not (root / span.split(":")[0]).exists():
                    problems.append(f"{page.relative_to(root)}:{number}: no such path in the tree: {span}")
    return problems


def length_problems(root, page):
    return [f"{page.relative_to(root)}:{number}: line of {len(line)} characters (at most {MAX_LINE} outside tables and code)"
            for number, line, kind in prose_lines(page.read_text()) if kind == "prose" and len(line) > MAX_LINE]


def partner_problems(root):
    script = root / "deploy/lint/partner-examples.py"
    spec = importlib.util.spec_from_file_location("partner_examples", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = root / "docs/partners.md"
    return module.check(page) if page.exists() else ["docs/partners.md:1: the partners' page is missing"]


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parents[2]).resolve()
    readme = root / "README.md"
    pages = sorted((root / "docs").glob("*.md"))
    problems = []
    lines = readme.read_text().count("\n")
    if lines >= MAX_README_LINES:
        problems.append(f"README.md:{lines}: {lines} lines; the README must stay under {MAX_README_LINES} "
                        "(move detail to a page under docs/)")
    text = readme.read_text()
    problems += [f"README.md:1: the README must give the command {command}" for command in
                 ("./deploy/local.sh run ", "./deploy/local.sh test ") if command not in text]
    for page in [readme] + pages:
        problems += length_problems(root, page) + path_problems(root, page)
    for page in [readme, root / "CHANGELOG.md"] + pages:
        if page.exists():
            problems += link_problems(root, page)
    linked = {(root / target.partition("#")[0]).resolve() for _, line, kind in prose_lines(readme.read_text())
              if kind != "code" for target in LINK.findall(CODE_SPAN.sub("", line))}
    problems += [f"docs/{page.name}:1: not linked from README.md (every page should be one click from it)"
                 for page in pages if page.resolve() not in linked]
    problems += partner_problems(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"docs check: {len(problems)} problem(s)")
        return 1
    print(f"docs check: README.md {lines} lines; {len(pages)} pages under docs/ checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
