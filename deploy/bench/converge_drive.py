"""Drives the simulator for deploy/bench/converge.sh, and compares the relay with it.

  drive SIM_URL ITEMS SECONDS SEED OUT_JSON
      creates ITEMS items over the first 60% of SECONDS, then moves them on: a final result
      5-30 s after creation, for some a changed result, for some a flag raised on the final
      item and later cleared or resolved. Every change is an admin call (the simulator sends
      or drops its webhook). Writes {changes, last_change_at, errors} to OUT_JSON.
  compare SIM_URL PSQL...
      prints "DIVERGENT MISSING" between GET /_sim/items and the relay's items table.
"""
import heapq
import json
import random
import subprocess
import sys
import threading
import time
import urllib.request



def call(sim, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(sim + path, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def drive(sim, items, seconds, seed, out):
    rng = random.Random(seed)
    plan = []  # (at, n, step, args)
    horizon = seconds * 0.95
    for n in range(items):
        created = rng.uniform(0, seconds * 0.6)
        plan.append((created, n, "create", {}))
        at = created + rng.uniform(5, 30)
        plan.append((min(at, horizon), n, "result", {"result": rng.choice(["authentic", "authentic", "unknown", "not_supported"])}))
        if rng.random() < 0.2:
            at += rng.uniform(5, 40)
            plan.append((min(at, horizon), n, "result", {"result": rng.choice(["authentic", "unknown", "invalid"])}))
        if rng.random() < 0.3:
            at += rng.uniform(5, 40)
            plan.append((min(at, horizon), n, "flag", {"flag": "flagged"}))
            at += rng.uniform(5, 40)
            plan.append((min(at, horizon), n, "flag", {"flag": rng.choice(["none", "resolved"])}))
    plan.sort(key=lambda step: (step[0], step[1]))
    ids, lock, counts = {}, threading.Lock(), {"changes": 0, "errors": 0, "last_change_at": 0.0}
    pending = {}  # n -> steps waiting for the item's creation
    start = time.time()

    def run(step):
        _, n, kind, args = step
        try:
            if kind == "create":
                created = call(sim, "/_sim/items", {"customer_item_id": "converge-%d" % n, "result": "needs_review"})
                with lock:
                    ids[n] = created["entrupy_id"]
            else:
                with lock:
                    entrupy_id = ids.get(n)
                if entrupy_id is None:
                    with lock:
                        counts["errors"] += 1
                    return
                call(sim, "/_sim/items/%s/%s" % (entrupy_id, kind), args)
            with lock:
                counts["changes"] += 1
                counts["last_change_at"] = time.time()
        except Exception as error:  # counted, the run goes on
            with lock:
                counts["errors"] += 1
            print("converge_drive: %s %s failed: %s" % (kind, n, error), file=sys.stderr)

    threads = []
    for step in plan:
        delay = start + step[0] - time.time()
        if delay > 0:
            time.sleep(delay)
        # Steps of one item stay in order: a change waits for its item's creation to finish.
        if step[2] != "create":
            while True:
                with lock:
                    if step[1] in ids:
                        break
                time.sleep(0.01)
        thread = threading.Thread(target=run, args=(step,))
        thread.start()
        threads.append(thread)
        threads = [t for t in threads if t.is_alive()]
    for thread in threads:
        thread.join()
    json.dump(counts, open(out, "w"))


def compare(sim, psql):
    # The simulator's ground truth in brief (GET /_sim/states): 200,000 whole items would be 300 MB.
    truth = {state[0]: (state[1], bool(state[2]), state[3] or "none") for state in call(sim, "/_sim/states")["states"]}
    rows = subprocess.run(psql + ["-tA", "-F", "|", "-c", "SELECT entrupy_id, result, result_final, flag FROM items"],
                          capture_output=True, text=True, check=True).stdout
    relay = {}
    for line in rows.splitlines():
        if line:
            entrupy_id, result, final, flag = line.split("|")
            relay[entrupy_id] = (result, final == "t", flag)
    missing = sum(1 for key in truth if key not in relay)
    divergent = sum(1 for key, state in truth.items() if key in relay and relay[key] != state)
    print(divergent + missing, missing)


if __name__ == "__main__":
    if sys.argv[1] == "drive":
        drive(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        compare(sys.argv[2], sys.argv[3:])
