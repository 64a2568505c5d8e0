"""A load of signed webhook hints: RATE a second for DURATION seconds, each a distinct event
(PREFIX-evt-N) about an item drawn from ITEMS_FILE, posted to one of the serve replicas whose
ports PORTS_FILE lists (read again for every request, so a script can move the load between
replicas). The events answered 2xx are written to ACKED_FILE (what the relay acknowledged and
so must keep); ACKED_FILE.sent gets the number sent once done. Used by chaos.sh and
upgrade-check.sh.
    python3 signed_hints.py SECRET RATE DURATION ITEMS_FILE ACKED_FILE PORTS_FILE PREFIX
"""
import hashlib, hmac, http.client, random, sys, threading, time

secret, rate, duration = sys.argv[1].encode(), int(sys.argv[2]), int(sys.argv[3])
items_file, acked_file, ports_file, prefix = sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
items = [line.strip() for line in open(items_file) if line.strip()]
acked, lock = open(acked_file, "w"), threading.Lock()


def post(n, port):
    event = "%s-evt-%d" % (prefix, n)
    body = ('{"event":"session.completed","id":"%s","entrupy_id":"%s"}' % (event, random.choice(items))).encode()
    sig = hmac.new(secret, body, hashlib.sha256).hexdigest()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("POST", "/webhooks/entrupy", body, {"Content-Type": "application/json", "Entrupy-Signature": "sha256=" + sig})
        status = conn.getresponse().status
        conn.close()
    except Exception:
        status = 0
    with lock:
        if 200 <= status < 300:
            acked.write(event + "\n")
            acked.flush()


start, n = time.time(), 0
while time.time() - start < duration:
    ports = [int(p) for p in open(ports_file).read().split()]
    threading.Thread(target=post, args=(n, random.choice(ports))).start()
    n += 1
    time.sleep(max(0, start + n / rate - time.time()))
time.sleep(6)
print(n, file=open(acked_file + ".sent", "w"))
