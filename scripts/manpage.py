#!/usr/bin/env python3
r"""pricewatch(1) in man(7) from `pricewatch --experimental-dump-help` (swift-argument-parser's
ToolInfo JSON): the program's options and those several commands share, every command with its
synopsis, abstract, discussion and options (with their defaults and values), then what the
parser does not know: environment, exit status, files.

Man(7) escapes are written `\\fB` in these (non-raw) strings: a lone `\f` is a form feed.

    scripts/manpage.py DUMP_HELP_JSON > pricewatch.1
"""
import json
import sys


def esc(text):
    """Escapes text for a man(7) line: backslashes, leading dots and quotes, hyphens."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith(".") or line.startswith("'"):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def names(argument):
    result = []
    for name in argument.get("names", []):
        prefix = "--" if name["kind"] in ("long",) else "-"
        result.append(prefix + name["name"])
    return result


def visible(arguments):
    return [a for a in arguments or [] if a.get("shouldDisplay", True)
            and not any(n["name"] in ("help", "version", "experimental-dump-help") for n in a.get("names", []))]


def synopsis(path, command):
    parts = []
    for argument in visible(command.get("arguments")):
        flags = names(argument)
        value = argument.get("valueName", "value")
        if argument["kind"] == "positional":
            item = "\\fI%s\\fR" % esc(value) + (" ..." if argument.get("isRepeating") else "")
        elif argument["kind"] == "flag":
            item = "\\fB%s\\fR" % esc(flags[0])
        else:
            item = "\\fB%s\\fR \\fI%s\\fR" % (esc(flags[0]), esc(value))
        parts.append("[" + item + "]" if argument.get("isOptional") else item)
    return ".B %s\n%s\n" % (esc(path), " ".join(parts))


def options(command):
    out = []
    for argument in visible(command.get("arguments")):
        value = argument.get("valueName", "value")
        if argument["kind"] == "positional":
            head = "\\fI%s\\fR" % esc(value)
        elif argument["kind"] == "flag":
            head = ", ".join("\\fB%s\\fR" % esc(n) for n in names(argument))
        else:
            head = ", ".join("\\fB%s\\fR \\fI%s\\fR" % (esc(n), esc(value)) for n in names(argument))
        text = esc(argument.get("abstract", ""))
        if argument.get("allValues"):
            text += " Values: %s." % esc(", ".join(argument["allValues"]))
        if argument.get("defaultValue") not in (None, ""):
            text += " Default: %s." % esc(argument["defaultValue"])
        if argument.get("discussion"):
            discussion = argument["discussion"]
            if isinstance(discussion, dict):
                discussion = " ".join(str(v) for v in discussion.values())
            text += " " + esc(str(discussion))
        out.append(".TP\n%s\n%s\n" % (head, text.strip()))
    return "".join(out)


def global_options(tool):
    """The options of the program itself, then every option several commands share (with the
    commands that take it); each command's own options are under COMMANDS."""
    out = [".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow the help of the program or of a command "
           "(\\fBpricewatch help\\fR \\fIcommand\\fR) and exit.\n",
           ".TP\n\\fB\\-\\-version\\fR\nprint the version and exit.\n",
           ".TP\n\\fB\\-\\-generate\\-completion\\-script\\fR \\fIshell\\fR\n"
           "print the completion script for bash, zsh or fish and exit.\n"]
    shared = {}
    for path, sub in commands(tool["commandName"], tool):
        for argument in visible(sub.get("arguments")):
            if argument["kind"] == "positional" or not names(argument):
                continue
            key = names(argument)[-1]
            entry = shared.setdefault(key, {"argument": argument, "commands": [], "abstracts": set()})
            entry["commands"].append(path.split(" ", 1)[1])
            entry["abstracts"].add(argument.get("abstract", ""))
    for key in sorted(shared, key=lambda k: (-len(shared[k]["commands"]), k)):
        entry = shared[key]
        if len(entry["commands"]) < 3:
            continue
        argument = entry["argument"]
        value = argument.get("valueName", "value")
        if argument["kind"] == "flag":
            head = ", ".join("\\fB%s\\fR" % esc(n) for n in names(argument))
        else:
            head = ", ".join("\\fB%s\\fR \\fI%s\\fR" % (esc(n), esc(value)) for n in names(argument))
        if len(entry["abstracts"]) == 1:
            text = esc(argument.get("abstract", "")).strip()
        else:
            text = "Its meaning and values depend on the command: see COMMANDS."
        text += " Taken by %s." % esc(", ".join(entry["commands"]))
        out.append(".TP\n%s\n%s\n" % (head, text))
    return "".join(out)


def commands(prefix, command):
    """Every subcommand, depth first."""
    for sub in command.get("subcommands", []) or []:
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        path = prefix + " " + sub["commandName"]
        yield path, sub
        yield from commands(path, sub)


def main():
    tool = json.load(open(sys.argv[1]))["command"]
    name = tool["commandName"]
    out = []
    out.append('.\\" Generated by scripts/generate-docs from `%s --experimental-dump-help`; do not edit.\n' % name)
    out.append('.TH PRICEWATCH 1 "2026" "pricewatch" "User Commands"\n')
    out.append(".SH NAME\n%s \\- %s\n" % (name, esc(tool.get("abstract", ""))))
    out.append(".SH SYNOPSIS\n")
    for path, sub in commands(name, tool):
        out.append(synopsis(path, sub) + ".br\n")
    out.append(".SH DESCRIPTION\n%s\n" % esc(tool.get("abstract", "")))
    out.append(".PP\nEvery command reads the main configuration file named by \\fB\\-\\-config\\fR, else by "
               "\\fBPRICEWATCH_CONFIG\\fR, else \\fI/etc/pricewatch/pricewatch.toml\\fR; see \\fBpricewatch.toml\\fR(5).\n")
    out.append(".SH OPTIONS\n" + global_options(tool))
    out.append(".SH COMMANDS\n")
    for path, sub in commands(name, tool):
        aliases = sub.get("aliases") or []
        out.append(".SS %s%s\n" % (esc(path), " (alias: %s)" % esc(", ".join(aliases)) if aliases else ""))
        out.append(synopsis(path, sub))
        out.append(".PP\n%s\n" % esc(sub.get("abstract", "")))
        if sub.get("discussion"):
            out.append(".PP\n%s\n" % esc(sub["discussion"]))
        out.append(options(sub))
    out.append(""".SH ENVIRONMENT
.TP
.B PRICEWATCH_CONFIG
the main configuration file when \\fB\\-\\-config\\fR is not given.
.TP
.B CREDENTIALS_DIRECTORY
where \\fB{ credential = "NAME" }\\fR secrets are read (systemd sets it for the service).
Outside systemd, \\fBcheck\\fR, \\fBnotify\\-test\\fR and \\fBrules\\fR use \\fB\\-\\-credentials\\-directory\\fR,
or, run by root, the files of the installed unit's \\fBLoadCredential=\\fR lines.
.TP
.B SYSTEMD_UNIT_PATH
where those commands look for the installed \\fIpricewatch.service\\fR (colon-separated directories),
as systemd does.
.TP
.B PRICEWATCH_CALENDARS
the directory of the trading calendars, before \\fI/usr/share/pricewatch/calendars\\fR and
\\fI/usr/local/share/pricewatch/calendars\\fR.
.TP
.B PRICEWATCH_PROVIDER_BASE_URL
the base URL of the built-in providers \\fBquote\\fR and \\fBsearch\\fR use without a configuration file
(a proxy, a mirror, a test server).
.TP
.BR JOURNAL_STREAM ", " NOTIFY_SOCKET ", " WATCHDOG_USEC
set by systemd: \\fBrun\\fR logs to the journal, reports readiness and pings the watchdog.
.SH EXIT STATUS
.TP
.B 0
success.
.TP
.B 1
the command ran and found errors (invalid configuration, failed fetch, malformed data, a failed delivery).
.TP
.B 64
usage error (an unknown option, a missing argument, an invalid value).
.TP
.B 65
\\fBrun\\fR: the state database is unusable (damaged, emptied, or written by a newer version);
the daemon stops (systemd does not restart it).
.TP
.B 78
\\fBrun\\fR: the configuration is invalid at start; the daemon does not start (systemd does not restart it).
.SH FILES
.TP
.I /etc/pricewatch/pricewatch.toml
the main configuration file.
.TP
.I /etc/pricewatch/rules.d/
the rule files.
.TP
.I /etc/pricewatch/credentials/
secrets handed to the service as systemd credentials.
.TP
.I /var/lib/pricewatch/pricewatch.db
the state database: quote history, rule states, the alert log and the outbox.
.TP
.I /lib/systemd/system/pricewatch.service
the systemd unit.
.SH SEE ALSO
.BR pricewatch.toml (5),
.BR systemctl (1),
.BR journalctl (1),
.BR systemd.exec (5)
""")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
