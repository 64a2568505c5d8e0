"""A real SMTP server (aiosmtpd) for tests and local runs: stores each accepted message as a
JSON file (envelope, raw data, whether TLS and AUTH were used) and as an .eml file in --store.

Options give plain SMTP, STARTTLS, implicit TLS and AUTH (PLAIN and LOGIN); PIPELINING is
offered unless --no-pipelining. Recipients starting with "reject" get 550, "defer" get 451, so
tests reach both kinds of failure; a sender starting with "stale" gets 421 on a connection that
already carried a message.
Listens on 127.0.0.1 only; prints "ready" when it accepts connections.
"""
import argparse
import json
import os
import signal
import ssl
import threading
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class StoringHandler:
    def __init__(self, store, pipelining=True):
        self.store = store  # None: accept and discard (benchmarks)
        self.pipelining = pipelining
        self.counter = 0
        self.lock = threading.Lock()

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        # Offer PIPELINING (RFC 2920) as Postfix and Exim do: aiosmtpd reads one command
        # after another from its buffer, so commands sent together are answered in order.
        session.host_name = hostname
        if self.pipelining:
            responses.insert(len(responses) - 1, "250-PIPELINING")
        return responses

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        # A sender starting with "stale" is told 421 (closing) on a connection that already
        # carried a message: what a server that timed the kept connection out answers.
        if address.startswith("stale") and getattr(session, "messages", 0) > 0:
            return "421 4.4.2 idle too long, closing connection"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        # Whether RCPT (and DATA) came in the same write as MAIL: a pipelining client.
        reader = getattr(server, "_reader", None)
        session.pipelined = bool(reader is not None and len(getattr(reader, "_buffer", b"")) > 0)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("reject"):
            return "550 5.1.1 no such user here"
        if address.startswith("defer"):
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        session.messages = getattr(session, "messages", 0) + 1
        with self.lock:
            self.counter += 1
            name = "%06d-%d.json" % (self.counter, os.getpid())
        if self.store is None:
            return "250 2.0.0 OK queued as %s" % name
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "data": envelope.original_content.decode("utf-8", "replace"),
            "tls": session.ssl is not None or server.transport.get_extra_info("sslcontext") is not None,
            "authenticated": bool(session.authenticated),
            "auth_login": (session.login_data.decode() if isinstance(session.login_data, bytes) else session.login_data),
            "received_at": time.time(),
            # The client's port: messages sent over one kept connection share it.
            "peer_port": session.peer[1] if isinstance(session.peer, tuple) else None,
            "pipelined": getattr(session, "pipelined", False),
        }
        temporary = os.path.join(self.store, "." + name)
        with open(temporary, "w") as handle:
            json.dump(record, handle)
        with open(os.path.join(self.store, name[:-5] + ".eml"), "wb") as handle:
            handle.write(envelope.original_content)
        os.rename(temporary, os.path.join(self.store, name))
        return "250 2.0.0 OK queued as %s" % name


def main():
    # A child of the Swift test runner inherits its blocked signals: unblock them, or SIGTERM is ignored.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--store", help="directory for each accepted message (JSON and .eml)")
    parser.add_argument("--discard", action="store_true",
                        help="accept messages and store nothing (a benchmark measures the sender, not this disk)")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--tls", choices=["none", "starttls", "implicit"], default="none")
    parser.add_argument("--auth", help="user:password required before MAIL")
    parser.add_argument("--mechanisms", help="AUTH mechanisms to offer, e.g. LOGIN (default: PLAIN,LOGIN)")
    parser.add_argument("--no-pipelining", action="store_true", help="do not offer PIPELINING")
    args = parser.parse_args()
    if not args.discard and not args.store:
        parser.error("--store or --discard is required")
    if args.store:
        os.makedirs(args.store, exist_ok=True)

    context = None
    if args.tls != "none":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)

    authenticator = None
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
                and auth_data.password.decode() == password
            return AuthResult(success=ok, handled=False)

    kwargs = dict(hostname="127.0.0.1", port=args.port, ready_timeout=10)
    if args.tls == "starttls":
        kwargs.update(tls_context=context, require_starttls=True)
    if args.tls == "implicit":
        kwargs.update(ssl_context=context)
    if authenticator:
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=args.tls == "starttls")
        if args.mechanisms:
            offered = set(args.mechanisms.upper().split(","))
            kwargs.update(auth_exclude_mechanism=[m for m in ("PLAIN", "LOGIN") if m not in offered])
    else:
        kwargs.update(auth_require_tls=False)
    controller = Controller(StoringHandler(None if args.discard else args.store, pipelining=not args.no_pipelining), **kwargs)
    controller.start()
    print("ready", flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass
    controller.stop()


if __name__ == "__main__":
    main()
