#!/usr/bin/env python3
"""Independent check of pricewatch's webhook signatures with the Standard Webhooks reference
library for Python (PyPI `standardwebhooks`, installed by scripts/setup).

Usage: verify_standard_webhooks.py REQUESTS.json

REQUESTS.json: {"secret": "whsec_...", "requests": [{"headers": {name: value}, "body_base64": "..."}]}

For each request, prints one line: `ok <webhook-id>` when the library's Webhook.verify accepts
it and rejects the same request with its body changed by one byte, else `fail <reason>`.
Exits 0 only when every request is ok, 2 when the library is missing.
"""
import base64
import json
import sys

try:
    from standardwebhooks.webhooks import Webhook, WebhookVerificationError
except ImportError:
    print("fail: the Python package standardwebhooks is not installed; run scripts/setup", file=sys.stderr)
    sys.exit(2)


def check(webhook, request):
    headers = request["headers"]
    body = base64.b64decode(request["body_base64"])
    try:
        webhook.verify(body, headers, json_parse=False)
    except WebhookVerificationError as error:
        return f"fail {headers.get('webhook-id')}: rejected: {error}"
    tampered = bytes([body[0] ^ 1]) + body[1:] if body else b"x"
    try:
        webhook.verify(tampered, headers, json_parse=False)
        return f"fail {headers.get('webhook-id')}: a changed body was accepted too"
    except WebhookVerificationError:
        pass
    return f"ok {headers.get('webhook-id')}"


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        document = json.load(file)
    webhook = Webhook(document["secret"])
    results = [check(webhook, request) for request in document["requests"]]
    for line in results:
        print(line)
    sys.exit(0 if results and all(line.startswith("ok ") for line in results) else 1)


main()
