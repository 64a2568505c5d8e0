"""A chat service's incoming webhook, as the relay's presets must satisfy it: checks the body
against the shape that service documents and answers as the service does, 400 otherwise.

  --service slack        JSON object with a non-empty string "text"; 200 "ok"
  --service google_chat  JSON object with a non-empty string "text"; 200 with the message
  --service discord      JSON object with a non-empty string "content" of at most 2000
                         characters ("allowed_mentions", when given, an object); 204
  --service teams        a Teams workflow's trigger: {"type": "message", "attachments": [one
                         attachment of contentType application/vnd.microsoft.card.adaptive whose
                         content has type AdaptiveCard, a version and a body list of elements
                         that each have a type]}; 202

Each request is appended to --log as JSON: the service, whether it was accepted and why not,
the body, the Standard Webhooks headers if any, and whether they verify with --secret.
Listens on 127.0.0.1 only; prints "ready" when it accepts connections.
"""
import argparse
import json
import threading
import time

from standardwebhooks.webhooks import Webhook

from loopback_http import QuietHandler, serve, unblock_signals


def non_empty_string(value):
    return isinstance(value, str) and value.strip() != ""


def check_slack(body):
    if not isinstance(body, dict) or not non_empty_string(body.get("text")):
        return "no_text"
    return None


def check_discord(body):
    if not isinstance(body, dict) or not non_empty_string(body.get("content")):
        return "content: a non-empty string is required"
    if len(body["content"]) > 2000:
        return "content: Must be 2000 or fewer in length."
    if "allowed_mentions" in body and not isinstance(body["allowed_mentions"], dict):
        return "allowed_mentions: must be an object"
    return None


def check_teams(body):
    if not isinstance(body, dict) or body.get("type") != "message":
        return "type must be message"
    attachments = body.get("attachments")
    if not isinstance(attachments, list) or len(attachments) != 1 or not isinstance(attachments[0], dict):
        return "attachments must hold one attachment"
    attachment = attachments[0]
    if attachment.get("contentType") != "application/vnd.microsoft.card.adaptive":
        return "contentType must be application/vnd.microsoft.card.adaptive"
    card = attachment.get("content")
    if not isinstance(card, dict) or card.get("type") != "AdaptiveCard" or not non_empty_string(card.get("version")):
        return "content must be an AdaptiveCard with a version"
    elements = card.get("body")
    if not isinstance(elements, list) or not elements:
        return "the card's body must be a non-empty list"
    if not all(isinstance(element, dict) and non_empty_string(element.get("type")) for element in elements):
        return "every element of the card's body needs a type"
    return None


SERVICES = {
    "slack": (check_slack, 200, b"ok", "text/plain"),
    "google_chat": (check_slack, 200, b'{"name": "spaces/S/messages/M"}', "application/json"),
    "discord": (check_discord, 204, b"", "application/json"),
    "teams": (check_teams, 202, b"", "text/plain"),
}


def main():
    unblock_signals()
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--service", choices=sorted(SERVICES), required=True)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    check, status_ok, answer_ok, content_type = SERVICES[args.service]
    webhook = Webhook(args.secret)
    lock = threading.Lock()

    class Handler(QuietHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                body = json.loads(raw)
                problem = check(body) if headers.get("content-type", "").startswith("application/json") else "not JSON"
            except ValueError:
                body, problem = None, "invalid JSON"
            signed = "webhook-signature" in headers
            verified = False
            if signed:
                try:
                    webhook.verify(raw, headers)
                    verified = True
                except Exception:  # the library raises WebhookVerificationError and friends
                    pass
            record = {
                "service": args.service, "path": self.path, "accepted": problem is None, "problem": problem,
                "body": raw.decode("utf-8", "replace"), "signed": signed, "verified": verified,
                "webhook_headers": sorted(k for k in headers if k.startswith("webhook-")), "received_at": time.time(),
            }
            with lock:
                with open(args.log, "a") as handle:
                    handle.write(json.dumps(record) + "\n")
            if problem is None:
                self.answer(status_ok, answer_ok, content_type)
            else:
                self.answer(400, json.dumps({"error": problem}).encode(), "application/json")

    serve(args.port, Handler)


if __name__ == "__main__":
    main()
