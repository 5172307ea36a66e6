#!/usr/bin/env python3
"""Adds the aliases of pricewatch's commands (`status` for `rules`) to the completion scripts
swift-argument-parser generates, which know only each command's name: an alias completes as
the command it names, its options and values included.

    scripts/completion-aliases.py DUMP_HELP_JSON SHELL < generated > patched

SHELL is bash, zsh or fish. Only commands directly under `pricewatch` have aliases today; a
nested alias is refused (exit 1) rather than silently left out.
"""
import json
import re
import sys


def aliases(tool):
    found = []
    for sub in tool.get("subcommands", []) or []:
        for alias in sub.get("aliases") or []:
            found.append((sub["commandName"], alias, sub.get("abstract", "")))
        for nested in sub.get("subcommands", []) or []:
            if nested.get("aliases"):
                sys.exit("completion-aliases: nested alias of %s %s not supported" % (sub["commandName"], nested["commandName"]))
    return found


def bash(script, name, alias, abstract):
    # The subcommand dispatch `run|check|...|rules|...)` and the word list offered.
    script = re.sub(r"(?m)^(\s+(?:[\w-]+\|)*)%s((?:\|[\w-]+)*\))$" % re.escape(name),
                    lambda m: m.group(1) + name + "|" + alias + m.group(2), script, count=1)
    script = re.sub(r"(compgen -W '[^']*\b)%s\b" % re.escape(name), lambda m: m.group(1) + name + " " + alias,
                    script, count=1)
    return script + "\n_pricewatch_%s() {\n    _pricewatch_%s \"$@\"\n}\n" % (alias.replace("-", "_"), name.replace("-", "_"))


def zsh(script, name, alias, abstract):
    script = re.sub(r"(?m)^(\s+)'%s:([^\n]*)'$" % re.escape(name),
                    lambda m: "%s'%s:%s'\n%s'%s:%s'" % (m.group(1), name, m.group(2), m.group(1), alias,
                                                        "Alias of %s: " % name + m.group(2)),
                    script, count=1)
    script = re.sub(r"(?m)^(\s+(?:[\w-]+\|)*)%s((?:\|[\w-]+)*\))$" % re.escape(name),
                    lambda m: m.group(1) + name + "|" + alias + m.group(2), script, count=1)
    return script + "\n_pricewatch_%s() {\n    _pricewatch_%s \"$@\"\n}\n" % (alias.replace("-", "_"), name.replace("-", "_"))


def fish(script, name, alias, abstract):
    script = re.sub(r"(?m)^(\s+)case '%s'$" % re.escape(name), lambda m: "%scase '%s' '%s'" % (m.group(1), name, alias),
                    script, count=1)
    out = []
    for line in script.split("\n"):
        out.append(line)
        if not line.startswith("complete "):
            continue
        if '"pricewatch %s"' % name in line or '"pricewatch %s ' % name in line:
            out.append(line.replace('"pricewatch %s' % name, '"pricewatch %s' % alias))
        elif "-fa '%s'" % name in line and '"pricewatch" -eq 1' in line:
            copy = line.replace("-fa '%s'" % name, "-fa '%s'" % alias)
            out.append(re.sub(r"-d '.*'$", "-d 'Alias of %s.'" % name, copy))
    return "\n".join(out)


def main():
    tool = json.load(open(sys.argv[1]))["command"]
    patch = {"bash": bash, "zsh": zsh, "fish": fish}[sys.argv[2]]
    script = sys.stdin.read()
    for name, alias, abstract in aliases(tool):
        patched = patch(script, name, alias, abstract)
        if patched.count(alias) <= script.count(alias):
            sys.exit("completion-aliases: could not add %s to the %s script" % (alias, sys.argv[2]))
        script = patched
    sys.stdout.write(script)


if __name__ == "__main__":
    main()
