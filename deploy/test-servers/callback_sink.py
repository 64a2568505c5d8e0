"""A real HTTP endpoint for callbacks: verifies each request with PyPI's standardwebhooks
library and appends what it saw to a JSON-lines file. The path picks the behaviour:

  /ok              200
  /flaky/N         500 for the first N requests of each webhook-id, then 200
  /fail            always 500
  /gone            410
  /limited/S       429 with Retry-After: S for the first request of each webhook-id, then 200
  /redirect        302 to /ok (must not be followed)
  /slow/MS         waits MS milliseconds, then 200
  /switch/...      503 while the file LOG.down exists, else 200 (a target that goes down and comes back)
  /picky/...       422 when the body contains "unprocessable", else 200 (a partner refusing some messages)
  /match/N/S/T...  S (429 with Retry-After: 30) for the first N requests of each webhook-id whose body holds
                   every text T, else 200 (one item's one transition failing while the others go through)

Listens on 127.0.0.1 only; prints "ready" when it accepts connections.
"""
import argparse
import json
import os
import threading
import time
from collections import defaultdict

from standardwebhooks.webhooks import Webhook

from loopback_http import QuietHandler, serve, unblock_signals


def main():
    unblock_signals()
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    webhook = Webhook(args.secret)
    seen = defaultdict(int)
    lock = threading.Lock()

    class Handler(QuietHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                webhook.verify(body, headers)
                verified, error = True, None
            except Exception as exc:  # the library raises WebhookVerificationError and friends
                verified, error = False, str(exc)
            message_id = headers.get("webhook-id", "")
            with lock:
                seen[(self.path, message_id)] += 1
                count = seen[(self.path, message_id)]
            parts = self.path.strip("/").split("/")
            status, extra = 200, {}
            if not verified:
                status = 401
            elif parts[0] == "flaky" and count <= int(parts[1]):
                status = 500
            elif parts[0] == "fail":
                status = 500
            elif parts[0] == "gone":
                status = 410
            elif parts[0] == "limited" and count == 1:
                status, extra = 429, {"Retry-After": parts[1]}
            elif parts[0] == "redirect":
                status, extra = 302, {"Location": "/ok"}
            elif parts[0] == "switch" and os.path.exists(args.log + ".down"):
                status = 503
            elif parts[0] == "picky" and b"unprocessable" in body:
                status = 422
            elif parts[0] == "match" and count <= int(parts[1]) and all(t.encode() in body for t in parts[3:]):
                status = int(parts[2])
                if status == 429:
                    extra = {"Retry-After": "30"}
            elif parts[0] == "slow":
                time.sleep(int(parts[1]) / 1000)
            record = {
                "path": self.path, "webhook_id": message_id, "timestamp": headers.get("webhook-timestamp"),
                "verified": verified, "error": error, "status": status, "count": count,
                "body": body.decode("utf-8", "replace"), "received_at": time.time(),
                "headers": {k: v for k, v in headers.items() if k.startswith("x-") or k in ("content-type", "user-agent", "host", "traceparent", "tracestate")},
            }
            with lock:
                with open(args.log, "a") as handle:
                    handle.write(json.dumps(record) + "\n")
            self.answer(status, json.dumps({"status": status}).encode(), "application/json", extra.items())

    serve(args.port, Handler)


if __name__ == "__main__":
    main()
