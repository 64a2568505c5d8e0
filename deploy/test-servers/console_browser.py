"""Drives the console in headless Chromium through chromedriver (W3C WebDriver, standard
library only): sign in, search, open an item, retry a delivery, search deliveries, redrive the
dead ones of an item after seeing their count, disable and enable a target, flag an item, sign out. Saves a
screenshot of each step. Exits 0 and prints "ok" when every step did what it should; else prints why.

usage: console_browser.py --base URL --token TOKEN --item CUSTOMER_ITEM_ID --delivery ID --out DIR
"""
import argparse, base64, json, os, shutil, signal, socket, subprocess, sys, time, urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    def __init__(self, driver_url):
        self.url = driver_url
        options = {"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=1280,1000", "--no-first-run", "--disable-extensions"]}
        chromium = shutil.which("chromium")
        if chromium:
            options["binary"] = chromium
        answer = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options}}})
        self.session = answer["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.loads(response.read() or b"{}").get("value", {})
        except urllib.error.HTTPError as error:
            raise SystemExit(f"webdriver {method} {path}: {error.code} {error.read()[:500]!r}")

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def find(self, css):
        return self.s("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def exists(self, css):
        return len(self.s("POST", "/elements", {"using": "css selector", "value": css})) > 0

    def text(self, css):
        return self.s("GET", f"/element/{self.find(css)}/text")

    def type(self, css, value):
        element = self.find(css)
        self.s("POST", f"/element/{element}/clear", {})
        self.s("POST", f"/element/{element}/value", {"text": value})

    def click(self, css):
        self.s("POST", f"/element/{self.find(css)}/click", {})

    def current(self):
        return self.s("GET", "/url")

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.s("GET", "/screenshot")))

    def quit(self):
        try:
            self.s("DELETE", "")
        except SystemExit:
            pass


def check(condition, message):
    """`condition` is called until it holds (a click's navigation may still be loading), up to 15 s."""
    deadline = time.time() + 15
    while True:
        try:
            if condition():
                return
        except SystemExit:
            pass  # the element is not there yet
        if time.time() > deadline:
            raise SystemExit("console check failed: " + message)
        time.sleep(0.1)


def flag(browser, args, shot):
    """Issue 45: flag an item from its page, with one of the offered reasons and a comment."""
    browser.go(args.base + "/console/items/" + args.flag)
    check(lambda: browser.exists("#flag-form") and browser.exists("#flag-reason option"), "the item page offers the flag form and its reasons")
    browser.click("#flag-reason option[value=result_disputed]")
    browser.type("#flag-comment", "The heel tab stitching looks wrong in photo 3; please review.")
    browser.click("#flag-submit")
    check(lambda: "Entrupy accepted the flag" in browser.text("#notice"), "flagging says Entrupy accepted it")
    check(lambda: "flag requested by console" in browser.text("#timeline"), "the flag shows on the timeline with who raised it")
    browser.s("POST", "/execute/sync", {"script": "document.getElementById('refresh').scrollIntoView()", "args": []})
    shot("14-flagged.png")


def main():
    parser = argparse.ArgumentParser()
    for name in ("base", "token", "item", "delivery", "out"):
        parser.add_argument("--" + name, required=True)
    # Issue 12: an item with photos and a flag reason, and a customer item ID the relay never saw.
    parser.add_argument("--dispute")
    parser.add_argument("--unseen")
    # Issue 32: the disputed item's Entrupy ID, whose one delivery is dead: the bulk retry's subject.
    parser.add_argument("--dispute-id")
    # Issue 45: an item support flags at Entrupy from its page.
    parser.add_argument("--flag")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # The Swift test runner blocks signals and children inherit that: let chromedriver hear SIGTERM.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    port = free_port()
    process = subprocess.Popen([driver, f"--port={port}", "--allowed-ips=127.0.0.1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    browser = None
    try:
        deadline = time.time() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=2).read()
                break
            except OSError:
                if time.time() > deadline:
                    raise SystemExit("chromedriver did not start")
                time.sleep(0.2)
        browser = Browser(f"http://127.0.0.1:{port}")
        shot = lambda name: browser.screenshot(os.path.join(args.out, name))

        browser.go(args.base + "/console")
        check(lambda: browser.current().endswith("/console/login"), "signed-out visitors are sent to the sign-in page")
        shot("01-sign-in.png")
        browser.type("#token", "ert_wrong-token-value")
        browser.click("#sign-in")
        check(lambda: "not valid" in browser.text("#problem"), "a wrong token is refused on the page")
        browser.type("#token", args.token)
        browser.click("#sign-in")
        check(lambda: browser.current().endswith("/console/items"), "signing in lands on the item search")
        check(lambda: browser.exists("#results"), "the search page lists items")
        shot("02-items.png")

        browser.type("input[name=customer_item_id]", args.item)
        browser.click("#search-button")
        check(lambda: "1 item(s) match" in browser.text("#count"), "searching by customer item ID finds exactly it")
        shot("03-search.png")
        browser.click("#results a")
        check(lambda: args.item in browser.text("dl.facts"), "the item page shows the item")
        check(lambda: all(kind in browser.text("#timeline") for kind in ("item.created", "reconciled", "delivery.dead")),
              "the timeline shows transitions, fetches and attempts")
        shot("04-item.png")

        browser.click(f"#retry-{args.delivery}")
        check(lambda: "attempted again" in browser.text("#notice"), "retrying says so")
        shot("05-retried.png")

        browser.click("#nav-overview")
        check(lambda: browser.exists("#items-chart svg") and browser.exists("#latency-chart svg"), "the overview draws its charts")
        check(lambda: "%" in browser.text("#flag-rate"), "the overview gives the flag rate")
        shot("06-overview.png")
        if args.dispute:
            browser.go(args.base + "/console/items/" + args.dispute)
            check(lambda: browser.exists("#entrupy-says") and browser.exists("#photos img"), "the item page shows what Entrupy says and the photos")
            check(lambda: "Customer disputes" in browser.text("#flag-info"), "the item page shows the flag's reason")
            check(lambda: browser.exists("#submitter") and browser.exists("#resubmissions"), "the item page shows the submitter and resubmissions")
            shot("07-dispute.png")
        if args.unseen:
            browser.go(args.base + "/console/items")
            browser.type("input[name=customer_item_id]", args.unseen)
            browser.click("#search-button")
            check(lambda: browser.exists("#import-button"), "an unknown customer item ID is offered for import")
            check(lambda: "/console/items/export?" in browser.s("GET", f"/element/{browser.find('#export')}/attribute/href"),
                  "the search offers its CSV export")
            shot("08-import-offer.png")
            browser.click("#import-button")
            check(lambda: "Fetched from Entrupy" in browser.text("#notice") and args.unseen in browser.text("dl.facts"),
                  "importing lands on the fetched item")
            shot("09-imported.png")
        if args.dispute_id:
            browser.click("#nav-deliveries")
            check(lambda: browser.exists("#deliveries tbody tr"), "the deliveries page lists deliveries")
            shot("10-deliveries.png")
            browser.go(args.base + "/console/deliveries?state=dead&item=" + args.dispute_id)
            check(lambda: args.dispute_id in browser.text("#deliveries"), "searching deliveries by state and item finds the item's")
            browser.click("#bulk-button")
            check(lambda: browser.text("#bulk-count") == "1", "a bulk retry shows its count before it runs")
            shot("11-bulk-count.png")
            browser.click("#bulk-confirm-button")
            check(lambda: "Retried: 1 of 1 queued" in browser.text("#notice"), "confirming retries what was counted")
            shot("12-bulk-retried.png")
            browser.click("#nav-targets")
            check(lambda: browser.exists("#targets button"), "the targets page lists the failing target with its actions")
            browser.click("#targets button[id^=disable-]")
            check(lambda: "disabled" in browser.text("#notice") and "disabled" in browser.text("#targets"), "a target can be disabled")
            shot("13-targets.png")
            browser.click("#targets button[id^=enable-]")
            check(lambda: "enabled" in browser.text("#notice") and "healthy" in browser.text("#targets"), "and enabled again")
        if args.flag:
            flag(browser, args, shot)
        browser.click("#sign-out")
        check(lambda: browser.current().endswith("/console/login"), "signing out returns to the sign-in page")
        browser.go(args.base + "/console/items")
        check(lambda: browser.current().endswith("/console/login"), "after signing out the pages need a sign-in again")
        print("ok")
    finally:
        if browser:
            browser.quit()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    main()
