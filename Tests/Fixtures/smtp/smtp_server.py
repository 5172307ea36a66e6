#!/usr/bin/python3
"""A real SMTP server for the email sink's tests (aiosmtpd, from Debian's python3-aiosmtpd).

Listens on 127.0.0.1 on a free port and prints "READY <port>" once it accepts connections.
Each message it accepts is written to DIR/messages/<n>.eml (the raw bytes as received) and
DIR/messages/<n>.json: the envelope, whether the session was TLS and authenticated, and the
message as parsed independently by Python's `email` package (policy=strict), with every
defect the parser found. The test reads those files; it never trusts our own builder to check
our own output.

Modes:
  --tls starttls   offers STARTTLS and refuses every other command until it is done
  --tls implicit   TLS from the first byte (smtps://)
  --tls none       plain; offers no STARTTLS at all
  --tls hang       accepts connections, prints "CONNECTION" for each, and never says a word
  --tls closed     prints the port of a socket it closed at once: nothing listens there
  --auth USER:PASS AUTH PLAIN/LOGIN with these credentials (after TLS unless --tls none)
  --reject ADDR    answers RCPT TO:<ADDR> with 550
  --tempfail ADDR  answers RCPT TO:<ADDR> with 451

With --tls starttls or implicit, a self-signed certificate for 127.0.0.1 and localhost is
made with `openssl req` into DIR/cert.pem (the test trusts it through `ca_file`).
The server stops when its standard input closes (the test ended or died) or on SIGTERM.
"""

import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import socket
import ssl
import subprocess
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def make_certificate(directory):
    cert = os.path.join(directory, "cert.pem")
    key = os.path.join(directory, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-sha256", "-days", "1",
         "-keyout", key, "-out", cert, "-subj", "/CN=localhost",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def describe(message):
    """The parsed message as JSON-friendly data, with every defect the parser recorded."""
    defects = [type(d).__name__ for d in message.defects]
    headers = []
    for name, value in message.items():
        headers.append({"name": name, "value": str(value)})
        defects += [f"{name}: {type(d).__name__}" for d in getattr(value, "defects", [])]
    parts = []
    for part in message.walk():
        defects += [f"part {part.get_content_type()}: {type(d).__name__}" for d in part.defects]
        if part.is_multipart():
            continue
        parts.append({
            "content_type": part.get_content_type(),
            "charset": part.get_content_charset(),
            "transfer_encoding": part.get("Content-Transfer-Encoding"),
            # Text as text; files (inline charts, attachments) as their decoded size.
            "content": part.get_content() if part.get_content_maintype() == "text"
            else f"{len(part.get_payload(decode=True))} bytes",
        })
    return {
        "headers": headers,
        "subject": str(message["Subject"]),
        "from": [a.addr_spec for a in message["From"].addresses],
        "from_display": [a.display_name for a in message["From"].addresses],
        "to": [a.addr_spec for a in message["To"].addresses],
        "message_id": str(message["Message-ID"]),
        "date": message["Date"].datetime.isoformat() if message["Date"].datetime else None,
        "content_type": message.get_content_type(),
        "parts": parts,
        "defects": defects,
    }


class Recorder:
    def __init__(self, directory, reject, tempfail):
        self.directory = os.path.join(directory, "messages")
        os.makedirs(self.directory, exist_ok=True)
        self.reject = {a.lower() for a in reject}
        self.tempfail = {a.lower() for a in tempfail}
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.reject:
            return "550 5.1.1 <%s>: recipient rejected" % address
        if address.lower() in self.tempfail:
            return "451 4.3.0 <%s>: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.directory, str(self.count))
        raw = envelope.original_content
        try:
            parsed = describe(email.message_from_bytes(raw, policy=email.policy.strict))
            parse_error = None
        except Exception as error:  # a defect under policy=strict, or worse
            parsed = None
            parse_error = f"{type(error).__name__}: {error}"
        transport = server.transport
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": session.ssl is not None or (transport is not None and transport.get_extra_info("ssl_object") is not None),
            "authenticated": bool(session.authenticated),
            "login": session.auth_data.decode() if isinstance(session.auth_data, bytes) else None,
            "parse_error": parse_error,
            "message": parsed,
        }
        with open(base + ".eml.tmp", "wb") as f:
            f.write(raw)
        with open(base + ".json.tmp", "w") as f:
            json.dump(record, f, indent=2, ensure_ascii=False)
        # The test looks for .json: write it last, atomically.
        os.rename(base + ".eml.tmp", base + ".eml")
        os.rename(base + ".json.tmp", base + ".json")
        return "250 2.0.0 Message accepted"


def authenticator_for(credentials, tls_mode):
    user, _, password = credentials.partition(":")

    def authenticate(server, session, envelope, mechanism, auth_data):
        if tls_mode != "none":
            transport = server.transport
            if session.ssl is None and (transport is None or transport.get_extra_info("ssl_object") is None):
                return AuthResult(success=False, handled=False)
        if isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
                and auth_data.password.decode() == password:
            return AuthResult(success=True, auth_data=auth_data.login)
        return AuthResult(success=False, handled=False)

    return authenticate


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--tls", choices=["starttls", "implicit", "none", "hang", "closed"], required=True)
    parser.add_argument("--auth")
    parser.add_argument("--reject", action="append", default=[])
    parser.add_argument("--tempfail", action="append", default=[])
    args = parser.parse_args()

    context = make_certificate(args.dir) if args.tls in ("starttls", "implicit") else None
    recorder = Recorder(args.dir, args.reject, args.tempfail)
    loop = asyncio.get_running_loop()

    def factory():
        options = dict(hostname="localhost", ident="pricewatch-test-smtp", loop=loop)
        if args.tls == "starttls":
            options.update(tls_context=context, require_starttls=True)
        if args.auth:
            options.update(authenticator=authenticator_for(args.auth, args.tls), auth_required=True,
                           auth_require_tls=(args.tls == "starttls"))
        return SMTP(recorder, **options)

    if args.tls == "closed":
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        server = None
    elif args.tls == "hang":
        connections = []

        async def silent(reader, writer):
            connections.append(writer)  # held open, never written to
            print("CONNECTION", flush=True)

        server = await asyncio.start_server(silent, host="127.0.0.1", port=0)
        port = server.sockets[0].getsockname()[1]
    else:
        server = await loop.create_server(factory, host="127.0.0.1", port=0,
                                          ssl=context if args.tls == "implicit" else None)
        port = server.sockets[0].getsockname()[1]
    print(f"READY {port}", flush=True)

    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not os.read(sys.stdin.fileno(), 4096) else None)
    await stop.wait()
    if server is not None:
        server.close()


if __name__ == "__main__":
    asyncio.run(main())
